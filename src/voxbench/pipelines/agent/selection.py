"""Choosing the agent under test: a profile name, profile files and overrides -> one profile.

Every driver (`voxbench call`, `voxbench run`, `voxbench talk`) resolves its agent here, so
an override of a profile's parts behaves the same everywhere: ``{profile: cascade-local,
llm: {temperature: 0.3}}`` is read exactly like a profiles-YAML entry ``{base:
cascade-local, llm: {temperature: 0.3}}`` (nested mappings merge, the rest replaces).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from voxbench.pipelines.agent.profiles import AgentProfile, get_profile, merge_body, preflight
from voxbench.pipelines.services import LLMConfig

LOCAL_DEFAULT = "cascade-local"
ALIASES = {"offline-default": LOCAL_DEFAULT, "local": LOCAL_DEFAULT}
OVERRIDABLE = ("description", "stt", "llm", "tts", "realtime", "external", "livekit", "env")


def canonical_name(name: str | None) -> str:
    return ALIASES.get(name or LOCAL_DEFAULT, name or LOCAL_DEFAULT)


def resolve_agent(name: str | None, profile_files: list[str | Path] | None = None) -> AgentProfile:
    """The named profile, checked: unknown names and missing keys/extras raise one-line errors."""
    profile = get_profile(canonical_name(name), profile_files)
    preflight(profile)
    return profile


def resolve_agent_choice(choice: Mapping[str, Any]) -> AgentProfile:
    """``{profile, profiles, <part overrides>}`` (a run config's ``agent:``) as a profile.

    ``profiles`` (files, as ``--profiles FILE`` on every command; ``profile_files`` is its
    older name) add to ``$VOXBENCH_AGENTS``, later files winning.

    Not preflighted: the driver checks keys and extras before the first call
    (:func:`preflight`), the resolution itself only needs the profile files.
    """
    body = dict(choice)
    named = body.pop("profile", None)
    files = [*(body.pop("profiles", None) or []), *(body.pop("profile_files", None) or [])]
    if files and named is None:
        raise ValueError(
            f"agent: profile files {files} given but no profile named in them (--agent NAME or agent.profile)"
        )
    name = canonical_name(named)
    unknown = sorted(set(body) - set(OVERRIDABLE))
    if unknown:
        raise ValueError(f"agent: unknown keys {unknown} (a profile name, profiles, or {OVERRIDABLE})")
    profile = get_profile(name, list(files))
    if not body:
        return profile
    merged = merge_body(profile.model_dump(mode="json", exclude_none=True, exclude={"name"}), body)
    return AgentProfile.model_validate({**merged, "name": profile.name})


def local_llm_config(profile: AgentProfile) -> LLMConfig | None:
    """The profile's LLM config when it runs on the embedded local server, else None."""
    llm = profile.llm
    return llm if isinstance(llm, LLMConfig) and llm.kind == "local" else None


REFERENCE = "reference"
"""``--agent reference``: the scenario's reference conversation as the agent (``reference_agent.py``).
It needs the scenario, not a profile, so drivers build it with :func:`reference_agent`."""


def reference_agent(call: Any, voice: str = "agent") -> Any:
    """The reference agent for one call (a ``CallScenario``), speaking with ``voice``.

    ``voice``: ``tone`` (the model-free synthetic voice, ``services/tone.py``) or any voice
    name a ``TTSConfig`` takes (default: the agent's Piper voice).
    """
    from voxbench.pipelines.agent.reference import ReferenceAgentServices
    from voxbench.scenarios.reference_script import reference_script

    return ReferenceAgentServices(
        reference_script(call.scenario, call.resolver), call.domain, make_voice(voice, tone_f0=120.0)
    )


def make_voice(voice: str, tone_f0: float = 140.0) -> Any:
    """A TTS service by voice name; ``tone`` is the synthetic voice at ``tone_f0``."""
    if voice == "tone":
        from voxbench.pipelines.services.tone import ToneTTSService

        return ToneTTSService(f0=tone_f0)
    from voxbench.pipelines.services import TTSConfig, make_tts

    return make_tts(TTSConfig(voice=voice))
