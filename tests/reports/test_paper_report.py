"""The paper's analyses in the report and in `voxbench eval --analyses`, on the two-system
fixture runs scored by real eval; the browser part looks at the section in headless Chromium."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.reports.test_browser import CHROMIUM, Page, browser, shots  # noqa: F401  (fixtures)
from voxbench.cli.main import main
from voxbench.eval.paper_analyses import load_rows, paper_analyses, usable
from voxbench.eval.paper_analyses.rows import per_scenario
from voxbench.eval.paper_analyses.thresholds import GRID
from voxbench.reports.model import load_run
from voxbench.reports.pages_paper import paper_section

HEADINGS = (
    "pass@1 vs pass^k",
    "pass@1 CI width by trials",
    "EVA-X_pass pass@1 as the turn_taking threshold moves",
    "key-entity transcription vs task completion",
    "faithfulness vs task completion",
    "facets by architecture",
)


def test_analyses_agree_with_evals_own_summary(fixture_runs: list[Path]) -> None:
    """pass@1 / pass^k from the rows equal metrics_summary.json's pass_k block, and the sweep at
    the chosen 0.80 equals the stored EVA-X composites: the rows read what eval wrote."""
    out = paper_analyses(load_rows(fixture_runs))
    checked = 0
    for run in fixture_runs:
        summary = json.loads((run / "metrics_summary.json").read_text(encoding="utf-8"))
        rows = usable(load_rows([run]))
        system = rows[0].system
        if {r.condition for r in load_rows([run])} != {"clean"}:
            continue  # the summary mixes conditions; the analyses read clean conversations only
        for comp in ("EVA-A_pass", "EVA-X_pass"):
            pk = summary["overall_scores"]["pass_k"][comp]
            got = out["passk_gap"]["per_system"][system][comp]
            assert got["pass_at_1"] == pk["pass_at_1"]
            assert got["pass_power_k"] == pk["pass_power_k_observed"]
        per = per_scenario(rows, lambda r: r.aggregates.get("EVA-X_pass"))
        stored = sum(sum(v) / len(v) for v in per.values()) / len(per)
        sweep = out["thresholds"][0]["per_system"][system]["pass_at_1"]
        assert sweep[GRID.index(0.8)] == pytest.approx(stored, abs=1e-4)
        checked += 1
    assert checked == 1  # s2s-large: clean only


def test_section_in_report_html(report_dir: Path) -> None:
    html = (report_dir / "index.html").read_text(encoding="utf-8")
    assert "<section id='paper'>" in html
    assert html.count("How to read it:") == 6
    for anchor in ("passk", "trials", "thresholds", "key-entities", "faithfulness", "facets"):
        assert f"id='paper-{anchor}'" in html


def test_small_run_says_so_instead_of_drawing(fixture_runs: list[Path]) -> None:
    convs = load_run(fixture_runs[1]).conversations[:6]
    html = paper_section(convs)
    assert html.count("needs at least 10 scored clean conversations (has 6)") == 6
    assert "<svg" not in html


def test_cli_prints_the_analyses(
    fixture_runs: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = (shutil.copytree(r, tmp_path / r.name) for r in fixture_runs)
    metrics = "task_completion,turn_taking,conversation_valid_end"
    assert (
        main(
            ["eval", str(a), "--metrics", metrics, "--analyses", str(b), "--sweep-metric", "task_completion"]
        )
        == 0
    )
    out = capsys.readouterr().out
    for h in HEADINGS:
        assert h in out
    assert "EVA-A_pass pass@1 as the task_completion threshold moves (chosen 1)" in out
    assert main(["eval", str(a), "--metrics", metrics]) == 0
    assert "pass@1 vs pass^k" not in capsys.readouterr().out


def test_paper_section_in_chromium(browser: Any, report_dir: Path, shots: Path) -> None:  # noqa: F811
    with Page(browser) as pg:
        p = pg.page
        p.goto((report_dir / "index.html").as_uri() + "#paper")
        assert p.locator("#paper h3").count() == 6
        assert p.locator("#paper svg.plot").count() == 2
        assert p.locator("#paper-passk + p.how + table tbody tr").count() == 2
        p.locator("#paper").screenshot(path=str(shots / "paper.png"))
        assert pg.errors == []
