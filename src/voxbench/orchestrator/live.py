"""Adapter from a ``ConversationJob`` to the live call (``voxbench.pipelines``).

Imported only inside the worker process, and it imports pipecat only when called, so
the orchestrator, its tests and the scripted function never load the live stack. The job
carries a resolved :class:`~voxbench.pipelines.call.spec.CallSpec`;
:class:`~voxbench.pipelines.call.session.CallSession` runs it and writes the record once.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from voxbench.orchestrator.jobs import ConversationJob


def run_live(
    job: ConversationJob,
    agent_services: Any = None,
    sim_services: Any = None,
    *,
    virtual_clock: bool = False,
    **pert_kw: Any,
) -> Path:
    """Run the job's call (with these services when given, else the spec's own) into its
    output directory; ``pert_kw`` reaches the perturbation (``clip_synth``, ``babble_provider``).

    ``virtual_clock``: run the call on a ``VirtualClockLoop`` (model-free services only, e.g.
    a test's fakes: the call then takes CPU time, not its length in real time)."""
    from voxbench.orchestrator.live_faults import apply_live_faults, has_live_faults
    from voxbench.pipelines.call.session import CallSession
    from voxbench.transports.virtual_loop import run_virtual

    session = CallSession(job.spec, Path(job.output_dir), perturbation_kw=pert_kw)
    call = None
    if agent_services is None and sim_services is None and has_live_faults(job):
        call = session.scenario()
        agent_services, sim_services = apply_live_faults(job, *session.build_services(call))
    if virtual_clock:
        run_virtual(session.run(agent_services, sim_services, call=call))
    else:
        # Plain asyncio loop, not the LogicalClockLoop: with the local models (make run,
        # 2026-12-04) every call on it hung right after the caller's pipeline started. 5b78716
        # fixed the cause (a rebase left the running batch on the old timeline); switch back
        # once a real-model call is shown to complete on it.
        asyncio.run(session.run(agent_services, sim_services, call=call))
    return Path(job.output_dir)


def live_conversation(job: ConversationJob) -> Path:
    """One live bot-to-bot call of the job's agent profile (the offline default or any other)."""
    return run_live(job)


def virtual_live_conversation(job: ConversationJob) -> Path:
    """The job's call on the virtual clock: model-free services only (the reference agent and
    a tone-voiced caller), so a call costs its CPU time, not its length (tests, fault matrix)."""
    return run_live(job, virtual_clock=True)
