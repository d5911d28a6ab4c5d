"""The report's "Perturbation experiment" section, read from a run's experiment.json."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from voxbench.orchestrator.experiment import EXPERIMENT_FILE, compare_run
from voxbench.reports import build_report, load_run
from voxbench.reports.experiment import Experiment, ExperimentFileError


def _row(
    metric: str, base: float, cond: float, p: float | None, p_holm: float | None, sig: bool
) -> dict[str, Any]:
    return {
        "metric": metric,
        "n_pairs": 6,
        "baseline_mean": base,
        "condition_mean": cond,
        "delta": cond - base,
        "p_value": p,
        "p_holm": p_holm,
        "significant": sig,
    }


def hand_made() -> dict[str, Any]:
    """The writer's shape (compare_rows), with values chosen to exercise sorting and marks."""
    noise = [
        _row("conciseness", 0.80, 0.78, 0.61, 0.61, False),
        _row("task_completion", 0.90, 0.40, 0.0004, 0.0012, True),
        {**_row("faithfulness", 0.85, 0.70, 0.01, 0.03, True), "delta_ci": [-0.22, -0.08]},
        _row("response_speed", 1.10, 1.85, 0.02, 0.04, True),  # seconds: a rise is worse
    ]
    accent = [
        _row("task_completion", 0.90, 0.95, 0.004, 0.008, True),  # a significant gain
        _row("turn_taking", 0.70, 0.66, None, None, False),
    ]
    return {
        "schema_version": "1.0",
        "baseline": "clean",
        "conditions": ["clean", "noise", "accent+noise"],
        "scenarios": [f"airline/{i}" for i in range(6)],
        "alpha": 0.05,
        "test": "two-sided paired sign-flip permutation over per-scenario means; Holm across metrics",
        "value": "normalized_score when present (higher is better), else score",
        "counts": {"clean": {"records": 18, "completed": 18, "scored": 18}},
        "comparisons": {"noise": noise, "accent+noise": accent},
        "run_id": "exp1",
    }


@pytest.fixture
def exp_run(fixture_runs: list[Path], tmp_path: Path) -> Path:
    run = tmp_path / "exp"
    shutil.copytree(fixture_runs[0], run)
    (run / EXPERIMENT_FILE).write_text(json.dumps(hand_made()), encoding="utf-8")
    return run


def _section(out: Path) -> str:
    html = (out / "index.html").read_text(encoding="utf-8")
    m = re.search(r"<section id='experiment'>.*?</section>", html, re.S)
    assert m, "no Perturbation experiment section"
    return m.group(0)


def _rows(section: str) -> list[tuple[str, str]]:
    return re.findall(r"<tr data-condition='([^']*)' data-metric='([^']*)'>", section)


def test_section_content_and_order(exp_run: Path, tmp_path: Path) -> None:
    build_report([exp_run], tmp_path / "out")
    sec = _section(tmp_path / "out")
    assert "<h2>Perturbation experiment</h2>" in sec
    # significant degradations first, largest first (0.75 s slower ranks by its own units),
    # then the significant gain, then the not-significant rows
    assert _rows(sec) == [
        ("noise", "response_speed"),
        ("noise", "task_completion"),
        ("noise", "faithfulness"),
        ("accent+noise", "task_completion"),
        ("accent+noise", "turn_taking"),  # -0.04 ranks above conciseness' -0.02
        ("noise", "conciseness"),
    ]
    tc = re.search(r"data-condition='noise' data-metric='task_completion'>.*?</tr>", sec, re.S)
    assert tc is not None
    row = tc.group(0)
    assert "0.900" in row and "0.400" in row and "-0.500" in row
    assert "<0.001" in row and "0.001" in row  # p and Holm-adjusted p
    assert "significant · worse" in row and "class='neg delta'" in row
    assert "95% CI -0.220…-0.080" in sec  # the CI is shown where the file has one
    assert sec.count("significant · worse") == 3
    assert sec.count("significant · better") == 1
    assert sec.count("not significant") == 2
    assert "Too few scenarios" not in sec  # 6 pairs can reach 2/64 < 0.05
    assert "<b>3</b> significant degradation(s)" in sec and "Holm-adjusted p ≤ 0.05" in sec
    ns = re.search(r"data-metric='conciseness'>.*?</tr>", sec, re.S)
    assert ns is not None and "class=' delta'" in ns.group(0)  # not significant: not coloured
    rs = re.search(r"data-metric='response_speed'>.*?</tr>", sec, re.S)
    assert rs is not None and "+0.750" in rs.group(0) and "(s)" in rs.group(0)


def test_no_section_without_experiment(report_dir: Path) -> None:
    assert "id='experiment'" not in (report_dir / "index.html").read_text(encoding="utf-8")


def test_writer_output_is_read(fixture_runs: list[Path], tmp_path: Path) -> None:
    """The orchestrator's own comparison of a real scored run validates and renders."""
    run = tmp_path / "real"
    shutil.copytree(fixture_runs[0], run)
    exp = compare_run(run, "clean", seed=0)
    (run / EXPERIMENT_FILE).write_text(json.dumps(exp), encoding="utf-8")
    loaded = load_run(run).experiment
    assert isinstance(loaded, Experiment) and "noise_snr10" in loaded.comparisons
    n = len(loaded.comparisons["noise_snr10"])
    assert n >= 5
    build_report([run], tmp_path / "out")
    sec = _section(tmp_path / "out")
    assert len(_rows(sec)) == n and all(c == "noise_snr10" for c, _ in _rows(sec))
    # 3 scenarios: the exact sign-flip test cannot reach p <= 0.05, and the page says so
    assert "Too few scenarios" in sec and "smallest possible p is 0.250" in sec
    assert "-0.000" not in sec and "+0.000" not in sec


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d["comparisons"]["noise"][1].pop("delta"), r"comparisons\.noise\[1\]\.delta"),
        (lambda d: d["comparisons"]["noise"][0].update(p_holm="low"), r"comparisons\.noise\[0\]\.p_holm"),
        (lambda d: d.update(schema_version="2.0"), r"schema_version"),
        (lambda d: d["comparisons"]["noise"][2].update(delta_ci=[0.1, -0.1]), r"comparisons\.noise\[2\]"),
    ],
)
def test_malformed_file_names_file_and_field(exp_run: Path, mutate: Any, field: str) -> None:
    d = hand_made()
    mutate(d)
    (exp_run / EXPERIMENT_FILE).write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(ExperimentFileError, match=rf"experiment\.json: malformed .*field {field}"):
        load_run(exp_run)


def test_unreadable_json_names_file(exp_run: Path, tmp_path: Path) -> None:
    (exp_run / EXPERIMENT_FILE).write_text("{not json", encoding="utf-8")
    with pytest.raises(ExperimentFileError, match=r"experiment\.json: not readable JSON"):
        build_report([exp_run], tmp_path / "out")
