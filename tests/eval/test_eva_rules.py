"""EVA's metric rules that voxbench used to get wrong (issue 19), one test per rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.eval.builders import small_conversation
from voxbench.eval.aggregate import record_aggregates
from voxbench.eval.context import ConversationContext, ToolCallInfo
from voxbench.eval.eva_format import load_eva_context, pretool_speech_rate
from voxbench.eval.metrics.diagnostics import tool_call_validity
from voxbench.eval.metrics.judged import norm
from voxbench.eval.metrics.validation import conversation_valid_end
from voxbench.eval.passk import pass_at_k, pass_power_k_observed, scenario_pass_k
from voxbench.eval.types import EvalConfig, MetricResult
from voxbench.records.io import read_record

CFG = EvalConfig()


def _eva_record(folder: Path, sim_lines: list[str]) -> Path:
    """A minimal EVA record folder: one greeting, one caller turn, the given simulator log."""
    folder.mkdir(parents=True)
    (folder / "result.json").write_text(
        json.dumps({"record_id": "1.1.1", "conversation_ended_reason": "goodbye"})
    )
    audit = {"transcript": [{"timestamp": 1500, "message_type": "user", "value": "hello"}]}
    (folder / "audit_log.json").write_text(json.dumps(audit))
    (folder / "elevenlabs_events.jsonl").write_text("".join(x + "\n" for x in sim_lines))
    return folder


def _ev(ts: int, kind: str, **kw: Any) -> str:
    return json.dumps({"timestamp": ts, "type": kind, **kw})


SPEECH = [
    _ev(0, "audio_start", user="pipecat_agent", audio_timestamp=0.0),
    _ev(900, "audio_end", user="pipecat_agent", audio_timestamp=0.9),
    _ev(1000, "audio_start", user="simulated_user", audio_timestamp=1.0),
    _ev(1100, "user_speech", data={"text": "hello"}),
    _ev(1400, "audio_end", user="simulated_user", audio_timestamp=1.4),
]


# ---- item 4: a connection-state event whose reason is goodbye ends the call validly


@pytest.mark.parametrize("state", ["session_ended", "disconnected", None])
def test_valid_end_accepts_any_goodbye_connection_state(tmp_path: Path, state: str | None) -> None:
    data: dict[str, Any] = {"details": {"reason": "goodbye"}}
    if state:
        data["state"] = state
    ctx = load_eva_context(_eva_record(tmp_path / "r", [*SPEECH, _ev(2000, "connection_state", data=data)]))
    assert conversation_valid_end(ctx, CFG).score == 1.0


def test_valid_end_other_reason_is_not_finished(tmp_path: Path) -> None:
    bye = _ev(2000, "connection_state", data={"state": "session_ended", "details": {"reason": "error"}})
    ctx = load_eva_context(_eva_record(tmp_path / "r", [*SPEECH, bye]))
    assert conversation_valid_end(ctx, CFG).score == 0.0


# ---- item 5: a torn last JSONL line is tolerated and reported, never an infrastructure failure


def test_torn_last_line_of_eva_log_is_not_finished_and_keeps_the_rest(tmp_path: Path) -> None:
    bye = _ev(2000, "connection_state", data={"state": "session_ended", "details": {"reason": "goodbye"}})
    torn = '{"timestamp": 2100, "type": "connection_st'
    ctx = load_eva_context(_eva_record(tmp_path / "r", [*SPEECH, bye, torn]))
    assert ctx.intended_user_turns == {1: "hello"}  # the rest of the log is read
    r = conversation_valid_end(ctx, CFG)
    assert r.score == 0.0 and r.error is None
    assert r.details["torn_logs"] == {"elevenlabs_events.jsonl": torn}


def test_torn_last_line_of_events_jsonl_is_dropped_and_reported(tmp_path: Path) -> None:
    path = small_conversation().write(tmp_path / "r")
    ev = path / "events.jsonl"
    n = len(ev.read_text().splitlines())
    ev.write_text(ev.read_text() + '{"t": 99.0, "kind": "spee')
    bundle = read_record(path)
    assert len(bundle.events) == n
    assert bundle.torn_logs == {"events.jsonl": '{"t": 99.0, "kind": "spee'}


def test_bad_line_before_the_last_still_raises(tmp_path: Path) -> None:
    from voxbench.records.io import read_jsonl  # new in issue 19

    p = tmp_path / "x.jsonl"
    p.write_text('{"a": 1}\n{oops\n{"a": 2}\n')
    with pytest.raises(ValueError, match=":2:"):
        read_jsonl(p)


# ---- item 6: every error type's rate is reported, 0 when absent


def test_tool_call_validity_reports_every_error_type_rate() -> None:
    tools = [{"name": "get_reservation", "required_parameters": [{"name": "confirmation_number"}]}]
    ok = ConversationContext(record_id="a", agent_tools=tools,
                             tool_calls=[ToolCallInfo(1, "get_reservation", {}, {"status": "success"}, "success")])  # fmt: skip
    bad = ConversationContext(record_id="b", agent_tools=tools, tool_calls=[
        ToolCallInfo(1, "get_reservation", {}, {"status": "error"}, "error", "invalid_confirmation_number")])  # fmt: skip
    r_ok, r_bad = tool_call_validity(ok, CFG), tool_call_validity(bad, CFG)
    assert set(r_ok.sub_metrics) == set(r_bad.sub_metrics)
    for k in ("tool_not_found_rate", "execution_error_rate", "invalid_parameter_rate",
              "invalid_confirmation_number_rate", "invalid_date_format_rate"):  # fmt: skip
        assert r_ok.sub_metrics[k].score == 0.0
    assert r_bad.sub_metrics["invalid_confirmation_number_rate"].score == 1.0


# ---- item 7: pre-tool speech is grouped in timestamp order


def test_pretool_speech_rate_sorts_by_timestamp() -> None:
    audit = [
        {"timestamp": 100, "message_type": "user", "value": "change my flight"},
        {"timestamp": 300, "message_type": "tool_call", "value": {"tool": "get_reservation"}},
        {"timestamp": 200, "message_type": "assistant", "value": "Let me look that up."},
        {"timestamp": 400, "message_type": "tool_response", "value": {"tool": "get_reservation"}},
    ]
    assert pretool_speech_rate(audit) == 1.0


# ---- item 8: a one-point judge scale is 1.0; record composite means are not rounded


def test_norm_of_a_one_point_scale_is_one() -> None:
    assert norm(3, 3, 3) == 1.0
    assert norm(2, 1, 3) == 0.5


def test_record_mean_composites_are_exact() -> None:
    res = {m: MetricResult(name=m, score=v, normalized_score=v)
           for m, v in (("task_completion", 1.0), ("faithfulness", 0.5), ("agent_speech_fidelity", 1 / 3))}  # fmt: skip
    got = record_aggregates(res)["EVA-A_mean"]
    assert got == pytest.approx(11 / 18, abs=1e-15) and got != round(11 / 18, 4)


# ---- item 10: k = 0 draws


def test_pass_k_with_zero_draws_is_one() -> None:
    assert pass_at_k(3, 0, 0) == 1.0
    assert pass_at_k(3, 2, 0) == 1.0
    assert pass_power_k_observed(3, 0, 0) == 1.0
    assert scenario_pass_k([False, True], 0) is not None
