"""Run and conversation record models (`run.json`, `record.json`).

`schema_version` comes first in every file; reading a version this code does not know
fails loudly instead of mis-scoring.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

SCHEMA_VERSION = "1.0"
SUPPORTED_VERSIONS = frozenset({"1.0"})

EndReason = Literal[
    "end_call",  # the simulator hung up (goal reached or given up)
    "transfer",  # the agent transferred to a live agent
    "goodbye",
    "inactivity_timeout",
    "time_limit",
    "agent_error",
    "simulator_error",
    "connection_lost",
    "cancelled",
    "trace_finished",  # a trace-replay simulator ran out of lines
]

RecordStatus = Literal["completed", "infra_failure", "invalid"]


class UnknownSchemaVersion(ValueError):
    """A record was written by a voxbench this one does not understand."""


def check_schema_version(v: object, where: object = "record") -> None:
    """Raise `UnknownSchemaVersion` (not a generic validation error) for unknown versions."""
    if v not in SUPPORTED_VERSIONS:
        raise UnknownSchemaVersion(
            f"{where}: schema_version {v!r} is not supported (this voxbench reads {sorted(SUPPORTED_VERSIONS)})"
        )


def _check_version(v: str) -> str:
    if v not in SUPPORTED_VERSIONS:
        raise UnknownSchemaVersion(
            f"record schema_version {v!r} is not supported (this voxbench reads {sorted(SUPPORTED_VERSIONS)})"
        )
    return v


class AudioFiles(BaseModel):
    """Audio written with the record; paths are relative to the record directory."""

    sample_rate: int
    user: str | None = "user.wav"
    agent: str | None = "agent.wav"
    mix: str | None = "mix.wav"
    user_clean: str | None = None


class HumanRating(BaseModel):
    """A person's rating after a mic-in-the-loop call (checks the judges later)."""

    task_done: bool | None = None
    natural: int | None = Field(default=None, ge=1, le=3)
    comment: str = ""


class ConversationRecord(BaseModel):
    """One conversation (one scenario, trial, condition and attempt)."""

    model_config = ConfigDict(extra="forbid")

    schema_version: str = SCHEMA_VERSION
    conversation_id: str
    domain: str
    scenario_id: str
    trial: int = 0
    condition: str = "clean"
    attempt: int = 0
    lang: str = "en"
    status: RecordStatus = "completed"
    end_reason: str | None = None
    error: str | None = None
    error_source: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    duration_s: float | None = None
    agent: dict[str, Any] = Field(default_factory=dict)
    simulator: dict[str, Any] = Field(default_factory=dict)
    perturbation: dict[str, Any] = Field(default_factory=dict)
    seeds: dict[str, int] = Field(default_factory=dict)
    versions: dict[str, str] = Field(default_factory=dict)
    audio: AudioFiles | None = None
    initial_db_hash: str | None = None
    final_db_hash: str | None = None
    num_tool_calls: int = 0
    human_rating: HumanRating | None = None
    extra: dict[str, Any] = Field(default_factory=dict)

    _v = field_validator("schema_version")(_check_version)


class RunManifest(BaseModel):
    """`run.json`: what a run was and how it was made (provenance)."""

    model_config = ConfigDict(extra="allow")

    schema_version: str = SCHEMA_VERSION
    run_id: str
    created_at: str
    voxbench_version: str
    git_commit: str | None = None
    dataset: dict[str, Any] = Field(default_factory=dict)
    config: dict[str, Any] = Field(default_factory=dict)
    models: dict[str, Any] = Field(default_factory=dict)
    machine: dict[str, Any] = Field(default_factory=dict)

    _v = field_validator("schema_version")(_check_version)
