"""Run configuration: one pydantic model, merged from defaults, YAML, env and CLI.

Precedence (lowest to highest): model defaults < YAML file < ``VOXBENCH_*`` environment
variables < CLI flags. A flag typed on the command line is the most deliberate choice,
so it wins; env vars sit between so CI can override a checked-in YAML without editing
it. Nested fields use ``__`` in env names (``VOXBENCH_VALIDATION__MAX_ATTEMPTS=2``), and
env values are parsed as YAML scalars so ``3`` is an int and ``[a, b]`` a list.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator

from voxbench.pipelines.call.spec import AgentSpec, ScriptedAgent, SimulatorSpec
from voxbench.pipelines.config import CallConfig
from voxbench.processors.perturbations import Condition, condition_from_spec

ENV_PREFIX = "VOXBENCH_"

#: End reasons that mean the simulated call finished the way a real caller would.
DEFAULT_VALID_END_REASONS = ("end_call", "goodbye", "transfer", "trace_finished")


def _clean_condition() -> dict[str, Condition]:
    return {"clean": condition_from_spec("clean", None)}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ValidationConfig(_Strict):
    """How a finished simulation is judged valid (a simulator check, not an agent score)."""

    validator: Literal["auto", "builtin", "eval"] = Field(
        default="auto", description="auto: voxbench.eval's gate if importable, else the built-in one"
    )
    max_attempts: int = Field(default=3, ge=1, le=20, description="total attempts per conversation")
    allowed_end_reasons: list[str] = Field(default_factory=lambda: list(DEFAULT_VALID_END_REASONS))
    thresholds: dict[str, float] = Field(default_factory=dict)


class JudgesConfig(_Strict):
    """Which LLM judges score a run: an OpenAI-compatible endpoint, or the embedded local model.

    With none, judge metrics come out "unscored" (never 0) and the gate keeps its code checks.
    """

    base_url: str | None = None
    model: str | None = None
    audio_model: str | None = None
    mode: Literal["auto", "offline", "llm", "none"] = Field(
        default="auto",
        description="auto: the endpoint when given, else eval's offline methods; none: judge metrics unscored",
    )
    local: bool | str | None = Field(
        default=None, description="true or a local model name: the embedded llama.cpp judge, for scoring only"
    )
    params: dict[str, dict[str, JsonValue]] = Field(default_factory=dict, description="metric -> parameters")


def _resolve_agent(v: Any) -> Any:
    """A run config's ``agent:`` (a profile name, files and overrides) resolved once, here."""
    if isinstance(v, str):
        v = {"profile": v}
    if not isinstance(v, Mapping) or v.get("profile") in ("scripted", "reference") or "architecture" in v:
        return v  # the scripted or reference agent, or an already resolved profile (run.json, job.json)
    from voxbench.pipelines.agent.selection import resolve_agent_choice

    return resolve_agent_choice(v)


class RunConfig(_Strict):
    """Everything that defines a benchmark run; dumped whole into ``run.json``."""

    run_id: str | None = None
    dataset: str | None = Field(default=None, description="EVA-format folder; None = built-in data")
    domains: list[str] = Field(
        default_factory=list, description="empty = every domain (built-in data: airline)"
    )
    scenarios: list[str] = Field(default_factory=list, description="ids or domain/id; empty = all")
    lang: str = "en"
    agent: AgentSpec = Field(
        default_factory=ScriptedAgent,
        description="{profile: name, profiles: [FILE, ...], <part overrides>} resolved to a profile at "
        "load time, or {profile: scripted, ...} (the no-audio agent)",
    )
    simulator: SimulatorSpec = Field(default_factory=SimulatorSpec)
    call: CallConfig = Field(
        default_factory=CallConfig, description="the live call's behaviour: VAD, turn-taking, limits, wire"
    )
    conversation_fn: str | None = Field(
        default=None, description="scripted | live | module:function; None = from the agent profile"
    )
    judges: JudgesConfig = Field(default_factory=JudgesConfig)
    trials: int = Field(default=1, ge=1, le=100)
    conditions: dict[str, Condition] = Field(
        default_factory=_clean_condition, description="perturbation condition name -> config"
    )
    validation: ValidationConfig = Field(default_factory=ValidationConfig)
    max_infra_retries: int = Field(default=2, ge=0, le=20)
    concurrency: int = Field(default=1, ge=1, le=512)
    time_limit_s: float = Field(default=600.0, gt=0)
    hang_grace_s: float = Field(default=20.0, ge=0, description="worker guard = time limit + grace")
    seed: int = 0
    out: str | None = Field(default=None, description="run folder; None = runs/<run_id>")
    backend: Literal["local", "ray"] = "local"
    ray_address: str | None = None
    ray_num_cpus: float = Field(default=1.0, gt=0, description="CPUs Ray reserves per conversation")
    base_port: int = Field(default=20000, ge=1024, le=65000)
    fail_under: dict[str, float] = Field(default_factory=dict)
    score: bool = Field(default=True, description="score valid records with voxbench.eval if present")

    @field_validator("agent", mode="before")
    @classmethod
    def _agent(cls, v: Any) -> Any:
        return _resolve_agent(v)

    @field_validator("conditions", mode="before")
    @classmethod
    def _conditions(cls, v: Any) -> Any:
        """``{name: {}}`` is the built-in (or composed) condition, ``{name: {base: ..., ...}}``
        one changed; a full definition or a resolved Condition passes as is."""
        if not isinstance(v, Mapping):
            return v
        if not v:
            raise ValueError("at least one condition is needed (use {clean: {}})")
        try:
            return {str(k): condition_from_spec(str(k), spec) for k, spec in v.items()}
        except KeyError as exc:
            raise ValueError(str(exc).strip("'\"")) from None

    def resolved_conversation_fn(self) -> str:
        """The scripted fn when the agent profile says so, else the live pipelines runner."""
        if self.conversation_fn:
            return self.conversation_fn
        return "scripted" if isinstance(self.agent, ScriptedAgent) else "live"


def deep_merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """Merge `over` into a copy of `base`; nested mappings merge, everything else replaces."""
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def env_overrides(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``VOXBENCH_*`` variables naming a RunConfig field, as a nested dict.

    Variables whose first part is not a field (``VOXBENCH_EVA_DATA``, ...) belong to other
    tools and are ignored rather than rejected.
    """
    environ = os.environ if environ is None else environ
    fields = set(RunConfig.model_fields)
    out: dict[str, Any] = {}
    for name, raw in environ.items():
        if not name.startswith(ENV_PREFIX):
            continue
        path = [p.lower() for p in name[len(ENV_PREFIX) :].split("__")]
        if path[0] not in fields:
            continue
        value = yaml.safe_load(raw) if raw.strip() else None
        node = out
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = value
    return out


def load_yaml(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"run config {path} not found")
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a run config must be a YAML mapping")
    return data


def load_run_config(
    yaml_path: str | Path | None = None,
    cli: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> RunConfig:
    """Merge YAML < env < CLI and validate once, so errors name the final field."""
    layers = [
        load_yaml(yaml_path) if yaml_path else {},
        env_overrides(environ),
        {k: v for k, v in (cli or {}).items() if v is not None},
    ]
    merged: dict[str, Any] = {}
    files: list[str] = []
    for layer in layers:
        layer, found = _agent_layer(layer)
        files += found
        merged = deep_merge(merged, layer)
    if files:
        merged["agent"] = {**merged.get("agent", {}), "profiles": files}
    return RunConfig.model_validate(merged)


def _agent_layer(layer: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """One layer with its ``agent:`` as a mapping (a bare name is ``{profile: name}``) and its
    profile files taken out: files add up across YAML, env and flags (a search path, like
    ``$VOXBENCH_AGENTS``), where every other key of a later layer replaces."""
    agent = layer.get("agent")
    if agent is None:
        return layer, []
    if isinstance(agent, str):
        agent = {"profile": agent}
    if not isinstance(agent, Mapping) or "architecture" in agent:
        return layer, []  # an already resolved profile (run.json): validated as is
    agent = dict(agent)
    files: list[str] = []
    for key in ("profiles", "profile_files"):
        got = agent.pop(key, None) or []
        files += [str(got)] if isinstance(got, (str, Path)) else [str(f) for f in got]
    return {**layer, "agent": agent}, files
