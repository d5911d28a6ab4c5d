"""The caller extension point: one registry keyed by kind, one default, one live endpoint
and one driver that run every registered kind, and a new kind added by an entry alone.

Live calls run over the real loopback with fake services on the virtual clock; the LLM
caller's model is a fake OpenAI-compatible server on the same loop.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pipecat.pipeline.pipeline import Pipeline
from pydantic import ValidationError

from tests.fakes.openai_server import FakeChatServer
from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from tests.pipelines.test_call_fakes import fast_config
from voxbench.cli.main import build_parser
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.call.spec import SimulatorSpec
from voxbench.pipelines.caller.goal_live import goal_caller_for
from voxbench.pipelines.caller.live import LiveCaller, live_caller
from voxbench.pipelines.caller.llm_policy import LLMCallerPolicy
from voxbench.pipelines.caller.llm_setup import llm_caller_services
from voxbench.pipelines.caller.policy import CallerAct, CallerPolicy
from voxbench.pipelines.caller.registry import (
    CALLERS,
    DEFAULT_CALLER,
    CallerBuild,
    CallerEntry,
    UnknownCallerKind,
    caller_entry,
    caller_kinds,
    register_caller,
)
from voxbench.pipelines.caller.trace_policy import TracePolicy
from voxbench.pipelines.caller.turn_json import caller_turn_json
from voxbench.pipelines.config import (
    CallConfig,
    GoalSimConfig,
    LLMSimConfig,
    SimulatorConfig,
    TurnConfig,
    VADConfig,
)
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.services import LLMConfig
from voxbench.records import CallerAct as CallerActEvent
from voxbench.records import Utterance, read_record
from voxbench.scenarios import load_dataset
from voxbench.transports.virtual_loop import run_virtual

GREETING = "Hello! How can I help you today?"
ASK = "Sure. What's your confirmation code and last name?"
DONE = "Done, one checked bag is now on your flight. Anything else?"
VAD = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
TURN = TurnConfig(smart_turn=False, speech_timeout_s=0.2)


def _call() -> CallScenario:
    return CallScenario.from_domain(load_dataset(None, ["airline"]).domains["airline"], "bb.1")


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]


def _simulator_choices(command: str) -> list[str]:
    action = next(a for a in _subparser(command)._actions if "--simulator" in a.option_strings)
    return list(action.choices or [])


# -- the registry ---------------------------------------------------------------------------------


def test_an_unknown_kind_fails_naming_the_known_ones() -> None:
    with pytest.raises(UnknownCallerKind, match="unknown caller kind 'robot'; known kinds: goal, llm, trace"):
        caller_entry("robot")
    with pytest.raises(ValidationError, match="known kinds: goal, llm, trace"):
        SimulatorSpec(kind="robot")
    with pytest.raises(ValidationError, match="known kinds: goal, llm, trace"):
        SimulatorConfig(kind="scripted")  # the scripted agent's stand-in is no caller


def test_one_default_everywhere() -> None:
    assert DEFAULT_CALLER in caller_kinds()
    assert SimulatorSpec().kind == SimulatorConfig().kind == CallConfig().simulator.kind == DEFAULT_CALLER
    call = _subparser("call")
    assert next(a for a in call._actions if "--simulator" in a.option_strings).default == DEFAULT_CALLER


@pytest.mark.parametrize("command", ["run", "experiment", "call"])
def test_the_cli_choices_are_the_registry(command: str) -> None:
    assert _simulator_choices(command) == list(caller_kinds())


def test_every_entry_resolves_and_a_kind_is_registered_once() -> None:
    for entry in CALLERS.values():
        build, prepare = entry.resolve()
        assert callable(build) and (prepare is None) == (entry.prepare is None)
    with pytest.raises(ValueError, match="already registered"):
        register_caller(CALLERS["goal"])


def test_the_goal_and_trace_callers_are_caller_policies() -> None:
    goal = goal_caller_for(_call(), seed=0)
    trace = TracePolicy(["Hi, I need to add a bag.", "QX7T4M, Whitfield."], [1, 2])
    for policy in (goal, trace):
        assert isinstance(policy, CallerPolicy)
        assert not policy.ended and policy.end_reason is None
        assert policy.open().kind == "open"
    assert trace.agent_turns_due() == 2
    assert trace.respond("", 3.0).text == "QX7T4M, Whitfield."
    end = trace.respond("", 5.0)
    assert end.ends_call and end.text == "" and trace.ended and trace.end_reason == "trace_finished"
    last = goal.respond("Is there anything else I can help you with?", 9.0)
    while not last.ends_call:
        last = goal.respond("Goodbye.", 10.0)
    assert goal.ended and goal.end_reason == last.rule


# -- the live endpoint runs every registered kind ------------------------------------------------


def _agent() -> AgentServices:
    return AgentServices(
        stt=FakeSTT(["add a bag", "code and name", "no thanks", "bye"] * 2),
        llm=FakeLLM(
            [
                Reply(ASK),
                Reply(
                    tool_calls=[
                        ("get_reservation", {"confirmation_number": "QX7T4M", "last_name": "Whitfield"})
                    ]
                ),
                Reply(DONE),
                Reply("Goodbye."),
            ]
        ),
        tts=FakeTTS(f0=120.0),
    )


def _goal(server: FakeChatServer) -> tuple[SimulatorConfig, SimulatorServices]:
    sim = SimulatorServices(tts=FakeTTS(f0=220.0), stt=FakeSTT([GREETING, ASK, DONE, "Goodbye."]))
    return SimulatorConfig(kind="goal", vad=VAD, goal=GoalSimConfig(turn=TURN, statement_wait_s=0.5)), sim


def _trace(server: FakeChatServer) -> tuple[SimulatorConfig, SimulatorServices]:
    cfg = fast_config().simulator.model_copy(update={"kind": "trace"})
    cfg.trace.max_lines = 2
    return cfg, SimulatorServices(tts=FakeTTS(f0=220.0))


LLM_REPLIES = [
    caller_turn_json("(warm-up)"),
    caller_turn_json("Q X seven T four M, last name Whitfield."),
    caller_turn_json("No, that's all. Goodbye.", end_call=True),
]


def _llm(server: FakeChatServer) -> tuple[SimulatorConfig, SimulatorServices]:
    cfg = SimulatorConfig(kind="llm", vad=VAD, llm=LLMSimConfig(turn=TURN))
    endpoint = LLMConfig(kind="openai-compatible", base_url=server.base_url, model="fake-caller")
    stt = FakeSTT([GREETING, ASK, DONE] * 3)
    return cfg, llm_caller_services(_call(), cfg.llm, endpoint, tts=FakeTTS(f0=220.0), stt=stt)


FAKES: dict[str, tuple[Callable[[FakeChatServer], tuple[SimulatorConfig, SimulatorServices]], str]] = {
    "goal": (_goal, "end_call"),
    "trace": (_trace, "trace_finished"),
    "llm": (_llm, "end_call"),
}
"""Fake services for each registered kind (given the fake model server, which only the LLM
caller talks to) and how its call ends: a kind added to the registry without its fakes here
fails :func:`test_every_registered_kind_has_fakes`."""


def test_every_registered_kind_has_fakes() -> None:
    assert sorted(FAKES) == list(caller_kinds())


@pytest.mark.parametrize("kind", sorted(FAKES))
def test_the_live_endpoint_runs_each_kind(kind: str, tmp_path: Path) -> None:
    make, end_reason = FAKES[kind]
    cfg = fast_config()

    async def the_call() -> Any:
        async with FakeChatServer(LLM_REPLIES) as server:
            cfg.simulator, sim = make(server)
            return await run_call(_call(), cfg, _agent(), sim, tmp_path)

    record = run_virtual(the_call())
    assert record.status == "completed", record.error
    assert record.simulator.kind == kind
    assert record.end_reason == end_reason
    events = read_record(tmp_path).events
    said = [e.text for e in events if isinstance(e, Utterance) and e.channel == "user"]
    assert said and said[0].strip()
    # one driver: every kind's acts are in the record, the one that ended the call last
    acts = [e for e in events if isinstance(e, CallerActEvent) and e.rule]
    assert acts and acts[0].kind == "open" and acts[-1].ends_call
    assert [a.text for a in acts if a.text] == said


def test_the_llm_caller_is_a_caller_policy() -> None:
    cfg = LLMSimConfig()
    endpoint = LLMConfig(kind="openai-compatible", base_url="http://127.0.0.1:9/v1", model="fake")
    services = llm_caller_services(_call(), cfg, endpoint, tts=FakeTTS(), stt=None)
    policy = LLMCallerPolicy(services.llm, "Hi, I need to add a bag.")
    assert isinstance(policy, CallerPolicy)
    assert not policy.ended and policy.end_reason is None
    assert policy.open().text == "Hi, I need to add a bag."
    assert policy.classifier == "llm:fake"  # its acts say which model decided them
    with pytest.raises(ValueError, match="OpenAI-compatible chat service, not FakeLLM"):
        LLMCallerPolicy(FakeLLM([]), "Hi.")


def test_a_withdrawn_llm_caller_act_leaves_its_context() -> None:
    """An act held unsaid (the agent spoke first) leaves the model's context with the agent turn
    it answered: the driver hands that turn back with the next one."""
    endpoint = LLMConfig(kind="openai-compatible", base_url="http://127.0.0.1:9/v1", model="fake")
    services = llm_caller_services(_call(), LLMSimConfig(), endpoint, tts=FakeTTS(), stt=None)
    policy = LLMCallerPolicy(services.llm, "Hi, I need to add a bag.")
    policy.withdraw(opening := policy.open())
    assert not policy.acts and not policy.context.get_messages()
    policy.open()
    before = list(policy.context.get_messages())
    held = asyncio.run(policy.respond("One moment please."))  # a hold line: a wait, no model asked
    assert held.kind == "wait" and policy.agent_turns == 1
    policy.withdraw(held)
    assert policy.context.get_messages() == before and policy.agent_turns == 0
    assert policy.acts[-1].text == opening.text


# -- a new kind is one entry ----------------------------------------------------------------------


class _OneLine:
    """A caller that says its opening and then ends the call: the smallest CallerPolicy."""

    def __init__(self, line: str) -> None:
        self.line, self.acts = line, []  # type: ignore[var-annotated]

    @property
    def ended(self) -> bool:
        return bool(self.acts) and self.acts[-1].ends_call

    @property
    def end_reason(self) -> str | None:
        return "said_its_line" if self.ended else None

    def open(self) -> CallerAct:
        return self.respond("")

    def respond(self, heard: str, t: float | None = None) -> CallerAct:
        first = not self.acts
        act = CallerAct(
            turn=len(self.acts),
            kind="open" if first else "end",
            text=self.line if first else "",
            rule="one_line" if first else "said_its_line",
            ends_call=not first,
        )
        self.acts.append(act)
        return act

    def withdraw(self, act: CallerAct) -> None:
        self.acts.remove(act)

    def agent_turns_due(self) -> int:
        return 1


def build_one_line_caller(b: CallerBuild) -> Pipeline:
    """The plug-in's pipeline: the shared live caller around its own policy (its entry hears
    by voice activity only, so it gets the VAD ears; the default timing answers at once)."""
    policy = _OneLine("Hi, I would like to add a checked bag.")
    return live_caller(b, LiveCaller(policy, None, no_greeting_s=5.0, hangup_wait_s=5.0))


def test_a_new_kind_is_one_registry_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = CallerEntry(
        "one-line",
        "says one line and hangs up",
        "tests.pipelines.test_caller_registry:build_one_line_caller",
        hears_words=False,
    )
    monkeypatch.setitem(CALLERS, entry.kind, entry)
    assert isinstance(_OneLine("x"), CallerPolicy)
    assert "one-line" in _simulator_choices("run")
    cfg = fast_config()
    cfg.simulator = cfg.simulator.model_copy(update={"kind": "one-line"})
    assert SimulatorSpec(kind="one-line").kind == "one-line"
    record = run_virtual(run_call(_call(), cfg, _agent(), SimulatorServices(tts=FakeTTS(f0=220.0)), tmp_path))
    assert record.status == "completed", record.error
    assert (record.simulator.kind, record.end_reason) == ("one-line", "said_its_line")


def build_trace_on_words_caller(b: CallerBuild) -> Pipeline:
    """A plug-in: the reference lines (the trace policy) on the same driver, its entry hearing
    words (the STT and turn detection the goal caller has), answering each ended agent turn."""
    policy = TracePolicy(["Hi, I need to add a checked bag.", "QX7T4M, Whitfield.", "No, thanks."])
    return live_caller(
        b, LiveCaller(policy, None, no_greeting_s=5.0, hangup_wait_s=5.0, turn=b.live.cfg.simulator.goal.turn)
    )


def test_the_driver_runs_any_policy_on_either_ears(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = CallerEntry(
        "trace-words",
        "the reference lines, answering each ended agent turn it hears",
        "tests.pipelines.test_caller_registry:build_trace_on_words_caller",
        hears_words=True,
    )
    monkeypatch.setitem(CALLERS, entry.kind, entry)
    cfg = fast_config()
    cfg.simulator = SimulatorConfig(kind="trace-words", vad=VAD, goal=GoalSimConfig(turn=TURN))
    sim = SimulatorServices(tts=FakeTTS(f0=220.0), stt=FakeSTT([GREETING, ASK, DONE, "Goodbye."]))
    record = run_virtual(run_call(_call(), cfg, _agent(), sim, tmp_path))
    assert record.status == "completed", record.error
    assert (record.simulator.kind, record.end_reason) == ("trace-words", "trace_finished")
    acts = [e for e in read_record(tmp_path).events if isinstance(e, CallerActEvent)]
    assert [a.kind for a in acts] == ["open", "answer", "answer", "end"]
    assert acts[-1].ends_call and acts[-1].rule == "trace_finished"
