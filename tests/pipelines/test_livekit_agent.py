"""A LiveKit Agents agent under test, a whole call through the ``livekit`` adapter.

The agent is written as LiveKit's documentation writes one (an ``Agent`` subclass with
instructions and ``@function_tool`` methods); its STT/LLM/TTS are test doubles subclassing
LiveKit's base classes (``tests/fakes/livekit_services.py``). The call is the usual one: the
trace-replay caller over the loopback WebSocket, the recorder on both pipelines, on the
virtual clock. Checked in the record: the turns, the tool calls (the agent's matching tool
ran on the scenario's database, not its own body; a tool the scenario does not define
answered ``tool_not_found``), the final database, and the speech onsets.

Skipped, with the reason, when livekit-agents (the ``livekit`` extra) is not installed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "livekit.agents", reason="livekit-agents is not installed (pip install 'voxbench[livekit]')"
)

from livekit.agents import Agent, AgentSession, RunContext, function_tool

from tests.fakes.livekit_services import LKFakeLLM, LKFakeSTT, LKFakeTTS, demo_agent
from tests.fakes.services import FakeTTS, Reply, buzz
from tests.pipelines.agents.conftest import SCENARIO, fast_config
from voxbench.pipelines.agent.livekit_config import LiveKitAgentConfig
from voxbench.pipelines.agent.livekit_io import LIVEKIT_TIME_READERS
from voxbench.pipelines.agent.livekit_loader import LiveKitCall
from voxbench.pipelines.agent.livekit_session import LiveKitAgentServices
from voxbench.pipelines.agent.profiles import AgentProfile
from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.caller.side import CallPerturbation
from voxbench.pipelines.caller.trace_simulator import reference_user_lines
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.processors.perturbations import BargeInPoint, CallerBehavior, resolve_condition
from voxbench.records import CallerAct, Speech, ToolCall, ToolResult, Transcript, Yield, read_record
from voxbench.scenarios import load_dataset
from voxbench.transports.virtual_loop import run_virtual, virtual_time

GREETING = "Thanks for calling. How can I help?"


@pytest.fixture
def call(eva_data: Path) -> CallScenario:
    dd = load_dataset(eva_data, ["airline"]).domains["airline"]
    return CallScenario.from_domain(dd, SCENARIO)


class AirlineAgent(Agent):
    """A team's agent: its own instructions and tools (the bodies would call its backend)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(instructions="You are a helpful airline agent.", **kwargs)
        self.own_code_ran: list[str] = []

    @function_tool
    async def get_reservation(self, context: RunContext, confirmation_number: str, last_name: str) -> str:
        """Look up a reservation.

        Args:
            confirmation_number: the six-character confirmation code
            last_name: the passenger's last name
        """
        self.own_code_ran.append("get_reservation")
        return "from the team's backend"

    @function_tool
    async def lookup_weather(self, city: str) -> str:
        """The weather at the destination.

        Args:
            city: the city
        """
        self.own_code_ran.append("lookup_weather")
        return "sunny"


class Built:
    """What the factory made for the last call (the test reads it back)."""

    agent: AirlineAgent
    stt: LKFakeSTT
    llm: LKFakeLLM
    tts: LKFakeTTS
    call: LiveKitCall


def factory_for(lines: list[str], built: type[Built]) -> Any:
    def make(call: LiveKitCall) -> tuple[AgentSession[Any], Agent]:
        built.call = call
        built.stt = LKFakeSTT(lines)
        built.llm = LKFakeLLM(
            [
                Reply("Of course. May I have your confirmation number and last name?"),
                Reply(
                    tool_calls=[
                        ("get_reservation", {"confirmation_number": "383S8U", "last_name": "Park"}),
                        ("lookup_weather", {"city": "Paris"}),
                    ]
                ),
                Reply("I found your reservation. I cannot share another passenger's details."),
                Reply("He can call us with his confirmation code."),
                Reply("Is there anything else I can help you with?"),
            ]
        )
        built.tts = LKFakeTTS(f0=120.0)
        built.agent = AirlineAgent()
        session: AgentSession[Any] = AgentSession(
            stt=built.stt,
            llm=built.llm,
            tts=built.tts,
            vad=None,
            turn_handling={"turn_detection": "stt", "endpointing": {"min_delay": 0.2, "max_delay": 1.0}},
            user_away_timeout=None,
        )
        return session, built.agent

    return make


def livekit_profile() -> AgentProfile:
    return AgentProfile(
        name="livekit-test",
        architecture="livekit",
        livekit=LiveKitAgentConfig(agent="tests.pipelines.test_livekit_agent:unused", model="fakes"),
    )


def test_livekit_agent_whole_call(call: CallScenario, tmp_path: Path) -> None:
    lines = reference_user_lines(call.scenario, call.resolver)
    profile = livekit_profile()
    assert profile.livekit is not None
    services = LiveKitAgentServices(
        livekit=profile.livekit, info=profile.info(), factory=factory_for(lines, Built)
    )
    out = tmp_path / "rec"
    cfg = fast_config()
    cfg.agent.greeting = GREETING
    record = run_virtual(run_call(call, cfg, services, SimulatorServices(tts=FakeTTS(f0=220.0)), out))

    assert record.status == "completed", record.error
    assert record.end_reason == "trace_finished"
    assert record.agent.architecture == "livekit" and record.agent.external is not None
    assert record.agent.external.vendor == "livekit"
    # the factory got the scenario's policy and tools
    assert "get_reservation" in Built.call.tool_names
    # the caller was heard turn by turn, and the session answered each turn
    assert Built.stt.heard == lines
    assert Built.tts.spoken[0] == GREETING
    assert any("found your reservation" in t for t in Built.tts.spoken)

    b = read_record(out)
    ev = b.events
    # both tools went through the scenario's executor, never the agent's own code
    assert Built.agent.own_code_ran == []
    assert sorted(e.name for e in ev if isinstance(e, ToolCall)) == ["get_reservation", "lookup_weather"]
    results = {e.name: e for e in ev if isinstance(e, ToolResult)}
    assert results["get_reservation"].status == "success"
    assert results["lookup_weather"].status == "error"
    assert results["lookup_weather"].result.get("error_type") == "tool_not_found"
    assert record.num_tool_calls == 2
    assert b.final_db is not None and b.final_db.get("session", {}).get("confirmation_number") == "383S8U"
    # the LLM read the executor's result back
    tool_outputs = [
        item.output
        for ctx in Built.llm.contexts
        for item in ctx.items
        if getattr(item, "type", "") == "function_call_output"
    ]
    assert any("383S8U" in o for o in tool_outputs)
    # onsets on both channels: the agent spoke the greeting and every answer; each caller line once
    agent_onsets = [e for e in ev if isinstance(e, Speech) and e.channel == "agent" and e.state == "onset"]
    user_onsets = [e for e in ev if isinstance(e, Speech) and e.channel == "user" and e.state == "onset"]
    assert len(user_onsets) == len(lines)
    assert len(agent_onsets) >= len(lines)
    assert agent_onsets[0].t < user_onsets[0].t  # the greeting comes first
    # what the session heard is in the record as the agent side's transcripts
    finals = [e.text for e in ev if isinstance(e, Transcript) and e.final and e.side == "agent"]
    assert finals == lines


def test_profile_needs_livekit_section() -> None:
    with pytest.raises(ValueError, match="needs livekit"):
        AgentProfile(name="x", architecture="livekit")


LONG = "Certainly, I can help you with that today, let me just pull up the details for you now."


def test_barge_in_clears_the_session_output_and_the_agent_yields(call: CallScenario, tmp_path: Path) -> None:
    """The caller barges in 0.6 s into the agent's second answer (1.8 s of speech): LiveKit
    interrupts its speech (on the barge-in's transcript: no VAD here), the adapter drops the
    unplayed audio, and the record has the agent's yield."""
    lines = reference_user_lines(call.scenario, call.resolver)
    made: dict[str, Any] = {}

    def make() -> tuple[AgentSession[Any], Agent]:
        # the answer to the barge-in takes 1.5 s to think of: the cut-off answer's silence shows
        made["llm"] = LKFakeLLM([Reply(LONG), Reply(LONG), Reply(LONG, delay_s=1.5)] + [Reply(LONG)] * 6)
        session: AgentSession[Any] = AgentSession(
            stt=LKFakeSTT(lines * 2),
            llm=made["llm"],
            tts=LKFakeTTS(f0=120.0),
            vad=None,
            turn_handling={"turn_detection": "stt", "endpointing": {"min_delay": 0.2, "max_delay": 1.0}},
            user_away_timeout=None,
        )
        made["agent"] = Agent(instructions="You are an airline agent.")
        return session, made["agent"]

    cond = resolve_condition("clean").model_copy(
        update={
            "name": "barge",
            "behavior": CallerBehavior(
                barge_in=(BargeInPoint(turn=2, after_ms=600.0, text="Sorry, one thing."),)
            ),
        }
    )
    pert = CallPerturbation(cond, 7, clip_synth=lambda text, sr: buzz(0.6, sr, f0=300.0))
    profile = livekit_profile()
    assert profile.livekit is not None
    services = LiveKitAgentServices(livekit=profile.livekit, info=profile.info(), factory=make)
    out = tmp_path / "rec"
    cfg = fast_config()
    cfg.agent.greeting = GREETING
    record = run_virtual(
        run_call(call, cfg, services, SimulatorServices(tts=FakeTTS(f0=220.0)), out, perturbation=pert)
    )
    assert record.status == "completed", record.error
    assert services.processor is not None and services.processor.audio_out.interruptions >= 1
    ev = read_record(out).events
    barge = next(e for e in ev if isinstance(e, CallerAct) and e.kind == "barge_in")
    yields = [e for e in ev if isinstance(e, Yield) and e.channel == "agent" and e.t >= barge.t]
    assert yields, "the agent kept talking over the barge-in"
    # the session's history knows its answer was cut short
    session = services.processor.session
    assert session is not None
    assert any(getattr(i, "interrupted", False) for i in session.history.items)


def test_a_factory_that_fails_is_an_infra_failure_of_the_agent(call: CallScenario, tmp_path: Path) -> None:
    def broken() -> Agent:
        raise RuntimeError("no API key in this environment")

    profile = livekit_profile()
    assert profile.livekit is not None
    services = LiveKitAgentServices(livekit=profile.livekit, info=profile.info(), factory=broken)
    record = run_virtual(run_call(call, fast_config(), services, SimulatorServices(tts=FakeTTS()), tmp_path))
    assert record.status == "infra_failure"
    assert record.error is not None and "no API key in this environment" in record.error


def test_a_session_that_closes_itself_hangs_up(call: CallScenario, tmp_path: Path) -> None:
    """The agent ends the call from a passthrough tool (its own code), as LiveKit agents do."""
    lines = reference_user_lines(call.scenario, call.resolver)

    class Hanging(Agent):
        @function_tool
        async def end_call(self, context: RunContext) -> None:
            """End the call."""
            context.session.shutdown()

    def make() -> tuple[AgentSession[Any], Agent]:
        session: AgentSession[Any] = AgentSession(
            stt=LKFakeSTT(lines),
            llm=LKFakeLLM([Reply("Goodbye.", tool_calls=[("end_call", {})])]),
            tts=LKFakeTTS(),
            vad=None,
            turn_handling={"turn_detection": "stt", "endpointing": {"min_delay": 0.2, "max_delay": 1.0}},
            user_away_timeout=None,
        )
        return session, Hanging(instructions="You are an airline agent.")

    cfg_lk = LiveKitAgentConfig(
        agent="tests.pipelines.test_livekit_agent:unused", passthrough_tools=["end_call"]
    )
    services = LiveKitAgentServices(livekit=cfg_lk, info=livekit_profile().info(), factory=make)
    record = run_virtual(run_call(call, fast_config(), services, SimulatorServices(tts=FakeTTS()), tmp_path))
    assert record.status == "completed", record.error
    assert record.end_reason == "agent_hangup"
    assert record.num_tool_calls == 0  # a passthrough tool is the agent's own: not a scenario call


def test_the_record_is_the_same_run_to_run_on_the_virtual_clock(call: CallScenario, tmp_path: Path) -> None:
    """With LiveKit's own clock reads on the loop's clock, two runs stamp every event alike."""

    def once(out: Path) -> list[tuple[str, float]]:
        profile = livekit_profile()
        assert profile.livekit is not None
        services = LiveKitAgentServices(livekit=profile.livekit, info=profile.info(), factory=demo_agent)
        with virtual_time(LIVEKIT_TIME_READERS):
            record = run_virtual(
                run_call(call, fast_config(), services, SimulatorServices(tts=FakeTTS()), out)
            )
        assert record.status == "completed", record.error
        return [(e.type, e.t) for e in read_record(out).events]

    first, second = once(tmp_path / "a"), once(tmp_path / "b")
    assert len(first) > 40
    assert first == second


def test_the_agents_llm_is_warmed_before_the_clock_on_voxbenchs_server(
    call: CallScenario, tmp_path: Path
) -> None:
    """With a local llama.cpp started for the profile, the agent is built before the clock and
    its own LLM reads its instructions and tools once (the probe), then the call runs on the
    same agent: the first turn does not read the whole policy inside the call."""
    lines = reference_user_lines(call.scenario, call.resolver)
    made: list[LiveKitCall] = []

    def make(c: LiveKitCall) -> tuple[AgentSession[Any], Agent]:
        made.append(c)
        return factory_for(lines, Built)(c)

    profile = livekit_profile()
    assert profile.livekit is not None
    services = LiveKitAgentServices(
        livekit=profile.livekit,
        info=profile.info(),
        factory=make,
        llm_base_url="http://127.0.0.1:1/v1",  # the fake LLM never calls it
        llm_model="local",
    )
    cfg = fast_config()
    cfg.agent.greeting = GREETING
    record = run_virtual(run_call(call, cfg, services, SimulatorServices(tts=FakeTTS(f0=220.0)), tmp_path))
    assert record.status == "completed", record.error
    assert len(made) == 1 and made[0].llm_base_url == "http://127.0.0.1:1/v1"
    probe = Built.llm.contexts[0]
    roles = [(m.role, m.text_content) for m in probe.messages()]
    assert roles == [("system", Built.agent.instructions), ("user", "Hello.")]
    assert Built.llm.tool_names[0] == ["get_reservation", "lookup_weather"]
    # then the call: its first chat has the caller's first line, on the same agent
    first_turn = [m.text_content for m in Built.llm.contexts[1].messages() if m.role == "user"]
    assert first_turn == [lines[0]]
    assert record.num_tool_calls == 2
