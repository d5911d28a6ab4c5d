"""EVA's smaller metric rules from its unit tests (issue 35), one test per rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from voxbench.eval.aggregate import ScoredRecord, overall_scores
from voxbench.eval.context import ConversationContext, ToolCallInfo
from voxbench.eval.eva_format import load_eva_context, parse_trial_record_id
from voxbench.eval.metrics.diagnostics import response_speed, tool_call_validity
from voxbench.eval.metrics.stt_wer import stt_wer
from voxbench.eval.metrics.validation import conversation_valid_end
from voxbench.eval.passk import pass_at_1, pass_at_k, pass_power_k_observed, pass_power_k_theoretical
from voxbench.eval.types import EvalConfig

CFG = EvalConfig()

# ---- pass@k / pass^k refuse impossible counts


@pytest.mark.parametrize("f", [pass_at_k, pass_power_k_observed, pass_power_k_theoretical])
@pytest.mark.parametrize(("n", "c", "k"), [(3, 1, 4), (5, 6, 2), (2, 3, 3), (4, -1, 1), (4, 1, -1)])
def test_pass_k_estimators_raise_for_impossible_counts(f: Any, n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError):
        f(n, c, k)


def test_pass_at_1_raises_for_more_passes_than_trials_or_no_trials() -> None:
    with pytest.raises(ValueError):
        pass_at_1(3, 4)
    with pytest.raises(ValueError):
        pass_at_1(0, 0)
    assert pass_power_k_theoretical(4, 2, 2) == 0.25


# ---- trial ids


@pytest.mark.parametrize(
    ("rid", "want"),
    [
        ("1.1.2", ("1.1.2", None)),  # no trial: None, since trial 0 is a real trial
        ("1.1.2/trial_0", ("1.1.2", 0)),
        ("1.1.2_trial_3", ("1.1.2", 3)),
        ("1.1.2_trial_3_notes", ("1.1.2_trial_3_notes", None)),  # a trial not at the end
        ("trial_2_of_x", ("trial_2_of_x", None)),
        ("", ("", None)),  # an empty id
        ("1.1.2_trial_3_attempt_2", ("1.1.2", 3)),  # attempt suffix stripped
        ("7.4.1/trial_12_failed_attempt_1", ("7.4.1", 12)),
        ("7.4.1_unvalidated_2", ("7.4.1", None)),
    ],
)
def test_trial_record_id_parsing(rid: str, want: tuple[str, int | None]) -> None:
    assert parse_trial_record_id(rid) == want


# ---- stt_wer: its components, and no common turns


def test_stt_wer_components_sum_to_the_wer() -> None:
    ctx = ConversationContext(
        record_id="x",
        intended_user_turns={1: "my code is alpha bravo", 2: "yes please"},
        transcribed_user_turns={1: "my code is alpha", 2: "yes yes please"},
    )
    r = stt_wer(ctx, CFG)
    subs = {k: v.score for k, v in r.sub_metrics.items()}
    assert subs == {
        "substitution_rate": 0.0,
        "deletion_rate": round(1 / 7, 4),
        "insertion_rate": round(1 / 7, 4),
    }
    assert r.score == round(2 / 7, 4)


@pytest.mark.parametrize("transcribed", [{}, {3: "something else"}])
def test_stt_wer_with_no_common_turns(transcribed: dict[int, str]) -> None:
    ctx = ConversationContext(
        record_id="x", intended_user_turns={1: "hello", 2: "goodbye"}, transcribed_user_turns=transcribed
    )
    r = stt_wer(ctx, CFG)
    assert r.skipped and r.score is None and r.error is None
    # the components are present, null (not measured), not absent
    assert {k: v.score for k, v in r.sub_metrics.items()} == {
        "substitution_rate": None,
        "deletion_rate": None,
        "insertion_rate": None,
    }
    assert r.details["num_evaluated"] == 0 and r.details["num_turns"] == 2


# ---- tool_call_validity: the count and the error rates


def _call(turn: int, name: str, error_type: str | None = None) -> ToolCallInfo:
    status = "error" if error_type else "success"
    return ToolCallInfo(turn, name, {}, {"status": status}, status, error_type)


def test_tool_call_validity_count_and_error_rates() -> None:
    ctx = ConversationContext(
        record_id="x",
        tool_calls=[
            _call(1, "get_reservation"),
            _call(2, "get_reservation", "invalid_parameter"),
            _call(3, "nope", "tool_not_found"),
            _call(3, "get_reservation", "invalid_parameter"),
            _call(4, "get_reservation", "not_found"),  # an outcome, not an invalid call
        ],
    )
    r = tool_call_validity(ctx, CFG)
    assert r.score == 0.4 and r.details["num_tool_calls"] == 5 and r.details["num_invalid_calls"] == 3
    assert r.sub_metrics["num_tool_calls"].score == 5.0
    assert r.sub_metrics["num_tool_calls"].normalized_score is None  # a count, not a score
    assert r.sub_metrics["invalid_parameter_rate"].score == 0.4
    assert r.sub_metrics["tool_not_found_rate"].score == 0.2
    assert r.sub_metrics["execution_error_rate"].score == 0.0


def test_tool_call_validity_without_calls_has_null_rates() -> None:
    r = tool_call_validity(ConversationContext(record_id="x"), CFG)
    assert r.score == 1.0 and r.sub_metrics["num_tool_calls"].score == 0.0
    rates = {k: v.score for k, v in r.sub_metrics.items() if k.endswith("_rate")}
    assert rates and set(rates.values()) == {None}  # present, not measured
    assert "invalid_parameter_rate" in rates


# ---- conversation_valid_end: the simulator log missing, empty or with a malformed last line


def _eva_record(folder: Path, sim: str | None) -> Path:
    folder.mkdir(parents=True)
    (folder / "result.json").write_text(
        json.dumps({"record_id": "1.1.1", "conversation_ended_reason": "goodbye"})
    )
    audit = {"transcript": [{"timestamp": 1500, "message_type": "user", "value": "hello"}]}
    (folder / "audit_log.json").write_text(json.dumps(audit))
    if sim is not None:
        (folder / "user_simulator_events.jsonl").write_text(sim)
    return folder


@pytest.mark.parametrize(
    ("sim", "word"), [(None, "no simulator events file"), ("", "is empty"), ("\n\n", "is empty")]
)
def test_valid_end_missing_or_empty_events_file_is_an_error(
    tmp_path: Path, sim: str | None, word: str
) -> None:
    r = conversation_valid_end(load_eva_context(_eva_record(tmp_path / "r", sim)), CFG)
    assert r.score is None and r.error is not None and word in r.error


def test_valid_end_malformed_last_line_fails_to_parse(tmp_path: Path) -> None:
    goodbye = {
        "timestamp": 2000,
        "type": "connection_state",
        "data": {"state": "session_ended", "details": {"reason": "goodbye"}},
    }
    sim = json.dumps(goodbye) + '\n{"timestamp": 2100, "type": "conn\n'
    r = conversation_valid_end(load_eva_context(_eva_record(tmp_path / "r", sim)), CFG)
    assert r.score == 0.0 and r.error is None
    assert r.details["reason"].startswith("Failed to parse the last line of user_simulator_events.jsonl")


# ---- run-level aggregation


def test_run_level_aggregation_of_an_empty_run() -> None:
    out = overall_scores([], seed=1, num_draws=1)
    for name in ("EVA-A_pass", "EVA-X_pass", "EVA-A_mean", "EVA-overall_pass"):
        assert out[name]["mean"] is None and out[name]["count"] == 0 and out[name]["total_records"] == 0
        assert out[name]["mean_ci_lower"] is None and out[name]["success_rate"] is None


def test_run_level_aggregation_of_records_without_aggregates() -> None:
    bare = [ScoredRecord(f"s{i}", f"s{i}", 0, "completed", {}, {}) for i in range(2)]
    scored = ScoredRecord("s9", "s9", 0, "completed", {}, {"EVA-A_pass": 1.0, "EVA-A_mean": None})
    out = overall_scores([*bare, scored], seed=1, num_draws=1)
    a = out["EVA-A_pass"]
    assert (a["mean"], a["count"], a["none_count"], a["missing_count"], a["total_records"]) == (
        1.0,
        1,
        0,
        2,
        3,
    )
    m = out["EVA-A_mean"]
    assert (m["mean"], m["count"], m["none_count"], m["missing_count"]) == (None, 0, 1, 2)


# ---- response_speed: the tool-call breakdown


def test_response_speed_breakdown_without_a_trace() -> None:
    """No trace and no parsed calls: every turn counts as a turn without a tool call (EVA);
    the tool-call group is present with null values."""
    ctx = ConversationContext(record_id="x", latency_assistant_turns={1: 1.0, 2: 2.0, 3: 4.0})
    r = response_speed(ctx, CFG)
    assert r.sub_metrics["no_tool_calls"].score == round(7 / 3, 4)
    for key in ("with_tool_calls", "with_tool_calls.p50", "with_tool_calls.p90", "with_tool_calls.p95"):
        assert r.sub_metrics[key].score is None


def test_response_speed_when_every_turn_is_a_tool_turn() -> None:
    """Tool turns known from the trace alone (EVA's rule: a `tool_call` entry in the turn)."""
    trace = [{"type": "tool_call", "tool_name": "t", "parameters": {}, "turn_id": t} for t in (1, 2)]
    ctx = ConversationContext(
        record_id="x", latency_assistant_turns={1: 3.0, 2: 5.0}, conversation_trace=trace
    )
    r = response_speed(ctx, CFG)
    assert r.score == 4.0 and r.sub_metrics["with_tool_calls"].score == 4.0
    assert r.sub_metrics["with_tool_calls.p50"].score == 5.0
    for key in ("no_tool_calls", "no_tool_calls.p50", "no_tool_calls.p90", "no_tool_calls.p95"):
        assert r.sub_metrics[key].score is None
