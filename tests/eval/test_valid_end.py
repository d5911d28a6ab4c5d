"""conversation_valid_end says why a call did not end the way a caller ends it: for an
inactivity end, who was heard last and a caller line decided but never voiced. A call where the
caller's voice was the last heard stays the agent timing out on the caller's turn (valid)."""

from __future__ import annotations

from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.eval.metrics.validation import conversation_valid_end, validation_gate
from voxbench.eval.types import EvalConfig
from voxbench.eval.valid_end import unvoiced_line

LINE = "Actually, I still need help with my request: I want to cancel my trip."


def _ctx(user_last: bool, acts: list[dict[str, Any]]) -> ConversationContext:
    ctx = ConversationContext(record_id="t", conversation_ended_reason="inactivity_timeout")
    ctx.simulator_ended_call = False
    ctx.audio_timestamps_user_turns = {1: [(20.0, 23.7)]}
    ctx.audio_timestamps_assistant_turns = {0: [(1.0, 2.8)], 1: [(118.9, 122.0)]}
    if user_last:
        ctx.audio_timestamps_user_turns[2] = [(137.5, 145.0)]
    ctx.caller_acts = acts
    return ctx


def test_the_agent_heard_last_is_the_caller_silent_and_names_the_unvoiced_line() -> None:
    """Live, airline 7.2.6: the caller's restated request was decided and never voiced."""
    acts = [{"t": 11.0, "kind": "open", "text": "Hi."}, {"t": 137.5, "kind": "state_request", "text": LINE}]
    res = conversation_valid_end(_ctx(False, acts), EvalConfig())
    assert res.value == 0.0
    gate = validation_gate({"conversation_valid_end": res})
    [row] = gate["evidence"]["conversation_valid_end"]
    assert "agent's voice the last heard" in row["claim"] and "the caller was the silent side" in row["claim"]
    assert "decided at 137.5 s was never voiced" in row["claim"] and LINE[:30] in row["claim"]


def test_the_caller_heard_last_is_the_agent_timing_out_on_its_turn() -> None:
    acts = [{"t": 137.5, "kind": "state_request", "text": LINE}]
    res = conversation_valid_end(_ctx(True, acts), EvalConfig())
    assert res.value == 1.0 and res.details["reason"] == "agent_timeout_on_user_turn"


def test_a_withdrawn_or_voiced_line_is_not_unvoiced() -> None:
    withdrawn = [
        {"t": 130.0, "kind": "check_in", "text": "Hello?"},
        {"t": 131.0, "kind": "withdrawn", "text": "Hello?"},
    ]
    assert unvoiced_line(_ctx(False, withdrawn)) is None
    assert unvoiced_line(_ctx(True, [{"t": 137.5, "kind": "state_request", "text": LINE}])) is None
    assert unvoiced_line(_ctx(False, [{"t": 140.0, "kind": "wait", "text": ""}])) is None


def test_another_end_reason_is_named() -> None:
    ctx = _ctx(False, [])
    ctx.conversation_ended_reason = "time_limit"
    res = conversation_valid_end(ctx, EvalConfig())
    assert res.details["evidence"][0]["claim"] == "the call ended on time_limit"
