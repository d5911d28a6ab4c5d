"""Adapter from a ``ConversationJob`` to the live pipelines runner (``voxbench.pipelines``).

Imported only inside the worker process, and it imports pipecat only when called, so
the orchestrator, its tests and the scripted function never load the live stack. The job
carries a resolved :class:`~voxbench.pipelines.call.spec.CallSpec`: the agent profile (its
overrides already applied), the caller, the condition, the call config and the seeds.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from voxbench.orchestrator.jobs import ConversationJob
from voxbench.records import ConversationRecord, atomic_write_json


def call_inputs(job: ConversationJob) -> tuple[Any, Any]:
    """The runner's (CallScenario, CallConfig) for `job`."""
    from voxbench.pipelines.scenario_input import CallScenario
    from voxbench.scenarios import load_dataset

    dd = load_dataset(job.dataset, [job.domain]).domains[job.domain]
    return CallScenario.from_domain(dd, job.scenario_id, job.lang), job.spec.call


def job_perturbation(job: ConversationJob, **kw: Any) -> Any:
    """The job's condition with its seed as the runner's ``CallPerturbation``; None when clean.

    The seed derives from (scenario, trial, condition) like every perturbation seed, mixed
    with the attempt seed for regenerations so a rerun does not replay the same noise
    (:func:`voxbench.records.seeds.perturbation_seed`)."""
    from voxbench.pipelines.caller_side import CallPerturbation

    seed = job.spec.seeds.perturbation
    if job.perturbation.is_clean or seed is None:
        return None
    return CallPerturbation(job.perturbation, seed, **kw)


def run_live(job: ConversationJob, agent_services: Any, sim_services: Any, **pert_kw: Any) -> Path:
    """Run the call with the given services, then stamp the orchestrator's fields on the record."""
    from voxbench.pipelines.runner import run_call

    call, cfg = call_inputs(job)
    out = Path(job.output_dir)
    pert = job_perturbation(job, **pert_kw)
    asyncio.run(
        run_call(
            call, cfg, agent_services, sim_services, out, job.conversation_id, job.trial, perturbation=pert
        )
    )
    path = out / "record.json"
    rec = ConversationRecord.model_validate(json.loads(path.read_text(encoding="utf-8")))
    stamped = rec.model_copy(
        update={
            "condition": job.condition,
            "attempt": job.attempt,
            "seeds": {**rec.seeds, **job.spec.seeds.record()},
        }
    )
    atomic_write_json(path, stamped)
    return out


def live_conversation(job: ConversationJob) -> Path:
    """One live bot-to-bot call of the job's agent profile (the offline default or any other)."""
    from voxbench.pipelines.agent_builder import build_agent_services
    from voxbench.pipelines.agent_select import local_llm_config
    from voxbench.pipelines.local_stack import local_simulator, start_llm_server, start_simulator_llm_server
    from voxbench.pipelines.profiles import preflight

    profile = job.spec.profile
    preflight(profile)
    llm_cfg = local_llm_config(profile)
    server = start_llm_server(llm_cfg) if llm_cfg is not None else None
    # the LLM caller has its own model and server (one llama.cpp server per model)
    sim = job.simulator
    sim_server = start_simulator_llm_server(sim.llm) if sim.kind == "llm" else None
    try:
        agent = build_agent_services(profile, server=server, check=False)
        callers = local_simulator(
            sim.live_kind,
            sim_server,
            sim.llm,
            job.perturbation.voice_id,
            reply_format=job.spec.call.simulator.llm.reply_format,
        )
        return run_live(job, agent, callers)
    finally:
        for srv in (server, sim_server):
            if srv is not None:
                srv.stop()
