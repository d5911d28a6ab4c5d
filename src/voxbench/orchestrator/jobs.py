"""Expanding a run config into conversations, and the job one attempt receives.

A *conversation* is one (domain, scenario, trial, condition); an *attempt* is one try at
it. Seeds derive from those coordinates with SHA-256, not Python's salted ``hash``, so a
conversation gets the same seed on every machine, in every process and after a resume.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from voxbench.orchestrator.config import RunConfig
from voxbench.scenarios.loader import BUILTIN_DEFAULT_DOMAINS, Dataset


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from any printable parts (same parts, same seed, anywhere)."""
    h = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(h[:8], "big") >> 1


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
        return self.base_seed if attempt == 0 else derive_seed(self.base_seed, "attempt", attempt)


class ConversationJob(BaseModel):
    """Everything one attempt needs, serialisable to ``job.json`` for a worker process."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    conversation_id: str
    domain: str
    scenario_id: str
    trial: int
    condition: str
    attempt: int
    seed: int
    base_seed: int
    dataset: str | None = None
    lang: str = "en"
    output_dir: str = Field(description="the record directory this attempt must write")
    port: int = 0
    time_limit_s: float = 600.0
    agent: dict[str, Any] = Field(default_factory=dict)
    simulator: dict[str, Any] = Field(default_factory=dict)
    perturbation: dict[str, Any] = Field(default_factory=dict)
    judges: dict[str, Any] = Field(default_factory=dict)
    conversation_fn: str = "scripted"


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
                            base_seed=derive_seed(config.seed, domain, sid, trial, cond),
                        )
                    )
    unknown = [s for s in config.scenarios if s not in seen]
    if unknown:
        raise ValueError(f"scenarios not found in the selected domains: {unknown}")
    return specs


def make_job(
    config: RunConfig, run_id: str, spec: ConversationSpec, attempt: int, output_dir: Path, port: int
) -> ConversationJob:
    return ConversationJob(
        run_id=run_id,
        conversation_id=spec.conversation_id,
        domain=spec.domain,
        scenario_id=spec.scenario_id,
        trial=spec.trial,
        condition=spec.condition,
        attempt=attempt,
        seed=spec.attempt_seed(attempt),
        base_seed=spec.base_seed,
        dataset=config.dataset,
        lang=config.lang,
        output_dir=str(output_dir),
        port=port,
        time_limit_s=config.time_limit_s,
        agent=config.agent,
        simulator=config.simulator,
        perturbation=config.conditions[spec.condition],
        judges=config.judges,
        conversation_fn=config.resolved_conversation_fn(),
    )
