"""Reading metrics.json into the paper analyses' rows: states, latencies, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from voxbench.eval.paper_analyses.rows import load_rows, row_from_metrics, usable

DOC = {
    "record_id": "airline__1.1__t1__clean",
    "scenario_id": "1.1",
    "trial": 1,
    "status": "completed",
    "metrics": {
        "task_completion": {"score": 1.0, "normalized_score": 1.0},
        "faithfulness": {"score": 2, "normalized_score": 0.5},
        "agent_speech_fidelity": {"skipped": True, "details": {"skip_reason": "no entities"}},
        "conciseness": {"skipped": True, "details": {"unscored": True}},
        "conversation_progression": {"error": "judge failed"},
        "response_speed": {"score": 2.0, "details": {"per_turn_latency_s": {"1": 1.0, "2": 4.0, "3": 1.5}}},
    },
    "aggregate_metrics": {"EVA-A_pass": 1.0, "EVA-X_pass": None},
    "analysis": {"domain": "airline"},
    "context": {
        "domain": "airline",
        "pipeline_type": "s2s",
        "extra": {"condition": "noise"},
        "tool_calls": [{"turn_id": 2, "name": "get_reservation"}],
    },
}


def test_row_states_and_latencies() -> None:
    r = row_from_metrics(DOC, "sys")
    assert (r.pipeline, r.domain, r.scenario_id, r.trial, r.condition) == (
        "s2s",
        "airline",
        "1.1",
        1,
        "noise",
    )
    states = {n: c.state for n, c in r.metrics.items()}
    assert states == {
        "task_completion": "ok",
        "faithfulness": "ok",
        "agent_speech_fidelity": "skipped",
        "conciseness": "missing",
        "conversation_progression": "missing",
        "response_speed": "ok",
    }
    assert r.value("faithfulness") == 0.5 and r.value("EVA-A_pass") == 1.0 and r.value("EVA-X_pass") is None
    assert r.tool_latencies == [4.0] and sorted(r.plain_latencies) == [1.0, 1.5]
    assert usable([r]) == []  # not the clean condition


def test_bad_metrics_json_names_file_record_and_field(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"x\.json: record r1: field 'metrics'"):
        row_from_metrics({"record_id": "r1", "metrics": []}, "s", "x.json")
    with pytest.raises(ValueError, match="field 'trial'"):
        row_from_metrics({**DOC, "trial": "one"}, "s")
    d = tmp_path / "run" / "records" / "c1"
    d.mkdir(parents=True)
    (d / "metrics.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match=r"c1/metrics\.json: not valid JSON"):
        load_rows([tmp_path / "run"])


def test_load_rows_system_from_record_and_archived_left_out(tmp_path: Path) -> None:
    for name, agent in (("c1", {"name": "my-agent"}), ("c1_failed_attempt_0", {"name": "my-agent"})):
        d = tmp_path / "run" / "records" / name
        d.mkdir(parents=True)
        (d / "metrics.json").write_text(json.dumps(DOC), encoding="utf-8")
        (d / "record.json").write_text(json.dumps({"agent": agent}), encoding="utf-8")
    rows = load_rows([tmp_path / "run"])
    assert [r.system for r in rows] == ["my-agent"]
    with pytest.raises(FileNotFoundError, match="nowhere"):
        load_rows([tmp_path / "nowhere"])
