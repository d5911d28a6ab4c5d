"""Named agent profiles: which agent under test a call talks to, and what it needs.

A profile is an architecture plus nested service configs:

* ``cascade``  STT -> LLM -> TTS (``stt``, ``llm``, ``tts``);
* ``hybrid``   audio-in LLM with text out -> TTS (``realtime`` with ``output: text``, ``tts``);
* ``s2s``      speech-to-speech (``realtime`` with ``output: audio``);
* ``external`` an agent that is not ours, reached over a WebSocket (``external``);
* ``livekit``  a LiveKit Agents agent run in the call (``livekit``: its factory and options).

What a profile needs (pip extras, API-key variables) is derived from its configs, so
`voxbench agents list` and :func:`preflight` can tell, before any call starts, what is
missing, in one actionable line. Built-in profiles are data (``builtin_profiles.yaml``); user
profiles come from YAML files in the same format (``VOXBENCH_AGENTS`` = paths separated by
``os.pathsep``, or ``paths=``)::

    my-bot:                       # a new profile...
      architecture: external
      external: {url: "ws://10.0.0.5:8765/ws", protocol: twilio}
    cascade-openai-4o:            # ...or a built-in one, changed
      base: cascade-openai
      llm: {model: gpt-4o}
"""

from __future__ import annotations

import functools
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from voxbench.pipelines.agent.livekit_config import LiveKitAgentConfig
from voxbench.pipelines.services import LLMConfig, STTConfig, TTSConfig
from voxbench.pipelines.services.cloud import (
    PROVIDERS,
    CloudLLMConfig,
    CloudSTTConfig,
    CloudTTSConfig,
    RealtimeConfig,
)
from voxbench.records import AgentInfo, ServicePart
from voxbench.transports.config import ExternalAgentConfig

Architecture = Literal["cascade", "hybrid", "s2s", "external", "livekit"]
STTChoice = Annotated[STTConfig | CloudSTTConfig, Field(discriminator="kind")]
TTSChoice = Annotated[TTSConfig | CloudTTSConfig, Field(discriminator="kind")]
LLMChoice = Annotated[LLMConfig | CloudLLMConfig, Field(discriminator="kind")]

PROFILES_ENV = "VOXBENCH_AGENTS"
BUILTIN_PROFILES_FILE = Path(__file__).with_name("builtin_profiles.yaml")
PIPECAT_EXTRAS = {
    "openai": "openai",
    "deepgram": "deepgram",
    "cartesia": "cartesia",
    "elevenlabs": "elevenlabs",
    "anthropic": "anthropic",
    "google": "google",
    "ultravox": "ultravox",
}


class ProfileUnavailable(ValueError):
    """A profile cannot run here (missing key or extra); the message is one actionable line."""


class AgentProfile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    architecture: Architecture
    description: str = ""
    stt: STTChoice | None = None
    llm: LLMChoice | None = None
    tts: TTSChoice | None = None
    realtime: RealtimeConfig | None = None
    external: ExternalAgentConfig | None = None
    livekit: LiveKitAgentConfig | None = None
    env: list[str] = Field(default_factory=list, description="extra required variables")

    @model_validator(mode="after")
    def _shape(self) -> AgentProfile:
        need: dict[str, tuple[str, ...]] = {
            "cascade": ("stt", "llm", "tts"),
            "hybrid": ("realtime", "tts"),
            "s2s": ("realtime",),
            "external": ("external",),
            "livekit": ("livekit",),
        }
        allowed = set(need[self.architecture])
        optional = {"llm"} if self.architecture == "livekit" else set()  # a local server for its plugin
        for part in ("stt", "llm", "tts", "realtime", "external", "livekit"):
            present = getattr(self, part) is not None
            if part in allowed and not present:
                raise ValueError(f"profile {self.name!r}: a {self.architecture} agent needs {part}")
            if part not in allowed | optional and present:
                raise ValueError(f"profile {self.name!r}: a {self.architecture} agent takes no {part}")
        if self.livekit is not None and self.llm is not None and self.llm.kind != "local":
            raise ValueError(
                f"profile {self.name!r}: a livekit agent's llm is the local server voxbench starts for "
                "it (kind: local); a remote LLM is configured in the agent itself"
            )
        if self.realtime is not None:
            want = "text" if self.architecture == "hybrid" else "audio"
            if self.realtime.output != want:
                raise ValueError(
                    f"profile {self.name!r}: a {self.architecture} agent needs realtime.output={want}"
                )
            if self.realtime.turn_detection == "local" and self.realtime.provider != "openai":
                raise ValueError(f"profile {self.name!r}: turn_detection=local is supported for openai only")
        return self

    # --- what it needs ---------------------------------------------------------
    def providers(self) -> list[str]:
        """Provider names (keys of ``PROVIDERS``) in pipeline order, without repeats."""
        out = ["live"]
        for part in (self.stt, self.llm, self.realtime, self.tts):
            if part is None:
                continue
            if isinstance(part, STTConfig | TTSConfig):
                out.append("local")
            elif isinstance(part, LLMConfig):
                if part.kind == "local":
                    out.append("local")
                elif part.api_key_env == "OPENAI_API_KEY" or part.base_url is None:
                    out.append("openai")
            else:
                out.append(part.vendor())
        return list(dict.fromkeys(out))

    def env_keys(self) -> list[str]:
        keys: list[str] = []
        for part in (self.stt, self.llm, self.realtime, self.tts):
            if isinstance(part, CloudSTTConfig | CloudTTSConfig | CloudLLMConfig | RealtimeConfig):
                if env := part.key_env():
                    keys.append(env)
            elif isinstance(part, LLMConfig) and part.api_key_env:
                keys.append(part.api_key_env)
        if self.external is not None:
            keys.extend(self.external.headers_env.values())
        keys.extend(self.env)
        return list(dict.fromkeys(keys))

    def requirements(self) -> list[Requirement]:
        reqs = []
        for name in self.providers():
            p = PROVIDERS[name]
            missing = [m for m in p.modules if not _importable(m)]
            what = f"pipecat-ai[{PIPECAT_EXTRAS[name]}]" if name in PIPECAT_EXTRAS else p.extra
            reqs.append(
                Requirement(
                    "extra",
                    p.extra,
                    not missing,
                    f"{name} support ({what}; missing {', '.join(missing)})"
                    if missing
                    else f"{name} support",
                    f'pip install "voxbench[{p.extra}]"',
                )
            )
        reqs.extend(self._livekit_requirements())
        for key in self.env_keys():
            reqs.append(
                Requirement("env", key, bool(os.environ.get(key)), f"{key} is not set", f"export {key}=...")
            )
        return reqs

    def _livekit_requirements(self) -> list[Requirement]:
        """livekit-agents itself, and the agent's factory module (found, not imported)."""
        if self.livekit is None:
            return []
        from voxbench.pipelines.agent.livekit_loader import target_available

        have = _importable("livekit.agents")
        found, why = target_available(self.livekit)
        return [
            Requirement(
                "extra",
                "livekit",
                have,
                "LiveKit Agents support (livekit-agents is not installed)",
                'pip install "voxbench[livekit]"',
            ),
            Requirement("extra", "livekit", found, why, f"check livekit.agent ({self.livekit.agent})"),
        ]

    def info(self) -> AgentInfo:
        """What the record says about this agent (never secrets; the same keys on every path)."""
        return AgentInfo(
            name=self.name,
            architecture=self.architecture,
            stt=None if self.stt is None else _part(self.stt),
            llm=None if self.llm is None else _part(self.llm),
            tts=None if self.tts is None else _part(self.tts),
            realtime=None
            if self.realtime is None
            else ServicePart(vendor=self.realtime.provider, model=self.realtime.model),
            external=_external_part(self),
        )


def _external_part(profile: AgentProfile) -> ServicePart | None:
    """An agent that is not voxbench's services: over a WebSocket, or a LiveKit agent in the call."""
    if profile.external is not None:
        return ServicePart(vendor="external", model=profile.external.protocol)
    if profile.livekit is not None:
        return ServicePart(vendor="livekit", model=profile.livekit.model or profile.livekit.agent)
    return None


def _part(
    cfg: STTConfig | TTSConfig | LLMConfig | CloudSTTConfig | CloudTTSConfig | CloudLLMConfig,
) -> ServicePart:
    """One service config as the record names it: vendor (prices key on it) and model."""
    if isinstance(cfg, STTConfig):
        return ServicePart(vendor="local", model=f"faster-whisper {cfg.model} {cfg.compute_type}")
    if isinstance(cfg, TTSConfig):
        return ServicePart(vendor="local", model=cfg.voice_id)
    if isinstance(cfg, LLMConfig):
        if cfg.kind == "local":
            return ServicePart(vendor="local", model=cfg.local_model)
        hosted = cfg.api_key_env == "OPENAI_API_KEY" or cfg.base_url is None
        return ServicePart(vendor="openai" if hosted else "openai-compatible", model=cfg.model)
    return ServicePart(vendor=cfg.vendor(), model=cfg.model)


@dataclass(frozen=True)
class Requirement:
    kind: Literal["extra", "env"]
    name: str
    present: bool
    problem: str
    fix: str


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ModuleNotFoundError, ValueError):
        return False


def missing(profile: AgentProfile) -> list[Requirement]:
    return [r for r in profile.requirements() if not r.present]


def preflight(profile: AgentProfile) -> None:
    """Raise :class:`ProfileUnavailable` (one line: what is missing and how to fix it) or return."""
    gaps = missing(profile)
    if not gaps:
        return
    problems = "; ".join(dict.fromkeys(r.problem for r in gaps))
    fixes = "; ".join(dict.fromkeys(r.fix for r in gaps))
    raise ProfileUnavailable(f"agent profile {profile.name!r} cannot run: {problems} (fix: {fixes})")


@functools.cache
def builtin_profiles() -> dict[str, AgentProfile]:
    """The built-in profiles (data: ``builtin_profiles.yaml``), read on first use: a TTS voice
    check imports the TTS code and numpy, which a worker parsing a scripted job must not pay for."""
    return profiles_from_yaml(BUILTIN_PROFILES_FILE)


if TYPE_CHECKING:
    BUILTIN_PROFILES: dict[str, AgentProfile]


def __getattr__(name: str) -> Any:
    if name == "BUILTIN_PROFILES":
        return builtin_profiles()
    raise AttributeError(name)


def merge_body(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """A profile body over another (``base:`` in YAML, overrides in a run config): nested
    mappings merge, everything else replaces."""
    out = dict(base)
    for k, v in over.items():
        out[k] = merge_body(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def profiles_from_yaml(
    path: str | Path, known: dict[str, AgentProfile] | None = None
) -> dict[str, AgentProfile]:
    """Profiles in one YAML file: a mapping of name -> body; ``base: <name>`` starts from another."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping of profile name -> profile")
    known = dict(known or {})
    out: dict[str, AgentProfile] = {}
    for name, body in data.items():
        body = dict(body or {})
        base_name = body.pop("base", None)
        if base_name is not None:
            base = known.get(base_name) or out.get(base_name)
            if base is None:
                raise ValueError(f"{path}: profile {name!r} has unknown base {base_name!r}")
            body = merge_body(base.model_dump(mode="json", exclude_none=True, exclude={"name"}), body)
        try:
            out[name] = _relative_to(AgentProfile.model_validate({**body, "name": str(name)}), Path(path))
        except ValueError as exc:
            first = str(exc).splitlines()
            raise ValueError(f"{path}: profile {name!r} is invalid: {' '.join(first[:3])}") from None
        known[name] = out[name]
    return out


def _relative_to(profile: AgentProfile, path: Path) -> AgentProfile:
    """A LiveKit agent named by a relative ``file.py`` is found next to the profiles file."""
    if profile.livekit is None:
        return profile
    return profile.model_copy(update={"livekit": profile.livekit.resolved_against(path.resolve().parent)})


def load_profiles(paths: list[str | Path] | None = None) -> dict[str, AgentProfile]:
    """Built-ins, then each YAML file in ``$VOXBENCH_AGENTS`` and ``paths`` (later wins)."""
    found: dict[str, AgentProfile] = dict(builtin_profiles())
    env = [p for p in os.environ.get(PROFILES_ENV, "").split(os.pathsep) if p]
    for path in [*env, *(paths or [])]:
        found.update(profiles_from_yaml(path, found))
    return found


def get_profile(name: str, paths: list[str | Path] | None = None) -> AgentProfile:
    profiles = load_profiles(paths)
    if name not in profiles:
        raise ValueError(f"unknown agent profile {name!r}; known: {', '.join(sorted(profiles))}")
    return profiles[name]
