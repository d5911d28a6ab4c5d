"""Run one live call: the agent under test and a caller endpoint, fully recorded.

The runner owns the lifecycle, the same for every caller (a simulated caller over the
loopback WebSocket, ``call/simulated.py``; a person, ``human/person.py``): build the agent
on the endpoint's transport, warm it, zero the clock, start it, let the endpoint connect,
watch for an end (end_call, transfer, trace finished, inactivity, time limit, a dropped
socket, a crashed pipeline), let the last words play out, shut both down with a timeout,
and write the record once. Infrastructure failures produce a record with status
"infra_failure" and the cause; they never hang.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loguru import logger
from pipecat.frames.frames import ErrorFrame
from pipecat.pipeline.worker import PipelineWorker
from pipecat.workers.runner import WorkerRunner

from voxbench.pipelines.agent.builder import AgentBundle, build_agent
from voxbench.pipelines.agent.cascade import AgentInputs
from voxbench.pipelines.agent.pricing import usage_summary
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.call.endpoint import CallerEndpoint, LiveCall
from voxbench.pipelines.call.lifecycle import PipelineTask, make_worker, stop_worker, versions
from voxbench.pipelines.call.pacing_health import pacing_events
from voxbench.pipelines.call.record_files import write_conversation
from voxbench.pipelines.call.simulated import SimulatedCaller
from voxbench.pipelines.call.spec import CallIdentity
from voxbench.pipelines.call.watch import Drain, SideState
from voxbench.pipelines.caller.side import CallerSide, CallPerturbation
from voxbench.pipelines.config import CallConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.warmup import first_warm_limit, warm_up
from voxbench.processors.clock import ConversationClock
from voxbench.processors.control import CallControl, EndRequest
from voxbench.processors.recorder import ConversationRecorder
from voxbench.records import ConversationRecord, EndEvent, EventWriter
from voxbench.records.stage import CALL_STAGE, note_stage
from voxbench.scenarios import ToolExecutor, db_hash

AgentSide = AgentServices | AgentBundle


async def run_call(
    call: CallScenario,
    cfg: CallConfig,
    agent_services: AgentSide,
    sim_services: SimulatorServices,
    out_dir: str | Path,
    identity: CallIdentity | None = None,
    clock: ConversationClock | None = None,
    perturbation: CallPerturbation | None = None,
) -> ConversationRecord:
    """Run one bot-to-bot conversation and write its record directory; returns the record.

    ``identity`` (coordinates and seeds) goes into the record as is; without it the record is
    trial 0 of ``<domain>-<scenario>-t0``. ``clock`` lets a harness share the conversation
    clock (benchmarks stamp ground truth on it). ``perturbation`` (a condition and its seed)
    perturbs every chunk the caller sends at send time, adds its behaviour, and goes into the
    record.
    """
    seed = identity.seeds.attempt if identity is not None and identity.seeds is not None else 0
    # only the cascade agent is known to speak (pre_tool_speech) before every tool call
    holds = isinstance(agent_services, AgentServices) and bool(cfg.agent.pre_tool_speech)
    caller = SimulatedCaller(sim_services, perturbation, seed, holds)
    return await run_live_call(call, cfg, agent_services, caller, out_dir, identity, clock)


async def run_live_call(
    call: CallScenario,
    cfg: CallConfig,
    agent_services: AgentSide,
    caller: CallerEndpoint,
    out_dir: str | Path,
    identity: CallIdentity | None = None,
    clock: ConversationClock | None = None,
) -> ConversationRecord:
    """Run one conversation between the agent and ``caller``; record.json is written once."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    clock = clock or ConversationClock()
    rec = ConversationRecorder(clock, cfg.wire.sample_rate, None, cfg.onset, cfg.agent.vad.engine)
    executor = ToolExecutor(
        call.domain, call.initial_db, call.scenario.current_date_time, call.agent, clock=clock.now
    )
    live = LiveCall(call, cfg, clock, CallControl(), rec, executor, out)
    live.cfg = caller.attach(live)
    agent = await _start_agent(live, agent_services, caller)
    await caller.after_agent_start(live, agent.task)
    req = await _watch(live, caller, agent.task)
    note_stage(out, "ending the call and writing the record")
    t_end, events = await _drain_and_stop(live, req, agent, caller)
    agent.writer.close()
    record = _record(live, identity, caller, req, agent_services)
    record.started_at = agent.started_at
    record.duration_s = round(t_end, 3)
    record.extra.update(
        wall_s=round(time.monotonic() - agent.wall0, 3),
        usage=usage_summary(events, t_end, agent_services.info),
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
    if live.cfg.post_call_transcribe_agent:
        note_stage(out, "transcribing the agent's audio after the call (post-call STT)")
        await _post_call_stt(out, record)
    return record


def _record(
    live: LiveCall,
    identity: CallIdentity | None,
    caller: CallerEndpoint,
    req: EndRequest,
    agent_services: AgentSide,
) -> ConversationRecord:
    """The record of a finished call (the driver adds times and usage)."""
    cfg, executor = live.cfg, live.executor
    return ConversationRecord(
        **_identity_fields(live.call, identity, caller.caller_side),
        lang=live.call.lang,
        status=req.status,
        end_reason=req.reason,
        error=req.error,
        error_source=req.error_source,
        ended_at=dt.datetime.now(dt.UTC).isoformat(),
        agent=agent_services.info,
        simulator=caller.info(cfg),
        versions=versions(),
        initial_db_hash=db_hash(executor.initial_db),
        final_db_hash=db_hash(executor.db),
        num_tool_calls=sum(1 for a in executor.audit_log if a["type"] == "tool_call"),
        extra={**caller.extra(cfg), **_llm_stats(agent_services), "audit_log": executor.audit_log},
    )


def _llm_stats(agent_services: AgentSide) -> dict[str, Any]:
    """The agent LLM service's counters (``agent_llm``: context trims, tool calls read from
    text or refused), when it keeps any."""
    stats = getattr(agent_services.llm, "stats", None)
    return {"agent_llm": stats()} if callable(stats) else {}


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
    writer: EventWriter
    started_at: str  # the host's time when the conversation clock started
    wall0: float


async def _start_agent(live: LiveCall, services: AgentSide, caller: CallerEndpoint) -> _Agent:
    """Build the agent on the caller's transport, warm the models (then the caller's own),
    zero the clock and start the agent; events.jsonl opens with the clock."""
    cfg, clock, rec, sr = live.cfg, live.clock, live.rec, live.cfg.wire.sample_rate
    transport = caller.agent_transport(live)
    inputs = AgentInputs(
        live.call.agent,
        live.executor,
        live.call.scenario.current_date_time,
        cfg.agent,
        live.control,
        clock,
        sr,
    )
    agent = build_agent(services, transport, inputs)
    observers = [rec.observer("agent"), *caller.agent_observers(live)]
    worker = make_worker(agent.pipeline, clock, observers, sr, "agent")
    live.agent_worker = worker

    @worker.event_handler("on_pipeline_error")
    async def _agent_error(_w: Any, frame: ErrorFrame) -> None:
        live.pipeline_error("agent", frame, "agent_error", "agent")

    if cfg.agent.warm_up:
        cache = services.prompt_cache if isinstance(services, AgentServices) else None
        note_stage(live.out, "warming the agent's LLM on its policy and tools")
        await warm_up(
            services.llm, agent.context, cache, first_warm_s=first_warm_limit(cfg.limits.time_limit_s)
        )
    await caller.before_clock(live)
    note_stage(live.out, CALL_STAGE)
    clock.reset()
    started_at, wall0 = dt.datetime.now(dt.UTC).isoformat(), time.monotonic()
    assert live.out is not None
    writer = rec.writer = EventWriter(live.out / "events.jsonl")
    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    return _Agent(worker, PipelineTask(runner.run(), "agent"), writer, started_at, wall0)


async def _watch(live: LiveCall, caller: CallerEndpoint, agent: PipelineTask) -> EndRequest:
    """Tick every 50 ms until something ends the call (:class:`CallWatch` decides why)."""
    watch = caller.watch(live.cfg)
    while not live.control.ending:
        await asyncio.sleep(0.05)
        agent_side = SideState(agent.failure(), agent.task.done())
        ending = watch.check(
            live.clock.now(), agent_side, caller.side(), live.connected.is_set(), live.rec.last_speech_t
        )
        if ending is not None:
            live.end(ending)
    req = live.control.request
    assert req is not None
    logger.info(f"call ending: {req.reason} ({req.status}) at t={live.clock.now():.2f}s")
    return req


async def _drain_and_stop(
    live: LiveCall, req: EndRequest, agent: _Agent, caller: CallerEndpoint
) -> tuple[float, list[Any]]:
    """Let the last words play out (when the caller says so), stop both pipelines, and return
    the end time and the recorded events."""
    clock, rec, lim = live.clock, live.rec, live.cfg.limits
    if caller.drains(req):
        drain = Drain(clock.now(), lim.drain_s)
        while True:
            await asyncio.sleep(0.05)
            if drain.done(clock.now(), rec.speaking("user") or rec.speaking("agent")):
                break
    t_end = clock.now()
    rec.freeze()  # what the pipelines do while being torn down is not part of the call
    live.executor.close()  # nor are its tool calls: the database is scored as the call left it
    await caller.stop(lim.shutdown_timeout_s)
    # The caller has hung up: the agent is cancelled, not ended. An EndFrame let it answer the
    # goodbye and speak that out in real time into a closed line (5-7 s a call in make run).
    await stop_worker(agent.worker, agent.task, lim.shutdown_timeout_s, graceful=False)
    await asyncio.sleep(0.2)  # let observer queues flush
    for ev in pacing_events(rec, caller.outputs(), t_end):
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
