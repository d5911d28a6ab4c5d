"""The reference agent re-enacts a scenario's reference conversation live with the trace caller."""

from __future__ import annotations

from pathlib import Path

from voxbench.pipelines.agent.reference import ReferenceAgentServices
from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.config import (
    AgentConfig,
    CallConfig,
    LimitsConfig,
    SimulatorConfig,
    TraceSimConfig,
    TurnConfig,
    VADConfig,
)
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.services.tone import ToneTTSService
from voxbench.records import (
    BargeIn,
    LLMText,
    PacingEvent,
    ServicePart,
    SimulatorInfo,
    ToolCall,
    Utterance,
    Yield,
    read_record,
)
from voxbench.scenarios import check_task_completion, load_dataset
from voxbench.scenarios.loader import toy_dataset_dir
from voxbench.scenarios.reference_script import Call, Say, reference_script
from voxbench.transports.virtual_loop import run_virtual


def toy_call(sid: str) -> CallScenario:
    dd = load_dataset(toy_dataset_dir(), ["toy"]).domains["toy"]
    return CallScenario.from_domain(dd, sid)


def test_script_splits_the_trace_at_the_callers_lines() -> None:
    call = toy_call("ty.1")
    s = reference_script(call.scenario, call.resolver)
    assert s.prelude == ()
    assert len(s.user_lines) == len(s.replies) == 4
    assert [type(x) for x in s.replies[1]] == [Call, Say]
    assert s.tool_calls == ["find_order", "cancel_order"]
    assert s.replies[-1] == ()
    first = s.replies[1][0]
    assert isinstance(first, Call) and "<" not in str(first.params)  # placeholders resolved
    assert first.expected is not None and first.expected["status"] == "success"
    assert s.responses == s.agent_lines  # one line per response in this trace


def fast_config() -> CallConfig:
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    return CallConfig(
        agent=AgentConfig(
            vad=vad, turn=TurnConfig(smart_turn=False, speech_timeout_s=0.2), greeting="Hello there!"
        ),
        simulator=SimulatorConfig(
            kind="trace", vad=vad, trace=TraceSimConfig(turn_gap_s=0.8, no_greeting_s=1.0, reply_timeout_s=5)
        ),
        limits=LimitsConfig(time_limit_s=60, inactivity_s=10, drain_s=2),
        post_call_transcribe_agent=False,
    )


def test_reference_call_completes_the_task(tmp_path: Path) -> None:
    call = toy_call("ty.1")
    script = reference_script(call.scenario, call.resolver)
    agent = ReferenceAgentServices(script, call.domain, ToneTTSService(f0=120.0))
    sim = SimulatorServices(
        tts=ToneTTSService(f0=220.0),
        info=SimulatorInfo(tts=ServicePart(vendor="synthetic", model="tone:220Hz")),
    )
    record = run_virtual(run_call(call, fast_config(), agent, sim, tmp_path))

    assert record.status == "completed", record.error
    assert record.end_reason == "trace_finished"
    b = read_record(tmp_path)
    ev = b.events
    assert [e.text for e in ev if isinstance(e, Utterance)] == list(script.user_lines)
    assert [e.name for e in ev if isinstance(e, ToolCall)] == script.tool_calls
    # the agent said exactly the trace's lines (the generic greeting is not one of them)
    said = [e.text for e in ev if isinstance(e, LLMText) and e.side == "agent"]
    assert said == script.responses
    assert not any(isinstance(e, BargeIn | Yield) for e in ev)
    assert b.final_db is not None
    assert check_task_completion(call.expected_db, b.final_db).success
    # pacing health of both sides is in the record
    assert sorted(e.side for e in ev if isinstance(e, PacingEvent)) == ["agent", "user"]
    # which voices spoke
    assert record.agent.tts is not None and record.agent.tts.model == "tone:120Hz"
    assert record.simulator.tts is not None and record.simulator.tts.model == "tone:220Hz"
