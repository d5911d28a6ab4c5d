"""The report's "Run comparison" section: shown for two runs, the same rows as `voxbench compare`."""

from __future__ import annotations

import re
from pathlib import Path

from voxbench.eval.compare import compare_runs


def test_two_runs_get_the_comparison_of_the_command(fixture_runs: list[Path], report_dir: Path) -> None:
    html = (report_dir / "index.html").read_text(encoding="utf-8")
    section = html.split("<section id='compare'>", 1)[1].split("</section>", 1)[0]
    comp = compare_runs(fixture_runs[0], fixture_runs[1])
    # the clean conversations pair (3 scenarios x 3 trials); the noise ones exist in A only
    assert comp.shared == 9 and len(comp.only_a) == 9 and not comp.only_b
    assert "conversations in one run only: 9 in A, 0 in B" in section
    shown = re.findall(r"<tr data-metric='([^']+)' data-verdict='([^']+)'>", section)
    assert shown == [(r.metric, r.verdict) for r in comp.rows]
    assert "EVA-A_pass" in dict(shown)


def test_one_run_has_no_comparison(fixture_runs: list[Path], tmp_path: Path) -> None:
    from voxbench.reports import build_report

    build_report(fixture_runs[:1], tmp_path)
    assert "id='compare'" not in (tmp_path / "index.html").read_text(encoding="utf-8")
