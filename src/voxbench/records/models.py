"""Run and conversation record models (`run.json`, `record.json`).

`schema_version` comes first in every file; reading a version this code does not know
fails loudly instead of mis-scoring.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SCHEMA_VERSION = "1.2"
"""1.2: events may hold ``harness_pause`` (a silence the harness put into the caller's line),
which a reader of 1.1 cannot parse; in a 1.2 record its absence means none happened, in older
records that nothing was recorded. 1.1: ``record.agent`` and ``record.simulator`` are typed
(:class:`AgentInfo`, :class:`SimulatorInfo`) with the same keys on every path; 1.0 records are
read by mapping their free-form dicts onto those models."""
SUPPORTED_VERSIONS = frozenset({"1.0", "1.1", "1.2"})
UNRECORDED_HARNESS_PAUSES = frozenset({"1.0", "1.1"})
"""Schemas written before ``harness_pause`` existed: their records cannot say whether the
harness paused the caller."""

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


class ServicePart(BaseModel):
    """One model service of an agent or a caller, as the record names it (never secrets)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    vendor: str = Field(description="local, openai, deepgram, ... (what prices and reports key on)")
    model: str | None = Field(default=None, description="model, voice or local model name")


def _legacy_part(v: object) -> object:
    """A 1.0 record's part: a config dict (``{kind, model, ...}``) or a free-text description."""
    if isinstance(v, str):
        return {"vendor": "local" if "local" in v or "faster-whisper" in v else "unknown", "model": v}
    if isinstance(v, dict) and "vendor" not in v:
        vendor = v.get("provider") or v.get("kind") or "unknown"
        model = v.get("model") or v.get("local_model") or v.get("voice") or v.get("url")
        local = str(vendor).endswith("-local") or vendor == "local"
        return {"vendor": "local" if local else str(vendor), "model": None if model is None else str(model)}
    return v


class AgentInfo(BaseModel):
    """Which agent a record is of: the same keys whichever driver ran the call."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(default="unknown", description="agent profile name (what reports show)")
    architecture: str = Field(default="cascade", description="cascade | hybrid | s2s | external | scripted")
    stt: ServicePart | None = None
    llm: ServicePart | None = None
    tts: ServicePart | None = None
    realtime: ServicePart | None = None
    external: ServicePart | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_1_0(cls, data: Any) -> Any:
        """1.0 records carried ``{kind, config, name|profile, stt: ..., ...}`` free-form."""
        if not isinstance(data, dict) or "architecture" in data:
            return data
        name = next(
            (data[k] for k in ("name", "label", "id", "profile") if isinstance(data.get(k), str)), None
        )
        arch = data.get("pipeline_type") or data.get("kind") or "cascade"
        out: dict[str, Any] = {"name": name or "unknown", "architecture": str(arch)}
        for part in ("stt", "llm", "tts", "realtime", "external"):
            if data.get(part) is not None:
                out[part] = _legacy_part(data[part])
        return out


class SimulatorInfo(BaseModel):
    """Which caller a record is of, and how its model behaved (the LLM caller's counters)."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(default="trace", description="trace | llm | scripted | human")
    stt: ServicePart | None = None
    llm: ServicePart | None = None
    tts: ServicePart | None = None
    reply_format: str | None = Field(default=None, description="LLM caller: json | tools")
    accent_voice_id: str | None = Field(default=None, description="a perturbation condition's caller voice")
    interface: str | None = Field(default=None, description="a person's call: browser-webrtc | local-audio")
    user_agent: str | None = Field(default=None, description="a person's call in a browser: its User-Agent")
    prompt_sha256: str | None = Field(default=None, description="LLM caller: hash of its finished prompt")
    prompt: str | None = Field(
        default=None, description="LLM caller: its finished prompt (system instructions)"
    )
    caller_stats: dict[str, int] = Field(default_factory=dict, description="LLM caller: turn counters")
    caller_unspoken: list[dict[str, str]] = Field(
        default_factory=list, description="LLM caller: replies its guards did not speak"
    )

    @model_validator(mode="before")
    @classmethod
    def _from_1_0(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        known = set(cls.model_fields) - {"stt", "llm", "tts", "reply_format"}
        out: dict[str, Any] = {k: v for k, v in data.items() if k in known}
        for part in ("stt", "llm", "tts"):
            if data.get(part) is not None:
                out[part] = _legacy_part(data[part])
        fmt = data.get("reply_format") or data.get("llm_reply_format")
        if fmt is not None:
            out["reply_format"] = str(fmt)
        return out


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
    agent: AgentInfo = Field(default_factory=AgentInfo)
    simulator: SimulatorInfo = Field(default_factory=SimulatorInfo)
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
