"""A scripted conversation function: writes a valid record without pipecat.

It lets the orchestrator (attempts, validation-gated reruns, resume, backends) be built
and tested before the live loop exists, and benchmarks measure orchestration overhead
alone. It is deterministic in the job's seed. The job's agent (a
:class:`~voxbench.pipelines.call.spec.ScriptedAgent`) and simulator can inject faults,
matched on domain, scenario id, trial, condition and attempt::

    agent:     {profile: scripted, faults: [{scenario_id: bb.1, trial: 1, attempt: 0, fault: crash}]}
    simulator: {faults: [{scenario_id: bb.2, attempt: 0, fault: invalid}]}

Faults: ``crash`` (process dies by SIGKILL), ``exception`` (raises), ``hang`` (never
returns), ``socket_drop`` (record with status infra_failure), ``invalid`` (a finished call
whose end reason fails validation); the agent's tool faults of ``live_faults.TOOL_FAULTS``
(its one tool call, the domain's first tool, made malformed and answered by the scenario's
real ``ToolExecutor``); ``disk_full`` (writing the record fails with ENOSPC, as on a full
disk: the write hook :func:`full_disk_write` stands in for a small full filesystem). Other knobs: ``duration_s`` (sleep or paced audio
loop length), ``paced`` (emit 20 ms chunks on a clock and record pacing health),
``cpu_ms_per_chunk`` (work per chunk, to load the CPU like a VAD would), ``count_file``
(append one line per attempt, so tests can prove nothing is redone).
"""

from __future__ import annotations

import errno
import os
import random
import signal
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from voxbench.orchestrator.jobs import ConversationJob
from voxbench.orchestrator.live_faults import TOOL_FAULTS, matching_fault, tool_fault_result
from voxbench.pipelines.call.spec import Fault, ScriptedAgent
from voxbench.records import (
    AgentInfo,
    ConversationRecord,
    EndEvent,
    Event,
    PacingEvent,
    SimulatorInfo,
    ToolCall,
    ToolResult,
    Utterance,
    write_record,
)
from voxbench.scenarios import ToolExecutor, db_hash, load_dataset

CHUNK_S = 0.02
LATE_MS = 10.0  # a chunk later than this missed its slot in a 20 ms real-time stream


def _matching_fault(faults: tuple[Fault, ...], job: ConversationJob) -> str | None:
    return matching_fault(faults, job)


def full_disk_write(path: Path) -> None:
    """The write hook of ``disk_full``: what writing into a full filesystem raises."""
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))


def _paced_loop(duration_s: float, cpu_ms: float) -> PacingEvent:
    """Emit 20 ms chunks on a monotonic schedule, as a transport would, and measure lateness."""
    n = max(1, int(duration_s / CHUNK_S))
    start = time.monotonic()
    late = underruns = 0
    worst = 0.0
    for i in range(n):
        due = start + i * CHUNK_S
        now = time.monotonic()
        if now < due:
            time.sleep(due - now)
        lateness_ms = (time.monotonic() - due) * 1000.0
        worst = max(worst, lateness_ms)
        if lateness_ms > LATE_MS:
            late += 1
        if lateness_ms > CHUNK_S * 1000.0:
            underruns += 1  # the receiver's buffer ran dry for at least one chunk
        if cpu_ms > 0:
            spin_until = time.perf_counter() + cpu_ms / 1000.0
            while time.perf_counter() < spin_until:
                pass
    return PacingEvent(
        t=time.monotonic() - start, underruns=underruns, late_chunks=late, max_lateness_ms=worst
    )


def _count(path: str, job: ConversationJob) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, f"{job.conversation_id} {job.attempt} {os.getpid()}\n".encode())
    finally:
        os.close(fd)


def _perturbation(job: ConversationJob) -> dict[str, object]:
    """The live record's shape (condition dump and seed), without achieved values: no audio here."""
    if job.perturbation.is_clean:
        return {}
    return {"condition": job.perturbation.model_dump(mode="json"), "seed": job.spec.seeds.perturbation}


def _misbehave(agent_fault: str | None, sim_fault: str | None) -> None:
    """The faults that end the attempt before any record: dying, raising, hanging."""
    if agent_fault == "crash":
        os.kill(os.getpid(), signal.SIGKILL)
    if agent_fault == "exception":
        raise RuntimeError("scripted agent raised (injected fault)")
    if agent_fault == "hang" or sim_fault == "hang":
        while True:
            time.sleep(3600)


def _tool_events(
    agent_fault: str | None, job: ConversationJob, dom: Any, initial: dict[str, Any], now: str, t: float
) -> list[Event]:
    """The call's one tool call and its result: a stand-in lookup, or, under a tool fault, the
    domain's first tool made malformed and answered by the scenario's real executor."""
    tool, result = "scripted_lookup", {"status": "success"}
    args: dict[str, object] = {}
    if agent_fault in TOOL_FAULTS:
        tool = dom.agent.tool_names()[0]
        result = tool_fault_result(agent_fault, tool, {}, ToolExecutor(job.domain, initial, now, dom.agent))
    ok = result.get("status") == "success"
    return [
        ToolCall(t=t + 2.0, side="agent", call_id="c1", name=tool, arguments=args),
        ToolResult(
            t=t + 2.1, side="agent", call_id="c1", name=tool,
            status="success" if ok else "error", result={} if ok else result,
        ),
    ]  # fmt: skip


def scripted_conversation(job: ConversationJob) -> Path:
    """Write a small, valid record for `job` (or misbehave as its fault config says)."""
    agent = job.agent
    if not isinstance(agent, ScriptedAgent):
        raise TypeError(f"the scripted conversation fn needs the scripted agent, not {type(agent).__name__}")
    agent_fault = _matching_fault(agent.faults, job)
    sim_fault = _matching_fault(job.simulator.faults, job)
    if agent.count_file:
        _count(agent.count_file, job)
    _misbehave(agent_fault, sim_fault)

    started = datetime.now(UTC)
    rng = random.Random(job.seed)
    duration = agent.duration_s
    events: list[Event] = []
    if agent.paced:
        events.append(_paced_loop(duration, agent.cpu_ms_per_chunk))
    elif duration > 0:
        time.sleep(duration)

    ds = load_dataset(job.dataset, [job.domain])
    dom = ds.domains[job.domain]
    scenario = dom.scenarios[job.scenario_id]
    initial = dom.initial_db(job.scenario_id, job.lang)
    final = dom.expected_db(job.scenario_id, job.lang)
    t = 0.5 + rng.random()
    events.append(Utterance(t=t, side="user", channel="user", text=scenario.starting_utterance(job.lang)))
    events.append(Utterance(t=t + 1.2, side="agent", channel="agent", text="Sure, let me look into that."))
    events += _tool_events(agent_fault, job, dom, initial, scenario.current_date_time, t)
    end_reason = "inactivity_timeout" if sim_fault == "invalid" else "end_call"
    status = "completed"
    error = error_source = None
    if sim_fault == "socket_drop":
        status, end_reason = "infra_failure", "connection_lost"
        error, error_source = "websocket closed mid-call (injected fault)", "transport"
    events.append(EndEvent(t=t + 4.0, reason=end_reason))

    record = ConversationRecord(
        conversation_id=job.conversation_id,
        domain=job.domain,
        scenario_id=job.scenario_id,
        trial=job.trial,
        condition=job.condition,
        attempt=job.attempt,
        lang=job.lang,
        status=status,
        end_reason=end_reason,
        error=error,
        error_source=error_source,
        started_at=started.isoformat(),
        ended_at=datetime.now(UTC).isoformat(),
        duration_s=t + 4.0,
        agent=AgentInfo(name="scripted", architecture="scripted"),
        simulator=SimulatorInfo(kind="scripted"),  # no caller runs: the scripted conversation stands in
        perturbation=_perturbation(job),
        seeds=job.spec.seeds.record(),
        initial_db_hash=db_hash(initial),
        final_db_hash=db_hash(final),
        num_tool_calls=1,
        extra={"scripted": True},
    )
    if agent_fault == "disk_full":
        full_disk_write(Path(job.output_dir) / "record.json")
    return write_record(
        job.output_dir,
        record,
        events=events,
        scenario=scenario.model_dump(mode="json"),
        agent=dom.agent.model_dump(mode="json"),
        initial_db=initial,
        final_db=final,
    )
