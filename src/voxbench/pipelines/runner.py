"""Run one live call: agent server + simulator client over loopback, fully recorded.

The runner owns the lifecycle: start the agent, wait until its socket listens, start
the simulator, watch for an end (end_call, transfer, trace finished, inactivity, time
limit, a dropped socket, a crashed pipeline), let the last words play out, shut both
down with a timeout, and write the record. Infrastructure failures produce a record
with status "infra_failure" and the cause; they never hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from loguru import logger
from pipecat.frames.frames import EndFrame, ErrorFrame
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams, PipelineWorker, ProcessorUnusablePolicy
from pipecat.workers.runner import WorkerRunner

from voxbench.pipelines.agent_builder import AgentBundle, build_agent
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.caller_side import CallerSide, CallPerturbation
from voxbench.pipelines.config import CallConfig
from voxbench.pipelines.control import CallControl
from voxbench.pipelines.pacing_health import pacing_events
from voxbench.pipelines.pricing import usage_summary
from voxbench.pipelines.record_files import write_conversation
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.warmup import warm_up
from voxbench.pipelines.wire import make_client, make_server, simulator_serializer
from voxbench.processors.clock import ConversationClock
from voxbench.processors.recorder import ConversationRecorder
from voxbench.records import ConnectionEvent, ConversationRecord, EndEvent, ErrorEvent, EventWriter
from voxbench.records.events import Channel
from voxbench.scenarios import ToolExecutor, db_hash
from voxbench.transports.pacing import AudioTransform
from voxbench.transports.pairing import free_port
from voxbench.transports.serializers import TwilioClientSerializer


def _worker(
    pipeline: Pipeline, clock: ConversationClock, observer: Any, sr: int, name: str
) -> PipelineWorker:
    return PipelineWorker(
        pipeline,
        params=PipelineParams(
            audio_in_sample_rate=sr, audio_out_sample_rate=sr, enable_metrics=True, enable_usage_metrics=True
        ),
        clock=clock,
        observers=[observer],
        idle_timeout_secs=None,
        enable_rtvi=False,
        enable_turn_tracking=False,
        processor_unusable_policy=ProcessorUnusablePolicy.END,
        name=name,
    )


class _Task:
    def __init__(self, coro: Coroutine[Any, Any, None], name: str):
        self.name = name
        self.task = asyncio.create_task(coro, name=name)

    def failure(self) -> str | None:
        if not self.task.done() or self.task.cancelled():
            return None
        exc = self.task.exception()
        return f"{type(exc).__name__}: {exc}" if exc else None


async def run_call(
    call: CallScenario,
    cfg: CallConfig,
    agent_services: AgentServices | AgentBundle,
    sim_services: SimulatorServices,
    out_dir: str | Path,
    conversation_id: str | None = None,
    trial: int = 0,
    sim_audio_transform: AudioTransform | None = None,
    clock: ConversationClock | None = None,
    perturbation: CallPerturbation | None = None,
) -> ConversationRecord:
    """Run one conversation and write its record directory; returns the record.

    `sim_audio_transform` (int16 -> int16) sees every chunk the caller sends, speech and
    silence, at send time: perturbations go there. `clock` lets a harness share the
    conversation clock (benchmarks stamp ground truth on it). `perturbation` (a condition
    and its seed) perturbs the caller there, adds its behaviour, and goes into the record.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    sr = cfg.wire.sample_rate
    clock = clock or ConversationClock()
    control = CallControl()
    writer = EventWriter(out / "events.jsonl")
    vad_engine = cfg.agent.vad.engine
    rec = ConversationRecorder(clock, sr, writer, cfg.onset, vad_engine)
    caller = CallerSide(perturbation, rec, clock.now, sr, sim_services) if perturbation else None
    if caller is not None:
        cfg = caller.adjust_config(cfg)
        sim_audio_transform = caller.transform(sim_audio_transform)
    executor = ToolExecutor(
        call.domain, call.initial_db, call.scenario.current_date_time, call.agent, clock=clock.now
    )
    started_at = dt.datetime.now(dt.UTC).isoformat()
    wall0 = time.monotonic()

    def fail(reason: str, cause: str, source: str) -> None:
        if control.end(reason, status="infra_failure", error=cause, error_source=source, t=clock.now()):
            rec.emit(ErrorEvent(t=clock.now(), source=source, message=cause, fatal=True))

    # --- agent (server) -------------------------------------------------------
    port = free_port(cfg.wire.host)
    server = make_server(cfg.wire, port)
    agent = build_agent(
        agent_services,
        server,
        call.agent,
        executor,
        call.scenario.current_date_time,
        cfg.agent,
        control,
        clock,
        sr,
    )
    agent_worker = _worker(agent.pipeline, clock, rec.observer("agent"), sr, "agent")
    ready = asyncio.Event()
    connected = asyncio.Event()

    @server.event_handler("on_websocket_ready")
    async def _ready(_t: Any) -> None:
        ready.set()

    @server.event_handler("on_client_connected")
    async def _connected(_t: Any, _ws: Any) -> None:
        connected.set()
        rec.emit(ConnectionEvent(t=clock.now(), side="agent", state="connected"))
        if cfg.agent.greeting:
            from pipecat.frames.frames import TTSSpeakFrame

            await agent_worker.queue_frame(TTSSpeakFrame(cfg.agent.greeting))

    @server.event_handler("on_client_disconnected")
    async def _disconnected(_t: Any, _ws: Any) -> None:
        rec.emit(ConnectionEvent(t=clock.now(), side="agent", state="disconnected"))
        if not control.ending:
            fail("connection_lost", "the simulator's socket closed mid-call", "agent_transport")

    @agent_worker.event_handler("on_pipeline_error")
    async def _agent_error(_w: Any, frame: ErrorFrame) -> None:
        rec.emit(
            ErrorEvent(t=clock.now(), side="agent", source=str(frame.processor), message=str(frame.error))
        )
        proc = frame.processor
        if proc is not None and not getattr(proc, "is_usable", True):
            fail("agent_error", f"{proc}: {frame.error}", "agent")

    if cfg.agent.warm_up:
        await warm_up(agent_services.llm, agent.context)
    if cfg.simulator.kind == "llm":
        await _prepare_llm_caller(call, cfg, sim_services, caller)
    clock.reset()
    agent_runner = WorkerRunner(handle_sigint=False)
    await agent_runner.add_workers(agent_worker)
    agent_task = _Task(agent_runner.run(), "agent")

    sim_task: _Task | None = None
    sim_worker: PipelineWorker | None = None
    outputs: dict[Channel, Any] = {"agent": getattr(server, "_output", None)}  # for pacing health
    try:
        await asyncio.wait_for(ready.wait(), timeout=cfg.wire.connect_timeout_s)
    except TimeoutError:
        fail("agent_error", agent_task.failure() or "agent server never became ready", "agent")

    # --- simulator (client) ---------------------------------------------------
    if not control.ending:
        # only the cascade agent is known to speak (pre_tool_speech) before every tool call
        holds = isinstance(agent_services, AgentServices) and bool(cfg.agent.pre_tool_speech)
        sim_worker, sim_task = await _start_simulator(
            call,
            cfg,
            sim_services,
            port,
            clock,
            rec,
            control,
            fail,
            sim_audio_transform,
            caller,
            holds,
            outputs,
        )

    # --- watch ------------------------------------------------------------------
    lim = cfg.limits
    while not control.ending:
        await asyncio.sleep(0.05)
        now = clock.now()
        if f := agent_task.failure():
            fail("agent_error", f, "agent")
        elif agent_task.task.done():
            fail("agent_error", "the agent pipeline stopped", "agent")
        elif sim_task is not None and (f := sim_task.failure()):
            fail("simulator_error", f, "simulator")
        elif sim_task is not None and sim_task.task.done():
            fail("simulator_error", "the simulator pipeline stopped", "simulator")
        elif not connected.is_set() and now > cfg.wire.connect_timeout_s + 2:
            fail("connection_lost", "the simulator never connected", "simulator_transport")
        elif now >= lim.time_limit_s:
            control.end("time_limit", t=now)
        elif now - max(rec.last_speech_t, 0.0) >= lim.inactivity_s:
            control.end("inactivity_timeout", t=now)

    req = control.request
    assert req is not None
    logger.info(f"call ending: {req.reason} ({req.status}) at t={clock.now():.2f}s")

    # --- drain: let the last words play out ------------------------------------
    if req.status == "completed":
        deadline = time.monotonic() + lim.drain_s
        quiet_since = time.monotonic()
        while time.monotonic() < deadline:
            await asyncio.sleep(0.05)
            if rec.speaking("user") or rec.speaking("agent"):
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since > 0.6:
                break

    # --- shut down -------------------------------------------------------------
    t_end = clock.now()
    rec.freeze()  # what the pipelines do while being torn down is not part of the call
    await _stop(sim_worker, sim_task, lim.shutdown_timeout_s)
    await _stop(agent_worker, agent_task, lim.shutdown_timeout_s)
    await asyncio.sleep(0.2)  # let observer queues flush

    for ev in pacing_events(rec, outputs, t_end):
        rec.emit(ev)
    rec.emit(EndEvent(t=t_end, reason=req.reason))
    events = rec.finalize()
    writer.close()
    record = ConversationRecord(
        conversation_id=conversation_id or f"{call.domain}-{call.scenario.id}-t{trial}",
        domain=call.domain,
        scenario_id=call.scenario.id,
        trial=trial,
        condition=caller.condition.name if caller is not None else "clean",
        perturbation=caller.record() if caller is not None else {},
        lang=call.lang,
        status=req.status,
        end_reason=req.reason,
        error=req.error,
        error_source=req.error_source,
        started_at=started_at,
        ended_at=dt.datetime.now(dt.UTC).isoformat(),
        duration_s=round(t_end, 3),
        agent=agent_services.info,
        simulator=sim_services.info.model_copy(update={"kind": cfg.simulator.kind}),
        versions=_versions(),
        initial_db_hash=db_hash(executor.initial_db),
        final_db_hash=db_hash(executor.db),
        num_tool_calls=sum(1 for a in executor.audit_log if a["type"] == "tool_call"),
        extra={
            "wire": cfg.wire.model_dump(mode="json"),
            "wall_s": round(time.monotonic() - wall0, 3),
            "audit_log": executor.audit_log,
            "usage": usage_summary(events, t_end, agent_services.info),
        },
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
        await _post_call_stt(out, record)
    return record


async def _post_call_stt(out: Path, record: ConversationRecord) -> None:
    """Transcribe the agent channel after the call (in a thread: other calls may share the loop).

    A failure here leaves the written record as it was (its fidelity metrics then say
    unscored); it never turns a finished call into an infrastructure failure.
    """
    from voxbench.pipelines.post_call_stt import transcribe_agent_record

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
    from voxbench.pipelines.llm_simulator import prepare_llm_caller, warm_up_llm_caller

    extra = [caller.persona_text()] if caller is not None else []
    prepare_llm_caller(call, services, cfg, extra)
    if cfg.simulator.llm.warm_up:
        await warm_up_llm_caller(services)


async def _start_simulator(
    call: CallScenario,
    cfg: CallConfig,
    services: SimulatorServices,
    port: int,
    clock: ConversationClock,
    rec: ConversationRecorder,
    control: CallControl,
    fail: Any,
    transform: AudioTransform | None = None,
    caller: CallerSide | None = None,
    tool_holds: bool = False,
    outputs: dict[Channel, Any] | None = None,
) -> tuple[PipelineWorker, _Task]:
    from voxbench.pipelines.trace_simulator import build_trace_simulator, reference_user_turns

    sr = cfg.wire.sample_rate
    interruptions: list[float] = []
    serializer = simulator_serializer(cfg.wire, on_interruption=lambda: interruptions.append(clock.now()))
    client = make_client(cfg.wire, port, serializer, transform)
    if cfg.simulator.kind == "llm":
        from voxbench.pipelines.llm_simulator import build_llm_simulator

        pipeline = build_llm_simulator(call, services, client, cfg, control, clock, sr)
    else:
        turns = reference_user_turns(call.scenario, call.resolver, tool_holds)[
            : cfg.simulator.trace.max_lines
        ]
        lines = [t.text for t in turns]
        if caller is not None:
            lines = caller.lines(lines)  # a behaviour that adds or drops lines drops the turn counts

        def done() -> None:
            control.end("trace_finished", t=clock.now())

        pipeline, _ = build_trace_simulator(
            services,
            client,
            lines,
            cfg.simulator,
            done,
            sr,
            gap_fill=cfg.wire.gap_fill,
            agent_turns=[t.agent_turns for t in turns],
            # end a hold wait while the caller's voice can still beat the inactivity limit
            max_wait_s=max(cfg.simulator.trace.turn_gap_s, cfg.limits.inactivity_s - 2.0),
        )
    worker = _worker(pipeline, clock, rec.observer("user"), sr, "simulator")
    if outputs is not None:
        outputs["user"] = client.output()

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
        if not control.ending:
            fail("connection_lost", "the agent's socket closed mid-call", "simulator_transport")

    @worker.event_handler("on_pipeline_error")
    async def _sim_error(_w: Any, frame: ErrorFrame) -> None:
        rec.emit(
            ErrorEvent(t=clock.now(), side="user", source=str(frame.processor), message=str(frame.error))
        )
        proc = frame.processor
        if proc is not None and not getattr(proc, "is_usable", True):
            fail(
                "connection_lost" if "Transport" in str(proc) else "simulator_error",
                f"{proc}: {frame.error}",
                "simulator",
            )

    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    return worker, _Task(runner.run(), "simulator")


async def _stop(worker: PipelineWorker | None, task: _Task | None, timeout: float) -> None:
    """EndFrame, then CancelFrame, then cancel the task: each step bounded by `timeout`.

    Uses `asyncio.wait`, never `wait_for` on the task: `wait_for` waits for a cancelled
    task to *finish* cancelling, and a pipeline stuck in a blocking model call (a thread
    that can't be interrupted) would hang the runner forever.
    """
    if worker is None or task is None or task.task.done():
        return
    with contextlib.suppress(Exception):
        await asyncio.wait_for(worker.queue_frame(EndFrame()), timeout=timeout)
    await asyncio.wait({task.task}, timeout=timeout)
    if task.task.done():
        return
    logger.warning(f"{task.name}: did not end within {timeout}s; cancelling")
    cancel = asyncio.ensure_future(worker.cancel(reason="shutdown timeout"))
    await asyncio.wait({cancel, task.task}, timeout=timeout, return_when=asyncio.ALL_COMPLETED)
    if not task.task.done():
        task.task.cancel()
        await asyncio.wait({task.task}, timeout=timeout)
    if not task.task.done():
        logger.error(f"{task.name}: still running after cancel; abandoning it")


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for pkg in ("voxbench", "pipecat-ai", "faster-whisper", "piper-tts", "xllamacpp"):
        with contextlib.suppress(PackageNotFoundError):
            out[pkg] = version(pkg)
    return out
