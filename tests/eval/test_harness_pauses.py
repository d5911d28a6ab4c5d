"""A harness pause in a record: read back, failed by the gate, left out of turn_taking.

Records are written by the record writer and read back through ``load_context`` (schema 1.2).
The conversation: the agent greets; the caller's line "I need to change my flight. My code is
Z K three F F W." is said in two parts, its voice having stalled for ``PAUSE_S`` past the
sentence pause (a ``harness_pause`` event); the agent starts speaking at ``agent_at`` and talks
until 8.5 s; then it confirms, the caller says goodbye and so does the agent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.eval.builders import Conv
from voxbench.eval.from_record import load_context
from voxbench.eval.harness_pauses import harness_agent_speech
from voxbench.eval.metrics.turn_taking import turn_taking
from voxbench.eval.runner import score_context
from voxbench.eval.types import REGISTRY, EvalConfig
from voxbench.orchestrator.config import JudgesConfig
from voxbench.orchestrator.eval_bridge import EvalGate
from voxbench.records import (
    SCHEMA_VERSION,
    CallerAct,
    HarnessPause,
    Speech,
    Transcript,
    Utterance,
    VADEvent,
    read_record,
)

LINE = "I need to change my flight. My code is Z K three F F W."
PAUSE_T, PAUSE_S = 3.2, 4.0  # the first sentence's voice ends at 3.0, its own pause at 3.2
RESUMED = 7.25  # the rest of the line, heard a moment after its release at 7.2


def _held_line(turn_ends: tuple[float, ...] = (), paused: bool = True) -> Conv:
    """The greeting and the caller's line said in two parts around the pause. ``turn_ends``:
    when the agent's VAD heard the caller stop (``vad`` stop events of side agent on the user
    channel; none by default, as an external agent's record)."""
    conv = Conv().agent(0.0, 0.8, "Hello! How can I help you today?")
    conv.events += [VADEvent(t=t, side="agent", channel="user", state="stop") for t in turn_ends]
    conv.events += [
        Utterance(t=0.9, side="user", channel="user", text=LINE),
        Speech(t=1.0, channel="user", state="onset"),
        Speech(t=3.0, channel="user", state="offset"),
        Speech(t=RESUMED, channel="user", state="onset"),
        Speech(t=9.0, channel="user", state="offset"),
        Transcript(t=9.3, side="agent", channel="user", text=LINE),
    ]
    if paused:
        conv.events.append(HarnessPause(t=PAUSE_T, duration_s=PAUSE_S, sentence=1, line=LINE))
    return conv


def _conv(agent_at: float, paused: bool = True, turn_ends: tuple[float, ...] = ()) -> Conv:
    conv = _held_line(turn_ends, paused)
    return (
        conv.agent(agent_at, 8.5, "Sure, what is the confirmation code?")
        .agent(10.0, 12.0, "Thanks, I found booking Z K three F F W.")
        .user(12.8, 13.5, "Great, thanks. Goodbye.")
        .agent(14.5, 15.5, "Goodbye!")
    )


VALIDATORS = [n for n, s in REGISTRY.items() if s.category == "validation"]


def test_the_event_round_trips_through_a_record(tmp_path: Path) -> None:
    d = _conv(5.0).write(tmp_path / "r")
    assert json.loads((d / "record.json").read_text())["schema_version"] == SCHEMA_VERSION == "1.2"
    pauses = [e for e in read_record(d).events if isinstance(e, HarnessPause)]
    assert pauses == [HarnessPause(t=PAUSE_T, side="user", duration_s=PAUSE_S, sentence=1, line=LINE)]
    ctx = load_context(d)
    assert ctx.harness_pauses == [{"t": PAUSE_T, "duration_s": PAUSE_S, "sentence": 1, "line": LINE}]


def test_a_record_from_before_the_event_cannot_say(tmp_path: Path) -> None:
    d = _conv(5.0, paused=False).write(tmp_path / "r")
    raw = json.loads((d / "record.json").read_text())
    (d / "record.json").write_text(json.dumps({**raw, "schema_version": "1.1"}))
    ctx = load_context(d)
    assert ctx.harness_pauses is None
    res = score_context(ctx, EvalConfig(judge_mode="none"), VALIDATORS)
    assert res.metrics["user_pacing_fidelity"].skipped
    assert "user_pacing_fidelity" in res.validation["skipped"]
    assert load_context(_conv(5.0, paused=False).write(tmp_path / "new")).harness_pauses == []


def test_the_gate_fails_an_agent_that_started_inside_the_pause(tmp_path: Path) -> None:
    res = EvalGate(JudgesConfig(mode="none"))(_conv(5.0).write(tmp_path / "r"))
    assert not res.valid and res.reason == "invalid: user_pacing_fidelity"
    [row] = res.details["evidence"]["user_pacing_fidelity"]
    assert row["turn"] == 1 and "inside a 4.00 s harness pause from 3.20 s" in row["claim"]


@pytest.mark.parametrize("agent_at", [2.5, 7.5])
def test_the_gate_passes_an_agent_that_started_outside_it(tmp_path: Path, agent_at: float) -> None:
    # 2.5: over the caller's first sentence (the agent cut in: its own fault); 7.5: after the rest began
    res = EvalGate(JudgesConfig(mode="none"))(_conv(agent_at).write(tmp_path / "r"))
    assert res.valid, res.details


def test_the_gate_passes_the_same_timing_without_a_pause(tmp_path: Path) -> None:
    res = EvalGate(JudgesConfig(mode="none"))(_conv(5.0, paused=False).write(tmp_path / "r"))
    assert res.valid, res.details


def test_turn_taking_does_not_score_the_exchange_the_pause_broke(tmp_path: Path) -> None:
    plain = turn_taking(load_context(_conv(5.0, paused=False).write(tmp_path / "plain")), EvalConfig())
    paused = turn_taking(load_context(_conv(5.0).write(tmp_path / "paused")), EvalConfig())
    # without the event: the agent answered half a line (turn 1, latency 2 s) and the rest of the
    # line cut in on it (turn 2: scored on the agent's yield, 1.25 s of overlap)
    assert plain.details["per_turn_reason"] == {1: "latency", 2: "user_interrupt", 3: "latency"}
    assert plain.sub_metrics["user_interruption.rate"].score == 0.3333  # rounded to 4 places
    # with it: both are the harness's timing, listed and not scored
    assert paused.details["per_turn_reason"] == {3: "latency"}
    assert sorted(paused.details["harness_pause_turns"]) == [1, 2]
    assert paused.details["harness_pause_turns"][1]["pause_s"] == PAUSE_S
    assert paused.sub_metrics["user_interruption.rate"].score == 0.0
    assert paused.score == plain.details["per_turn_score"][3]


def test_an_agent_cutting_into_the_caller_s_words_is_still_its_own_interruption(tmp_path: Path) -> None:
    res = turn_taking(load_context(_conv(2.5).write(tmp_path / "r")), EvalConfig())
    assert res.details["per_turn_reason"][1] == "agent_interrupt"
    assert "harness_pause_turns" not in res.details


def test_an_agent_going_on_while_the_next_line_is_held_keeps_its_answer_scored(tmp_path: Path) -> None:
    """The agent answered at 1 s (turn 1), the caller's next line was held before its first word
    (a pause from 8.5 s, 2 s after its decision, to 12.5 s), the agent spoke again at 10 s and the
    line's words cut in on it: turn 1's timing was measured before the pause and stays; turn 2,
    the agent's yield to the held line, is the harness's."""
    conv = (
        Conv()
        .agent(0.0, 0.8, "Hello! How can I help you today?")
        .user(1.0, 3.0, "I need to change my flight.")
        .agent(4.0, 6.0, "Sure. What is the confirmation code?")
        .agent(10.0, 13.5, "Are you still there? I need your confirmation code.")
        .user(12.55, 14.0, "Yes, it is Z K three F F W.")
        .agent(15.0, 16.0, "Thanks, I found it.")
        .user(16.8, 17.3, "Goodbye.")
        .agent(18.3, 19.0, "Goodbye!")
    )
    conv.events.append(HarnessPause(t=8.5, duration_s=4.0, sentence=0, line="Yes, it is Z K three F F W."))
    d = conv.write(tmp_path / "r")
    res = turn_taking(load_context(d), EvalConfig())
    assert res.details["per_turn_reason"] == {1: "latency", 3: "latency"}
    assert list(res.details["harness_pause_turns"]) == [2]
    gate = EvalGate(JudgesConfig(mode="none"))(d)
    assert not gate.valid and [r["turn"] for r in gate.details["evidence"]["user_pacing_fidelity"]] == [1]


def test_an_agent_going_on_while_a_line_it_then_withdrew_was_held_is_no_gate_fault(tmp_path: Path) -> None:
    """Found live (airline 6.1.4, 2.2.4): the agent went on with its own turn (decided before the
    caller's check-in) inside the pause before the check-in's first word, and the caller withdrew
    the check-in unsaid. No exchange broke: the gate keeps the call and turn_taking scores it."""
    conv = (
        Conv()
        .agent(0.0, 0.8, "Hello! How can I help you today?")
        .user(1.0, 3.0, "I need to change my flight.")
        .agent(4.0, 6.0, "Thank you for that.")
        .agent(10.0, 13.5, "I'll look up your reservation now.")
        .user(14.5, 15.5, "Okay, thanks. Goodbye.")
        .agent(16.3, 17.0, "Goodbye!")
    )
    check_in = "Hello? Are you still there?"
    conv.events += [
        HarnessPause(t=8.5, duration_s=4.0, sentence=0, line=check_in),
        CallerAct(t=8.4, side="user", kind="check_in", text=check_in, rule="agent_silent_check_in"),
        CallerAct(t=10.1, side="user", kind="withdrawn", text=check_in, rule="agent_spoke_first"),
    ]
    d = conv.write(tmp_path / "r")
    ctx = load_context(d)
    assert ctx.harness_pauses and harness_agent_speech(ctx) == []  # the pause broke no exchange
    assert "harness_pause_turns" not in turn_taking(ctx, EvalConfig()).details  # scored, as the gate keeps it
    gate = EvalGate(JudgesConfig(mode="none"))(d)
    assert gate.valid, gate.details


# The rule's second clause: the agent's voice starts over the resumed line (7.5 s, the rest of the
# line heard from 7.25 s); what tells whose doing it was is the agent's last turn end before it.


def test_an_agent_that_decided_inside_the_pause_is_the_harness_s_doing(tmp_path: Path) -> None:
    """Its VAD heard the caller stop at 3.4 s, inside the pause (3.2-7.2 s), and nothing since."""
    d = _conv(7.5, turn_ends=(3.4,)).write(tmp_path / "r")
    ctx = load_context(d)
    assert ctx.agent_turn_ends == [3.4]
    res = turn_taking(ctx, EvalConfig())
    assert res.details["per_turn_reason"] == {2: "latency"}  # turn 1 no longer agent_interrupt
    assert res.details["harness_pause_turns"] == {
        1: {"agent_start": 7.5, "pause_t": PAUSE_T, "pause_s": PAUSE_S, "agent_turn_end": 3.4,
            "role": "the agent's answer was decided in the pause"}
    }  # fmt: skip
    assert res.sub_metrics["agent_interruption.rate"].score == 0.0
    gate = EvalGate(JudgesConfig(mode="none"))(d)
    assert not gate.valid and gate.reason == "invalid: user_pacing_fidelity"
    [row] = gate.details["evidence"]["user_pacing_fidelity"]
    assert (
        row["turn"] == 1
        and "on a turn end at 3.40 s inside a 4.00 s harness pause from 3.20 s" in row["claim"]
    )


@pytest.mark.parametrize(
    ("turn_ends", "why"),
    [
        ((), "no turn end recorded (an external agent): no evidence"),
        ((3.1,), "its turn end came in the line's natural pause, before the harness's part"),
        ((3.4, 7.45), "it heard the caller stop again after the line resumed"),
    ],
)
def test_an_agent_whose_last_turn_end_was_not_in_the_pause_still_interrupts(
    tmp_path: Path, turn_ends: tuple[float, ...], why: str
) -> None:
    d = _conv(7.5, turn_ends=turn_ends).write(tmp_path / "r")
    res = turn_taking(load_context(d), EvalConfig())
    assert res.details["per_turn_reason"][1] == "agent_interrupt", why
    assert "harness_pause_turns" not in res.details, why
    assert EvalGate(JudgesConfig(mode="none"))(d).valid, why


def test_agent_speech_since_the_turn_end_leaves_the_later_speech_its_own(tmp_path: Path) -> None:
    """The agent spoke inside the pause (5.0-5.6 s: the first clause) and again at 7.5 s with no
    turn end between: one decision, one row, the one that started in the pause."""
    conv = _conv(7.5, turn_ends=(3.4,))
    conv.events += [
        Speech(t=5.0, channel="agent", state="onset"),
        Speech(t=5.6, channel="agent", state="offset"),
    ]
    d = conv.write(tmp_path / "r")
    gate = EvalGate(JudgesConfig(mode="none"))(d)
    [row] = gate.details["evidence"]["user_pacing_fidelity"]
    assert "agent spoke at 5.00 s, inside a 4.00 s harness pause" in row["claim"]


def test_a_turn_end_inside_the_pause_before_a_reply_after_the_line_is_the_agent_s_timing(
    tmp_path: Path,
) -> None:
    """The agent's VAD stopped in the pause (3.4 s) and again when the line ended (9.2 s); its
    reply at 9.5 s answers the whole line: scored as latency, the record valid."""
    conv = _held_line(turn_ends=(3.4, 9.2))
    conv.agent(9.5, 11.0, "Sure, I can help with that.")
    d = conv.write(tmp_path / "r")
    res = turn_taking(load_context(d), EvalConfig())
    assert res.details["per_turn_reason"] == {1: "latency"}
    assert "harness_pause_turns" not in res.details
    assert EvalGate(JudgesConfig(mode="none"))(d).valid


def test_a_line_held_before_its_first_word_keeps_its_words_in_its_own_turn(tmp_path: Path) -> None:
    """The line was decided at 6.3 s (its utterance) and held until 10.8 s: its words go with
    the speech from 10.85 s, not with the caller's previous turn (3.0 s away, against 4.5 s)."""
    held = "Yes, it is Z K three F F W."
    conv = (
        Conv()
        .agent(0.0, 0.8, "Hello! How can I help you today?")
        .user(1.0, 3.0, "I need to change my flight.")
        .agent(4.0, 6.0, "Sure. What is the confirmation code?")
    )
    conv.events += [
        Utterance(t=6.3, side="user", channel="user", text=held),
        HarnessPause(t=8.3, duration_s=2.5, sentence=0, line=held),
        Speech(t=10.85, channel="user", state="onset"),
        Speech(t=12.5, channel="user", state="offset"),
        Transcript(t=12.8, side="agent", channel="user", text=held),
    ]
    conv.agent(13.5, 14.5, "Thanks, I found it.")
    ctx = load_context(conv.write(tmp_path / "r"))
    assert ctx.intended_user_turns == {1: "I need to change my flight.", 2: held}
    conv.events = [e for e in conv.events if not isinstance(e, HarnessPause)]
    unpaused = load_context(conv.write(tmp_path / "plain"))  # without the event, nearest in time
    assert unpaused.intended_user_turns[1] == f"I need to change my flight. {held}"
