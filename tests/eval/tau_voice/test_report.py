"""The panel in a scored run's summary (pooled over calls) and in the report, per system."""

from __future__ import annotations

from pathlib import Path

from tests.eval.tau_voice.test_export import _conv
from voxbench.eval.metrics.tau_voice import METRIC_NAMES
from voxbench.eval.runner import score_run
from voxbench.eval.types import EvalConfig
from voxbench.reports.build import load_runs
from voxbench.reports.summary import markdown_summary, terminal_summary


def test_summary_pools_calls_and_report_shows_the_panel(tmp_path: Path) -> None:
    run = tmp_path / "run"
    for trial, shift in ((0, 0.0), (1, 0.13)):
        _conv(trial, shift).write(run / "records" / f"1.1.1_trial_{trial}")
    _, summary = score_run(run, EvalConfig(judge_mode="none"), [*METRIC_NAMES, "task_completion"], workers=1)
    panel = summary["tau_voice_panel"]
    assert panel["calls"] == 2
    # per call: 2 caller turns answered, 1 barge-in yielded, 1 backchannel, 1 side remark
    assert panel["grid"]["counts"]["response_total"] == 4
    assert panel["grid"]["counts"]["yield_total"] == 2
    assert panel["native"]["counts"]["backchannel_total"] == 2
    runs = load_runs([run])
    convs = [c for r in runs for c in r.conversations]
    md = markdown_summary(runs, convs)
    assert "τ-voice interaction panel" in md and "S_BC" in md
    assert "(n<10) [4]" in md  # R_R rests on 4 turns: hidden as τ-voice hides it
    assert "τ-voice panel" in terminal_summary(runs, convs)


def test_index_page_has_the_panel_table(tmp_path: Path) -> None:
    from voxbench.reports.build import build_report

    run = tmp_path / "run"
    _conv(0, 0.0).write(run / "records" / "1.1.1_trial_0")
    score_run(run, EvalConfig(judge_mode="none"), list(METRIC_NAMES), workers=1)
    build_report([run], tmp_path / "report", copy_audio=False)
    html = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    assert "τ-voice interaction panel" in html and "selectivity_non_directed" in html
