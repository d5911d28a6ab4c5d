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
from voxbench.eval.metrics.turn_taking import turn_taking
from voxbench.eval.runner import score_context
from voxbench.eval.types import REGISTRY, EvalConfig
from voxbench.orchestrator.config import JudgesConfig
from voxbench.orchestrator.eval_bridge import EvalGate
from voxbench.records import SCHEMA_VERSION, HarnessPause, Speech, Transcript, Utterance, read_record

LINE = "I need to change my flight. My code is Z K three F F W."
PAUSE_T, PAUSE_S = 3.2, 4.0  # the first sentence's voice ends at 3.0, its own pause at 3.2
RESUMED = 7.25  # the rest of the line, heard a moment after its release at 7.2


def _conv(agent_at: float, paused: bool = True) -> Conv:
    conv = Conv().agent(0.0, 0.8, "Hello! How can I help you today?")
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
