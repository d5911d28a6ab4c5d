"""Adapter from a ``ConversationJob`` to the live pipelines runner (``voxbench.pipelines``).

Imported only inside the worker process, and it imports pipecat only when called, so
the orchestrator, its tests and the scripted function never load the live stack.

Job fields used: ``agent`` = ``{profile, llm: LLMConfig, stt: STTConfig, call: CallConfig
overrides}``; ``simulator`` = ``{kind: trace | llm, llm: LLMConfig overrides of the caller's
model (default Qwen2.5-Coder-1.5B on its own server), reply_format: json | tools}``;
``time_limit_s`` and ``lang``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from voxbench.orchestrator.config import deep_merge
from voxbench.orchestrator.jobs import ConversationJob
from voxbench.records import ConversationRecord, atomic_write_json


def call_inputs(job: ConversationJob) -> tuple[Any, Any]:
    """The runner's (CallScenario, CallConfig) for `job`."""
    from voxbench.pipelines.config import CallConfig
    from voxbench.pipelines.scenario_input import CallScenario
    from voxbench.scenarios import load_dataset

    dd = load_dataset(job.dataset, [job.domain]).domains[job.domain]
    call = CallScenario.from_domain(dd, job.scenario_id, job.lang)
    sim_kind = job.simulator.get("kind", "trace")
    sim: dict[str, Any] = {"kind": "trace" if sim_kind == "scripted" else sim_kind}
    if job.simulator.get("reply_format"):
        sim["llm"] = {"reply_format": job.simulator["reply_format"]}
    overrides = {
        "lang": job.lang,
        "simulator": sim,
        "limits": {"time_limit_s": job.time_limit_s},
    }
    cfg = CallConfig.model_validate(deep_merge(job.agent.get("call") or {}, overrides))
    return call, cfg


def job_perturbation(job: ConversationJob, **kw: Any) -> Any:
    """The job's condition (built-in by name, or defined in the run config) with its seed,
    as the runner's ``CallPerturbation``; None for a clean condition.

    The seed derives from (scenario, trial, condition) like every perturbation seed, mixed
    with the attempt seed for regenerations so a rerun does not replay the same noise."""
    from voxbench.pipelines.caller_side import CallPerturbation, condition_from_job

    cond = condition_from_job(job.condition, job.perturbation)
    if cond.is_clean:
        return None
    seed = cond.seed(job.scenario_id, job.trial)
    if job.attempt:
        seed = (seed ^ job.seed) & ((1 << 63) - 1)
    return CallPerturbation(cond, seed, **kw)


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
            "perturbation": rec.perturbation or job.perturbation,
            "seeds": {
                **rec.seeds,
                "conversation": job.base_seed,
                "attempt": job.seed,
                **({"perturbation": int(rec.perturbation["seed"])} if "seed" in rec.perturbation else {}),
            },
        }
    )
    atomic_write_json(path, stamped)
    return out


def live_conversation(job: ConversationJob) -> Path:
    """One live bot-to-bot call: the offline default stack, or any named agent profile."""
    from voxbench.pipelines.agent_select import (
        agent_services,
        canonical_name,
        local_llm_config,
        resolve_agent,
    )
    from voxbench.pipelines.local_stack import (
        SIMULATOR_LLM,
        local_agent,
        local_simulator,
        start_llm_server,
        start_simulator_llm_server,
    )
    from voxbench.pipelines.services import LOCAL_AGENT_LLM, LLMConfig, STTConfig

    name = canonical_name(job.agent.get("profile"))
    profile = resolve_agent(name, job.agent.get("profile_files"))
    sim_kind = job.simulator.get("kind", "trace")
    if name == "cascade-local":
        # the offline default honours per-run overrides of its LLM and STT
        llm_cfg: LLMConfig | None = LLMConfig.model_validate(
            {**LOCAL_AGENT_LLM.model_dump(exclude_unset=True), **(job.agent.get("llm") or {})}
        )
        stt_cfg = STTConfig.model_validate(job.agent.get("stt") or {})
    else:
        llm_cfg = local_llm_config(profile)
    server = start_llm_server(llm_cfg) if llm_cfg is not None and llm_cfg.kind == "local" else None
    # the LLM caller has its own model and server (one llama.cpp server per model)
    sim_llm = LLMConfig.model_validate(
        {**SIMULATOR_LLM.model_dump(exclude_unset=True), **(job.simulator.get("llm") or {})}
    )
    sim_server = start_simulator_llm_server(sim_llm) if sim_kind == "llm" else None
    try:
        agent = (
            local_agent(server, llm_cfg, stt_cfg)
            if name == "cascade-local"
            else agent_services(profile, server)
        )
        pert = job_perturbation(job)
        voice = pert.condition.voice_id if pert is not None else None
        sim = local_simulator(
            "trace" if sim_kind == "scripted" else sim_kind,
            sim_server,
            sim_llm,
            voice,
            reply_format=str(job.simulator.get("reply_format") or "json"),
        )
        return run_live(job, agent, sim)
    finally:
        for srv in (server, sim_server):
            if srv is not None:
                srv.stop()
