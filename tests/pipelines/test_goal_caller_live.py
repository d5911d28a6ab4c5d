"""The goal caller live, over the real loopback with fake services, on the virtual clock.

The agent greets, asks for the confirmation code and last name, says a hold line before its
lookup and, 1.5 s later, reports the bag added and asks "Anything else?". The goal caller must
open with its starting utterance, answer the request with exactly its two facts (the code
spelled), let the hold line pass without a word, say goodbye, and end the call itself; each
decision is a ``caller_act`` event in the record. The hold line asks nothing, so the caller
answers it only after ``statement_wait_s`` of agent silence: with 0.5 s that is a silent
``wait`` act of its own; with 4 s the agent's next words come first and one act answers both.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from tests.pipelines.test_call_fakes import fast_config
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.config import GoalSimConfig, SimulatorConfig, TurnConfig, VADConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.records import CallerAct, Speech, ToolCall, Transcript, Utterance, read_record
from voxbench.records.models import SimulatorInfo
from voxbench.scenarios import load_dataset
from voxbench.transports.virtual_loop import run_virtual

GREETING = "Hello! How can I help you today?"
ASK = "Sure. What's your confirmation code and last name?"
HOLD = "One moment please."
DONE = "Done, one checked bag is now on your flight. Anything else?"


def _call() -> CallScenario:
    dd = load_dataset(None, ["airline"]).domains["airline"]
    return CallScenario.from_domain(dd, "bb.1")


@pytest.mark.parametrize("statement_wait_s", [0.5, 4.0])
def test_goal_caller_answers_waits_and_hangs_up(tmp_path: Path, statement_wait_s: float) -> None:
    call = _call()
    cfg = fast_config()
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    turn = TurnConfig(smart_turn=False, speech_timeout_s=0.2)
    # no quiet before a reply (agent_quiet_s): the timing here is the statement wait's alone
    # (the quiet is tests/pipelines/test_caller_segments.py's)
    goal = GoalSimConfig(turn=turn, statement_wait_s=statement_wait_s, agent_quiet_s=0.0)
    cfg.simulator = SimulatorConfig(kind="goal", vad=vad, goal=goal)
    agent = AgentServices(
        stt=FakeSTT(["add a bag", "code and name", "no thanks"]),
        llm=FakeLLM(
            [
                Reply(ASK),
                Reply(
                    tool_calls=[
                        ("get_reservation", {"confirmation_number": "QX7T4M", "last_name": "Whitfield"})
                    ]
                ),
                Reply(DONE, delay_s=1.5),  # after the hold line: a turn of its own
                Reply("Goodbye."),
            ]
        ),
        tts=FakeTTS(f0=120.0),
    )
    # the caller's ears: each agent speech segment transcribed in order
    sim = SimulatorServices(
        tts=FakeTTS(f0=220.0),
        stt=FakeSTT([GREETING, ASK, HOLD, DONE, "Goodbye."]),
        info=SimulatorInfo(kind="goal"),
    )
    record = run_virtual(run_call(call, cfg, agent, sim, tmp_path))
    assert record.status == "completed", record.error
    assert record.end_reason == "end_call"
    assert record.simulator.kind == "goal"

    ev = read_record(tmp_path).events
    acts = [e for e in ev if isinstance(e, CallerAct)]
    separate = statement_wait_s < 1.5  # the hold line's silence outlasts the caller's wait
    assert [a.kind for a in acts] == ["open", "answer", *(["wait"] if separate else []), "end"]
    opening, answer, end = acts[0], acts[1], acts[-1]
    assert opening.rule == "starting_utterance" and opening.agent_turn == 1
    assert answer.facts == ["Your confirmation code", "Your last name"]
    assert "Q X seven T four M" in answer.text and "Whitfield" in answer.text
    if separate:
        assert acts[2].text == "" and "hold" in acts[2].heard
    assert end.ends_call and end.rule == "nothing_else_end"
    # On the virtual clock each act comes a fixed turn-end lag after the caller heard the
    # agent's words (its final transcript); a deferred one statement_wait_s later still.
    heard_t = {e.text: e.t for e in ev if isinstance(e, Transcript) and e.channel == "agent" and e.final}
    lag = opening.t - heard_t[GREETING]
    assert answer.t - heard_t[ASK] == pytest.approx(lag, abs=1e-9)
    if separate:
        assert acts[2].t - heard_t[HOLD] == pytest.approx(lag + statement_wait_s, abs=1e-9)
    assert end.t - heard_t[DONE] == pytest.approx(lag, abs=1e-9)

    said = [e.text for e in ev if isinstance(e, Utterance) and e.channel == "user"]
    assert said == [opening.text, answer.text, end.text]  # the hold line got no words
    assert said[0] == str(call.resolver.resolve(call.scenario.starting_utterance()))
    assert [e.name for e in ev if isinstance(e, ToolCall)] == ["get_reservation"]
    heard = [e.text for e in ev if isinstance(e, Transcript) and e.channel == "agent" and e.final]
    assert heard[:4] == [GREETING, ASK, HOLD, DONE]
    stats = record.simulator.caller_stats
    assert stats["acts"] == len(acts) and stats["waits"] == int(separate)
    assert stats["agent_turns_heard"] == 4 and stats["replies_deferred"] == 1


def test_goal_caller_checks_in_then_hangs_up_on_a_silent_agent(tmp_path: Path) -> None:
    """The agent says its hold line and never comes back: the caller asks whether it is still
    there after ``silence_check_s`` and hangs up after as long again, so the call ends with the
    caller's goodbye (the agent's failure), not at the inactivity limit after "One moment"."""
    call = _call()
    cfg = fast_config()
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    turn = TurnConfig(smart_turn=False, speech_timeout_s=0.2)
    goal = GoalSimConfig(turn=turn, statement_wait_s=0.5, silence_check_s=2.0)
    cfg.limits = cfg.limits.model_copy(update={"inactivity_s": 12.0})  # the check-in fits under it
    cfg.simulator = SimulatorConfig(kind="goal", vad=vad, goal=goal)
    agent = AgentServices(
        stt=FakeSTT(["add a bag", "code and name", "still there", "bye"]),
        llm=FakeLLM(
            [
                Reply(ASK),
                Reply(
                    tool_calls=[
                        ("get_reservation", {"confirmation_number": "QX7T4M", "last_name": "Whitfield"})
                    ]
                ),
                Reply(DONE, delay_s=120.0),  # never in time
            ]
        ),
        tts=FakeTTS(f0=120.0),
    )
    sim = SimulatorServices(
        tts=FakeTTS(f0=220.0), stt=FakeSTT([GREETING, ASK, HOLD]), info=SimulatorInfo(kind="goal")
    )
    record = run_virtual(run_call(call, cfg, agent, sim, tmp_path))
    assert record.status == "completed", record.error
    assert record.end_reason == "end_call"
    acts = [e for e in read_record(tmp_path).events if isinstance(e, CallerAct)]
    assert [a.kind for a in acts] == ["open", "answer", "wait", "check_in", "end"]
    assert acts[-2].rule == "agent_silent_check_in" and "still" in acts[-2].text
    assert acts[-1].rule == "silence_after_check_in_end" and acts[-1].ends_call
    # On the virtual clock: the check-in exactly silence_check_s after the silent wait; the
    # goodbye silence_check_s after the caller's own check-in line stopped playing (its
    # transport's stop comes a fixed 20 ms after the line's speech offset stamp here)
    wait, check_in, end = acts[2], acts[3], acts[4]
    assert check_in.t - wait.t == pytest.approx(goal.silence_check_s, abs=1e-9)
    ev = read_record(tmp_path).events
    stopped = next(
        e.t
        for e in ev
        if isinstance(e, Speech) and e.channel == "user" and e.state == "offset" and e.t > check_in.t
    )
    assert end.t - stopped == pytest.approx(goal.silence_check_s + 0.02, abs=1e-9)
