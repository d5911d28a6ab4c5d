"""Turn-end fallback nudges and token usage in a live fake-service call over the real WebSocket."""

from __future__ import annotations

from pathlib import Path

from pipecat.processors.frame_processor import FrameProcessor
from pipecat.transports.base_transport import BaseTransport

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply
from tests.pipelines.test_call_fakes import call_input, fast_config
from voxbench.eval.from_record import load_context
from voxbench.eval.metrics.turn_taking import turn_taking
from voxbench.eval.types import EvalConfig
from voxbench.pipelines.agent.cascade import AgentInputs, build_cascade_agent
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.caller.trace_simulator import reference_user_lines
from voxbench.pipelines.config import AgentConfig, TraceSimConfig
from voxbench.processors.clock import ConversationClock
from voxbench.processors.control import CallControl
from voxbench.processors.fallback_nudge import MAX_CONSECUTIVE_NUDGES, NUDGE_PROMPT, FallbackNudger
from voxbench.records import AgentInfo, FallbackNudge, ServicePart, Speech, UsageEvent, read_record
from voxbench.scenarios import ToolExecutor
from voxbench.transports.virtual_loop import run_virtual

FALLBACK_S = 1.0


def test_silent_caller_gets_nudged_and_the_record_scores_it(eva_data: Path, tmp_path: Path) -> None:
    call = call_input(eva_data)
    line = reference_user_lines(call.scenario, call.resolver)[0]
    cfg = fast_config()
    cfg.agent.turn_end_fallback_s = FALLBACK_S
    # the caller waits 4 s of agent silence before its line: well past the fallback, so a slow
    # re-prompt on a loaded machine still comes before the caller speaks
    cfg.simulator.trace = TraceSimConfig(turn_gap_s=4.0, no_greeting_s=3, max_lines=1)
    script = [
        Reply(f"Reply number {i}.", completion_tokens=10 + i, reasoning_tokens=5 if i % 2 else None)
        for i in range(8)
    ]
    llm = FakeLLM(script)
    agent = AgentServices(
        stt=FakeSTT([line]),
        llm=llm,
        tts=FakeTTS(f0=120.0),
        info=AgentInfo(name="fake", stt=ServicePart(vendor="fake")),
    )
    record = run_virtual(run_call(call, cfg, agent, SimulatorServices(tts=FakeTTS(f0=220.0)), tmp_path))
    assert record.status == "completed", record.error

    ev = read_record(tmp_path).events
    nudges = [e for e in ev if isinstance(e, FallbackNudge)]
    assert nudges and all(n.side == "agent" and n.silence_s == FALLBACK_S for n in nudges)
    # every nudge reached the LLM as a developer message and ran it
    nudged = [c for c in llm.contexts if c and c[-1].get("role") == "developer"]
    assert len(nudged) == len(nudges)
    assert nudged[0][-1]["content"] == NUDGE_PROMPT.format(silence=FALLBACK_S)

    agent_on = [e.t for e in ev if isinstance(e, Speech) and e.channel == "agent" and e.state == "onset"]
    agent_off = [e.t for e in ev if isinstance(e, Speech) and e.channel == "agent" and e.state == "offset"]
    user_on = [e.t for e in ev if isinstance(e, Speech) and e.channel == "user" and e.state == "onset"]
    assert len(user_on) == 1
    for n in nudges:
        last_off = max(t for t in agent_off if t < n.t)
        assert n.t - last_off >= FALLBACK_S - 0.2  # only after the agent had been quiet that long
        assert not any(last_off < t < n.t for t in user_on)  # ... and the caller said nothing
        assert any(n.t < t < n.t + 3.0 for t in agent_on)  # the agent re-prompted
    # at most MAX_CONSECUTIVE_NUDGES while the caller stays silent; the count resets when it speaks
    before = [n for n in nudges if n.t < user_on[0]]
    after = [n for n in nudges if n.t > user_on[0]]
    assert len(before) == MAX_CONSECUTIVE_NUDGES and 1 <= len(after) <= MAX_CONSECUTIVE_NUDGES

    usage = [e for e in ev if isinstance(e, UsageEvent) and e.side == "agent"]
    assert usage and [u.completion_tokens for u in usage] == [10 + i for i in range(len(usage))]
    assert [u.reasoning_tokens for u in usage] == [5 if i % 2 else None for i in range(len(usage))]

    ctx = load_context(tmp_path)
    assert len(ctx.fallback_turn_ids) == len(nudges)
    tt = turn_taking(ctx, EvalConfig())
    assert all(tt.details["per_turn_reason"][t] == "turn_end_fallback" for t in ctx.fallback_turn_ids)
    assert all(tt.details["per_turn_score"][t] == 0.0 for t in ctx.fallback_turn_ids)
    assert tt.sub_metrics["fallback_nudge.count"].score == len(nudges)
    with_reasoning = [u.reasoning_tokens for u in usage if u.reasoning_tokens is not None]
    assert tt.sub_metrics["mean_reasoning_tokens"].score == round(
        sum(with_reasoning) / len(with_reasoning), 4
    )


class _NoTransport(BaseTransport):
    """Just enough transport to build a pipeline (nothing is run)."""

    def input(self):  # type: ignore[no-untyped-def]
        return FrameProcessor()

    def output(self):  # type: ignore[no-untyped-def]
        return FrameProcessor()


def test_no_nudger_unless_configured(eva_data: Path) -> None:
    call = call_input(eva_data)
    assert AgentConfig().turn_end_fallback_s is None

    def nudgers(cfg: AgentConfig) -> int:
        services = AgentServices(stt=FakeSTT([]), llm=FakeLLM([]), tts=FakeTTS())
        executor = ToolExecutor(call.domain, call.initial_db, call.scenario.current_date_time, call.agent)
        inputs = AgentInputs(call.agent, executor, "", cfg, CallControl(), ConversationClock(), 16000)
        built = build_cascade_agent(services, _NoTransport(), inputs)
        return sum(isinstance(p, FallbackNudger) for p in built.pipeline.processors)

    assert nudgers(AgentConfig()) == 0
    assert nudgers(AgentConfig(turn_end_fallback_s=4.0)) == 1
