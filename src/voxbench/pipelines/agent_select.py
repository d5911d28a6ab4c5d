"""Choosing the agent under test by profile name, for `voxbench call` and `voxbench run`.

The offline default (`cascade-local`, alias `offline-default`) keeps its own builder so
run configs can override its LLM/STT; every other profile goes through the profile
registry, with `preflight` first so a missing key or extra fails before any call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from voxbench.pipelines.profiles import AgentProfile, get_profile, preflight
from voxbench.pipelines.services import LLMConfig

LOCAL_DEFAULT = "cascade-local"
ALIASES = {"offline-default": LOCAL_DEFAULT, "local": LOCAL_DEFAULT}


def canonical_name(name: str | None) -> str:
    return ALIASES.get(name or LOCAL_DEFAULT, name or LOCAL_DEFAULT)


def resolve_agent(name: str | None, profile_files: list[str | Path] | None = None) -> AgentProfile:
    """The named profile, checked: unknown names and missing keys/extras raise one-line errors."""
    profile = get_profile(canonical_name(name), profile_files)
    preflight(profile)
    return profile


def local_llm_config(profile: AgentProfile) -> LLMConfig | None:
    """The profile's LLM config when it runs on the embedded local server, else None."""
    llm = profile.llm
    return llm if isinstance(llm, LLMConfig) and llm.kind == "local" else None


def agent_services(profile: AgentProfile, server: Any) -> Any:
    """Fresh services for one call of `profile` (the local server only if it needs one)."""
    from voxbench.pipelines.agent_builder import build_agent_services

    return build_agent_services(profile, server=server, check=False)
