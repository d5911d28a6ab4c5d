"""The report says who judged each judge metric: the LLM judge's model, or the offline method
with its measured agreement with human labels (and a low-confidence mark when weak)."""

from __future__ import annotations

import shutil
from pathlib import Path

from voxbench.eval.runner import score_run
from voxbench.eval.types import EvalConfig
from voxbench.reports import build_report
from voxbench.reports.judged_by import agreement_text, method_of
from voxbench.reports.model import MetricView

METRICS = ["conversation_valid_end", "task_completion", "faithfulness", "agent_speech_fidelity",
           "conversation_progression", "conciseness", "turn_taking"]  # fmt: skip


def test_offline_judged_report_names_method_and_agreement(fixture_runs: list[Path], tmp_path: Path) -> None:
    run = tmp_path / "offline-run"
    shutil.copytree(fixture_runs[0], run)
    score_run(run, EvalConfig(judge_mode="offline"), METRICS)
    out = tmp_path / "report"
    build_report([run], out)
    html = (out / "index.html").read_text()
    assert "judged by offline:listening-load-logit" in html
    assert "judged by offline:stall-count-ordinal" in html and "human agreement: acc" in html
    assert "Offline-judged:</b> EVA-A faithfulness" in html
    conv = next((out / "conv").glob("*.html")).read_text()
    assert "offline:listening-load-logit" in conv


def test_method_and_agreement_text() -> None:
    llm = MetricView("conciseness", score=3.0, normalized=1.0, judge_model="gpt-x")
    assert method_of(llm) == "LLM gpt-x"
    off = MetricView("conciseness", score=3.0, raw={"params": {"method": "offline:m"}})
    assert method_of(off) == "offline:m"
    text, low = agreement_text("x", {"n": 10, "accuracy": 0.5, "cohen_kappa": 0.1, "low_confidence": True,
                                     "cv": {"folds": 5, "accuracy": 0.4, "cohen_kappa": 0.05}})  # fmt: skip
    assert "5-fold CV" in text and "0.40" in text and low
    assert agreement_text("x", {})[1]  # not measured: low confidence
