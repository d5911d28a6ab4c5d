"""Expanding a run config into conversations, and the job one attempt receives.

A *conversation* is one (domain, scenario, trial, condition); an *attempt* is one try at
it. Every seed comes from :mod:`voxbench.records.seeds` (SHA-256 of the coordinates, never
Python's salted ``hash``), so a conversation gets the same seed on every machine, in every
process and after a resume. The job carries the attempt's typed :class:`CallSpec`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from voxbench.orchestrator.config import RunConfig
from voxbench.pipelines.call.spec import (
    AgentSpec,
    CallSeeds,
    CallSpec,
    ConversationRef,
    SimulatorSpec,
    live_call_config,
)
from voxbench.processors.perturbations import Condition
from voxbench.records.seeds import attempt_seed, conversation_seed, derive_seed
from voxbench.scenarios.loader import BUILTIN_DEFAULT_DOMAINS, Dataset

__all__ = ["ConversationJob", "ConversationSpec", "conversation_id", "derive_seed", "expand", "make_job"]


def conversation_id(domain: str, scenario_id: str, trial: int, condition: str) -> str:
    """Folder-safe id; ``__`` separates parts because scenario ids contain dots and underscores."""
    safe = scenario_id.replace("/", "-")
    return f"{domain}__{safe}__t{trial}__{condition}"


class ConversationSpec(BaseModel):
    """One planned conversation; attempts at it differ only in attempt index and seed."""

    model_config = ConfigDict(frozen=True)

    conversation_id: str
    domain: str
    scenario_id: str
    trial: int
    condition: str
    base_seed: int

    def attempt_seed(self, attempt: int) -> int:
        """Attempt 0 uses the base seed; regenerations must differ or they'd repeat the failure."""
        return attempt_seed(self.base_seed, attempt)


class ConversationJob(BaseModel):
    """Everything one attempt needs, serialisable to ``job.json`` for a worker process."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    output_dir: str = Field(description="the record directory this attempt must write")
    port: int = 0
    conversation_fn: str = "scripted"
    spec: CallSpec

    # the coordinates, read where a conversation fn needs them
    @property
    def conversation_id(self) -> str:
        return self.spec.conversation.conversation_id

    @property
    def domain(self) -> str:
        return self.spec.conversation.domain

    @property
    def scenario_id(self) -> str:
        return self.spec.conversation.scenario_id

    @property
    def trial(self) -> int:
        return self.spec.conversation.trial

    @property
    def condition(self) -> str:
        return self.spec.conversation.condition

    @property
    def attempt(self) -> int:
        return self.spec.conversation.attempt

    @property
    def dataset(self) -> str | None:
        return self.spec.conversation.dataset

    @property
    def lang(self) -> str:
        return self.spec.conversation.lang

    @property
    def seed(self) -> int:
        return self.spec.seeds.attempt

    @property
    def base_seed(self) -> int:
        return self.spec.seeds.conversation

    @property
    def time_limit_s(self) -> float:
        return self.spec.call.limits.time_limit_s

    @property
    def agent(self) -> AgentSpec:
        return self.spec.agent

    @property
    def simulator(self) -> SimulatorSpec:
        return self.spec.simulated

    @property
    def perturbation(self) -> Condition:
        return self.spec.perturbation


class ConversationFn(Protocol):
    """Runs one attempt and returns the record directory it wrote (``job.output_dir``).

    Called inside a dedicated worker process. Return normally with a record whose status
    says what happened (``completed``; ``infra_failure`` for a dropped socket the fn
    noticed). Raising, dying or hanging is an infrastructure failure the orchestrator
    records for you.
    """

    def __call__(self, job: ConversationJob) -> Path: ...


def _wanted(filters: list[str], domain: str, sid: str) -> bool:
    return not filters or sid in filters or f"{domain}/{sid}" in filters


def default_domains(config: RunConfig, dataset: Dataset) -> list[str]:
    """Every domain of a dataset folder; for the built-in data only its default benchmark.

    The built-in data also holds itsm and medical_hr scenarios; a run of the built-in
    data with no domain or scenario filter stays the three airline calls (`make run` on
    two cores), and `--domain itsm` or `--scenarios it.1` reaches the others.
    """
    if config.dataset is None and not config.scenarios:
        return [d for d in BUILTIN_DEFAULT_DOMAINS if d in dataset.domains]
    return list(dataset.domains)


def expand(config: RunConfig, dataset: Dataset) -> list[ConversationSpec]:
    """(scenario x trial x condition), in a stable order: scenario-major, so early results span trials."""
    domains = config.domains or default_domains(config, dataset)
    missing = [d for d in domains if d not in dataset.domains]
    if missing:
        raise ValueError(f"domains {missing} not in dataset {dataset.root} (has {sorted(dataset.domains)})")
    specs: list[ConversationSpec] = []
    seen: set[str] = set()
    for domain in domains:
        for sid in dataset.domains[domain].scenarios:
            if not _wanted(config.scenarios, domain, sid):
                continue
            seen.add(sid)
            seen.add(f"{domain}/{sid}")
            for trial in range(config.trials):
                for cond in config.conditions:
                    specs.append(
                        ConversationSpec(
                            conversation_id=conversation_id(domain, sid, trial, cond),
                            domain=domain,
                            scenario_id=sid,
                            trial=trial,
                            condition=cond,
                            base_seed=conversation_seed(config.seed, domain, sid, trial, cond),
                        )
                    )
    unknown = [s for s in config.scenarios if s not in seen]
    if unknown:
        raise ValueError(f"scenarios not found in the selected domains: {unknown}")
    return specs


def make_job(
    config: RunConfig, run_id: str, spec: ConversationSpec, attempt: int, output_dir: Path, port: int
) -> ConversationJob:
    conv = ConversationRef(
        conversation_id=spec.conversation_id,
        dataset=config.dataset,
        domain=spec.domain,
        scenario_id=spec.scenario_id,
        lang=config.lang,
        trial=spec.trial,
        condition=spec.condition,
        attempt=attempt,
    )
    condition = config.conditions[spec.condition]
    seeds = CallSeeds.derive(config.seed, conv, perturbed=not condition.is_clean)
    call = CallSpec(
        conversation=conv,
        agent=config.agent,
        simulator=config.simulator,
        perturbation=condition,
        call=live_call_config(config.call, config.simulator, config.lang, config.time_limit_s),
        seeds=seeds,
    )
    return ConversationJob(
        run_id=run_id,
        output_dir=str(output_dir),
        port=port,
        conversation_fn=config.resolved_conversation_fn(),
        spec=call,
    )
