"""Run one live call: agent server + simulator client over loopback, fully recorded.

The runner owns the lifecycle: start the agent, wait until its socket listens, start
the simulator, watch for an end (end_call, transfer, trace finished, inactivity, time
limit, a dropped socket, a crashed pipeline), let the last words play out, shut both
down with a timeout, and write the record. Infrastructure failures produce a record
with status "infra_failure" and the cause; they never hang.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loguru import logger
from pipecat.frames.frames import ErrorFrame, TTSSpeakFrame
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineWorker
from pipecat.workers.runner import WorkerRunner

from voxbench.pipelines.agent.builder import AgentBundle, build_agent
from voxbench.pipelines.agent.cascade import AgentInputs
from voxbench.pipelines.agent.pricing import usage_summary
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.call.lifecycle import PipelineTask, make_worker, stop_worker, versions
from voxbench.pipelines.call.pacing_health import pacing_events
from voxbench.pipelines.call.record_files import write_conversation
from voxbench.pipelines.call.spec import CallIdentity
from voxbench.pipelines.call.watch import CallWatch, Drain, Ending, SideState
from voxbench.pipelines.caller.side import CallerSide, CallPerturbation
from voxbench.pipelines.config import CallConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.warmup import warm_up
from voxbench.processors.clock import ConversationClock
from voxbench.processors.control import CallControl, EndRequest
from voxbench.processors.recorder import ConversationRecorder
from voxbench.records import (
    AgentInfo,
    ConnectionEvent,
    ConversationRecord,
    EndEvent,
    ErrorEvent,
    EventWriter,
    SimulatorInfo,
)
from voxbench.records.events import Channel
from voxbench.records.stage import note_stage
from voxbench.scenarios import ToolExecutor, db_hash
from voxbench.transports.pairing import free_port
from voxbench.transports.serializers import TwilioClientSerializer
from voxbench.transports.wire import make_client, make_server, simulator_serializer


@dataclass
class _Call:
    """What the phases of one run share: the recorder, the control, the clock and the output
    folder (where each step is noted for a progress display, ``records/stage.py``)."""

    clock: ConversationClock
    control: CallControl
    rec: ConversationRecorder
    out: Path | None = None

    def fail(self, reason: str, cause: str, source: str) -> None:
        """End the call as an infrastructure failure (first request wins) and record why."""
        now = self.clock.now()
        if self.control.end(reason, status="infra_failure", error=cause, error_source=source, t=now):
            self.rec.emit(ErrorEvent(t=now, source=source, message=cause, fatal=True))

    def end(self, ending: Ending) -> None:
        if ending.status == "infra_failure":
            self.fail(ending.reason, ending.cause or ending.reason, ending.source or "runner")
        else:
            self.control.end(ending.reason, t=self.clock.now())


async def run_call(
    call: CallScenario,
    cfg: CallConfig,
    agent_services: AgentServices | AgentBundle,
    sim_services: SimulatorServices,
    out_dir: str | Path,
    identity: CallIdentity | None = None,
    clock: ConversationClock | None = None,
    perturbation: CallPerturbation | None = None,
) -> ConversationRecord:
    """Run one conversation and write its record directory (record.json once); returns the record.

    ``identity`` (coordinates and seeds) goes into the record as is; without it the record is
    trial 0 of ``<domain>-<scenario>-t0``. ``clock`` lets a harness share the conversation
    clock (benchmarks stamp ground truth on it). ``perturbation`` (a condition and its seed)
    perturbs every chunk the caller sends at send time, adds its behaviour, and goes into the
    record.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    sr = cfg.wire.sample_rate
    clock = clock or ConversationClock()
    writer = EventWriter(out / "events.jsonl")
    rec = ConversationRecorder(clock, sr, writer, cfg.onset, cfg.agent.vad.engine)
    state = _Call(clock, CallControl(), rec, out)
    caller = CallerSide(perturbation, rec, clock.now, sr, sim_services) if perturbation else None
    if caller is not None:
        cfg = caller.adjust_config(cfg)
    executor = ToolExecutor(
        call.domain, call.initial_db, call.scenario.current_date_time, call.agent, clock=clock.now
    )
    started_at = dt.datetime.now(dt.UTC).isoformat()
    wall0 = time.monotonic()
    prepare = None
    if cfg.simulator.kind == "llm":

        async def prepare() -> None:
            await _prepare_llm_caller(call, cfg, sim_services, caller)

    agent = await _start_agent(call, cfg, agent_services, executor, state, prepare)
    sim: tuple[PipelineWorker, PipelineTask, Any] | None = None
    if not state.control.ending:
        # only the cascade agent is known to speak (pre_tool_speech) before every tool call
        holds = isinstance(agent_services, AgentServices) and bool(cfg.agent.pre_tool_speech)
        seed = identity.seeds.attempt if identity is not None and identity.seeds is not None else 0
        sim = await _start_simulator(call, cfg, sim_services, agent.port, state, caller, holds, seed)
    req = await _watch(cfg, state, agent, sim[1] if sim else None)
    note_stage(out, "ending the call and writing the record")
    t_end, events = await _drain_and_stop(cfg, state, req, agent, sim)
    writer.close()
    record = _record(call, cfg, identity, caller, req, (agent_services.info, sim_services.info), executor)
    record.started_at = started_at
    record.duration_s = round(t_end, 3)
    record.extra.update(
        wall_s=round(time.monotonic() - wall0, 3), usage=usage_summary(events, t_end, agent_services.info)
    )
    write_conversation(
        out,
        record,
        events,
        rec,
        scenario=call.resolved(),
        agent=call.agent.model_dump(mode="json"),
        initial_db=executor.initial_db,
        final_db=executor.db,
    )
    if cfg.post_call_transcribe_agent:
        note_stage(out, "transcribing the agent's audio after the call (post-call STT)")
        await _post_call_stt(out, record)
    return record


def _record(
    call: CallScenario,
    cfg: CallConfig,
    identity: CallIdentity | None,
    caller: CallerSide | None,
    req: EndRequest,
    info: tuple[AgentInfo, SimulatorInfo],
    executor: ToolExecutor,
) -> ConversationRecord:
    """The record of a finished call (the driver adds times and usage)."""
    return ConversationRecord(
        **_identity_fields(call, identity, caller),
        lang=call.lang,
        status=req.status,
        end_reason=req.reason,
        error=req.error,
        error_source=req.error_source,
        ended_at=dt.datetime.now(dt.UTC).isoformat(),
        agent=info[0],
        simulator=info[1].model_copy(update={"kind": cfg.simulator.kind}),
        versions=versions(),
        initial_db_hash=db_hash(executor.initial_db),
        final_db_hash=db_hash(executor.db),
        num_tool_calls=sum(1 for a in executor.audit_log if a["type"] == "tool_call"),
        extra={"wire": cfg.wire.model_dump(mode="json"), "audit_log": executor.audit_log},
    )


def _identity_fields(
    call: CallScenario, identity: CallIdentity | None, caller: CallerSide | None
) -> dict[str, Any]:
    """The record's coordinates, seeds and perturbation (the perturbation seed is the one used)."""
    seeds = identity.seeds.record() if identity is not None and identity.seeds is not None else {}
    if caller is not None:
        seeds["perturbation"] = caller.pert.seed
    if identity is None:
        return {
            "conversation_id": f"{call.domain}-{call.scenario.id}-t0",
            "domain": call.domain,
            "scenario_id": call.scenario.id,
            "condition": caller.condition.name if caller is not None else "clean",
            "perturbation": caller.record() if caller is not None else {},
            "seeds": seeds,
        }
    ref = identity.conversation
    return {
        "conversation_id": ref.conversation_id,
        "domain": call.domain,
        "scenario_id": call.scenario.id,
        "trial": ref.trial,
        "condition": ref.condition,
        "attempt": ref.attempt,
        "perturbation": caller.record() if caller is not None else {},
        "seeds": seeds,
    }


@dataclass
class _Agent:
    worker: PipelineWorker
    task: PipelineTask
    port: int
    connected: asyncio.Event
    output: Any  # the server's output transport (its pacer), for pacing health


async def _start_agent(
    call: CallScenario,
    cfg: CallConfig,
    services: AgentServices | AgentBundle,
    executor: ToolExecutor,
    state: _Call,
    prepare_caller: Callable[[], Awaitable[None]] | None,
) -> _Agent:
    """Build the agent (the server side), warm the models (``prepare_caller``: the LLM
    caller's), zero the clock, start the agent and wait until its socket listens (a server
    that never gets ready fails the call)."""
    clock, rec, sr = state.clock, state.rec, cfg.wire.sample_rate
    port = free_port(cfg.wire.host)
    server = make_server(cfg.wire, port)
    inputs = AgentInputs(
        call.agent, executor, call.scenario.current_date_time, cfg.agent, state.control, clock, sr
    )
    agent = build_agent(services, server, inputs)
    worker = make_worker(agent.pipeline, clock, rec.observer("agent"), sr, "agent")
    ready, connected = asyncio.Event(), asyncio.Event()
    _agent_handlers(server, worker, cfg, state, ready, connected)
    if cfg.agent.warm_up:
        cache = services.prompt_cache if isinstance(services, AgentServices) else None
        note_stage(state.out, "warming the agent's LLM on its policy and tools")
        await warm_up(services.llm, agent.context, cache)
    if prepare_caller is not None:
        note_stage(state.out, "warming the LLM caller on its prompt")
        await prepare_caller()
    note_stage(state.out, "in the call")
    clock.reset()
    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    task = PipelineTask(runner.run(), "agent")
    try:
        await asyncio.wait_for(ready.wait(), timeout=cfg.wire.connect_timeout_s)
    except TimeoutError:
        state.fail("agent_error", task.failure() or "agent server never became ready", "agent")
    return _Agent(worker, task, port, connected, getattr(server, "_output", None))


def _agent_handlers(
    server: Any,
    worker: PipelineWorker,
    cfg: CallConfig,
    state: _Call,
    ready: asyncio.Event,
    connected: asyncio.Event,
) -> None:
    """The agent server's events: ready, the caller connecting (then the greeting), a socket
    dropped mid-call, a processor that became unusable."""
    clock, rec = state.clock, state.rec

    @server.event_handler("on_websocket_ready")
    async def _ready(_t: Any) -> None:
        ready.set()

    @server.event_handler("on_client_connected")
    async def _connected(_t: Any, _ws: Any) -> None:
        connected.set()
        rec.emit(ConnectionEvent(t=clock.now(), side="agent", state="connected"))
        if cfg.agent.greeting:
            await worker.queue_frame(TTSSpeakFrame(cfg.agent.greeting))

    @server.event_handler("on_client_disconnected")
    async def _disconnected(_t: Any, _ws: Any) -> None:
        rec.emit(ConnectionEvent(t=clock.now(), side="agent", state="disconnected"))
        if not state.control.ending:
            state.fail("connection_lost", "the simulator's socket closed mid-call", "agent_transport")

    @worker.event_handler("on_pipeline_error")
    async def _agent_error(_w: Any, frame: ErrorFrame) -> None:
        rec.emit(
            ErrorEvent(t=clock.now(), side="agent", source=str(frame.processor), message=str(frame.error))
        )
        proc = frame.processor
        if proc is not None and not getattr(proc, "is_usable", True):
            state.fail("agent_error", f"{proc}: {frame.error}", "agent")


def _side(task: PipelineTask | None) -> SideState | None:
    return None if task is None else SideState(task.failure(), task.task.done())


async def _watch(cfg: CallConfig, state: _Call, agent: _Agent, sim_task: PipelineTask | None) -> EndRequest:
    """Tick every 50 ms until something ends the call (:class:`CallWatch` decides why)."""
    watch = CallWatch(cfg.limits, connect_timeout_s=cfg.wire.connect_timeout_s + 2)
    while not state.control.ending:
        await asyncio.sleep(0.05)
        agent_side = _side(agent.task)
        assert agent_side is not None
        ending = watch.check(
            state.clock.now(), agent_side, _side(sim_task), agent.connected.is_set(), state.rec.last_speech_t
        )
        if ending is not None:
            state.end(ending)
    req = state.control.request
    assert req is not None
    logger.info(f"call ending: {req.reason} ({req.status}) at t={state.clock.now():.2f}s")
    return req


async def _drain_and_stop(
    cfg: CallConfig,
    state: _Call,
    req: EndRequest,
    agent: _Agent,
    sim: tuple[PipelineWorker, PipelineTask, Any] | None,
) -> tuple[float, list[Any]]:
    """Let the last words play out (a completed call only), stop both pipelines, and return
    the end time and the recorded events."""
    clock, rec, lim = state.clock, state.rec, cfg.limits
    if req.status == "completed":
        drain = Drain(clock.now(), lim.drain_s)
        while True:
            await asyncio.sleep(0.05)
            if drain.done(clock.now(), rec.speaking("user") or rec.speaking("agent")):
                break
    t_end = clock.now()
    rec.freeze()  # what the pipelines do while being torn down is not part of the call
    if sim is not None:
        await stop_worker(sim[0], sim[1], lim.shutdown_timeout_s)
    await stop_worker(agent.worker, agent.task, lim.shutdown_timeout_s)
    await asyncio.sleep(0.2)  # let observer queues flush
    outputs: dict[Channel, Any] = {"agent": agent.output}
    if sim is not None:
        outputs["user"] = sim[2]
    for ev in pacing_events(rec, outputs, t_end):
        rec.emit(ev)
    rec.emit(EndEvent(t=t_end, reason=req.reason))
    return t_end, rec.finalize()


async def _post_call_stt(out: Path, record: ConversationRecord) -> None:
    """Transcribe the agent channel after the call (in a thread: other calls may share the loop).

    A failure here leaves the written record as it was (its fidelity metrics then say
    unscored); it never turns a finished call into an infrastructure failure.
    """
    from voxbench.pipelines.call.post_call_stt import transcribe_agent_record

    try:
        done = await asyncio.to_thread(transcribe_agent_record, out)
    except Exception as exc:
        logger.warning(f"post-call STT of the agent channel failed: {type(exc).__name__}: {exc}")
        return
    if done.status == "transcribed":
        record.extra["post_call_stt"] = done.model_dump(mode="json")
    else:
        logger.info(f"post-call STT skipped: {done.reason}")


async def _prepare_llm_caller(
    call: CallScenario, cfg: CallConfig, services: SimulatorServices, caller: CallerSide | None
) -> None:
    """The LLM caller's prompt (with a condition's persona) in place, warmed before the clock starts."""
    from voxbench.pipelines.caller.llm_simulator import prepare_llm_caller, warm_up_llm_caller

    extra = [caller.persona_text()] if caller is not None else []
    prepare_llm_caller(call, services, cfg, extra)
    if cfg.simulator.llm.warm_up:
        await warm_up_llm_caller(services)


async def _start_simulator(
    call: CallScenario,
    cfg: CallConfig,
    services: SimulatorServices,
    port: int,
    state: _Call,
    caller: CallerSide | None,
    tool_holds: bool,
    seed: int = 0,
) -> tuple[PipelineWorker, PipelineTask, Any]:
    """Build the caller (the client side; a perturbation transforms what it sends), connect
    it to the agent and start it (``seed``: the goal caller's phrasings)."""
    clock, rec, sr = state.clock, state.rec, cfg.wire.sample_rate
    interruptions: list[float] = []
    serializer = simulator_serializer(cfg.wire, on_interruption=lambda: interruptions.append(clock.now()))
    transform = caller.transform(None) if caller is not None else None
    client = make_client(cfg.wire, port, serializer, transform)
    pipeline = _caller_pipeline(call, cfg, services, client, state, caller, tool_holds, seed)
    worker = make_worker(pipeline, clock, rec.observer("user"), sr, "simulator")

    @client.event_handler("on_connected")
    async def _on_connected(_t: Any, ws: Any) -> None:
        rec.emit(ConnectionEvent(t=clock.now(), side="user", state="connected"))
        if isinstance(serializer, TwilioClientSerializer):
            for m in serializer.start_messages():
                await ws.send(m)

    @worker.event_handler("on_pipeline_started")
    async def _listening(*_a: Any) -> None:
        serializer.accepting = True

    @client.event_handler("on_disconnected")
    async def _on_disconnected(_t: Any, _ws: Any) -> None:
        rec.emit(ConnectionEvent(t=clock.now(), side="user", state="disconnected"))
        if not state.control.ending:
            state.fail("connection_lost", "the agent's socket closed mid-call", "simulator_transport")

    @worker.event_handler("on_pipeline_error")
    async def _sim_error(_w: Any, frame: ErrorFrame) -> None:
        rec.emit(
            ErrorEvent(t=clock.now(), side="user", source=str(frame.processor), message=str(frame.error))
        )
        proc = frame.processor
        if proc is not None and not getattr(proc, "is_usable", True):
            reason = "connection_lost" if "Transport" in str(proc) else "simulator_error"
            state.fail(reason, f"{proc}: {frame.error}", "simulator")

    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    return worker, PipelineTask(runner.run(), "simulator"), client.output()


def _caller_pipeline(
    call: CallScenario,
    cfg: CallConfig,
    services: SimulatorServices,
    client: Any,
    state: _Call,
    caller: CallerSide | None,
    tool_holds: bool,
    seed: int = 0,
) -> Pipeline:
    """The LLM caller's pipeline, the goal caller's, or the trace caller's over the reference lines."""
    sr, clock, control = cfg.wire.sample_rate, state.clock, state.control
    if cfg.simulator.kind == "llm":
        from voxbench.pipelines.caller.llm_simulator import build_llm_simulator

        return build_llm_simulator(call, services, client, cfg, control, clock, sr)
    if cfg.simulator.kind == "goal":
        from voxbench.pipelines.caller.goal_live import build_goal_simulator

        return build_goal_simulator(call, services, client, cfg, control, clock, state.rec.emit, seed)
    from voxbench.pipelines.caller.trace_simulator import build_trace_simulator, reference_user_turns
    from voxbench.processors.trace_driver import TraceDriver

    turns = reference_user_turns(call.scenario, call.resolver, tool_holds)[: cfg.simulator.trace.max_lines]
    lines = [t.text for t in turns]
    if caller is not None:
        lines = caller.lines(lines)  # a behaviour that adds or drops lines drops the turn counts

    def done() -> None:
        control.end("trace_finished", t=clock.now())

    driver = TraceDriver(
        lines,
        cfg.simulator.trace,
        done,
        [t.agent_turns for t in turns],
        # end a hold wait while the caller's voice can still beat the inactivity limit
        max(cfg.simulator.trace.turn_gap_s, cfg.limits.inactivity_s - 2.0),
    )
    return build_trace_simulator(services, client, driver, cfg.simulator, sr, gap_fill=cfg.wire.gap_fill)
