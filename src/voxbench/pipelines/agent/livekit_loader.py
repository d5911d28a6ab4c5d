"""Finding and calling a LiveKit agent's factory (``module:function`` or ``file.py:function``).

The factory receives, when it takes an argument, a :class:`LiveKitCall`: what the benchmark
gives an agent that reads its policy and tools from the scenario (the example agent does;
a team's own agent usually ignores it and keeps its own instructions).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voxbench.pipelines.agent.livekit_config import LiveKitAgentConfig


@dataclass(frozen=True)
class LiveKitCall:
    """One call, as the agent's factory may see it."""

    instructions: str
    """The scenario's agent policy, the phone style and today's date."""
    tools: list[dict[str, Any]] = field(default_factory=list)
    """The scenario's tools as OpenAI function schemas ``{"type": "function", "function": {...}}``."""
    greeting: str | None = None
    domain: str = ""
    current_date_time: str = ""
    llm_base_url: str | None = None
    """An OpenAI-compatible endpoint voxbench started for this run (the embedded llama.cpp
    server), when the profile asked for one; None otherwise."""
    llm_model: str | None = None
    """The model name that server answers to."""

    @property
    def tool_names(self) -> list[str]:
        return [t["function"]["name"] for t in self.tools]


def target_available(cfg: LiveKitAgentConfig) -> tuple[bool, str]:
    """Whether the factory's module can be found, without importing it; and a reason if not."""
    module, _ = cfg.target()
    if cfg.is_file():
        return (Path(module).is_file(), f"agent file {module} not found")
    try:
        found = importlib.util.find_spec(module) is not None
    except (ModuleNotFoundError, ValueError):
        found = False
    return found, f"agent module {module} is not importable (not installed, or not on PYTHONPATH)"


def load_factory(cfg: LiveKitAgentConfig) -> Any:
    """The factory function; a clear error naming the target when it is missing."""
    module_name, func = cfg.target()
    if cfg.is_file():
        path = Path(module_name)
        if not path.is_file():
            raise ValueError(f"livekit.agent: file {path} not found")
        name = f"voxbench_livekit_agent_{hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:10]}"
        module = sys.modules.get(name)
        if module is None:
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
    else:
        module = importlib.import_module(module_name)
    factory = getattr(module, func, None)
    if not callable(factory):
        raise ValueError(f"livekit.agent: {cfg.agent} is not a function")
    return factory


async def call_factory(factory: Any, call: LiveKitCall) -> Any:
    """``factory()`` or ``factory(call)`` (whichever it takes), awaited if it is async."""
    params = [
        p
        for p in inspect.signature(factory).parameters.values()
        if p.default is inspect.Parameter.empty
        and p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    out = factory(call) if params else factory()
    if inspect.isawaitable(out):
        out = await out
    return out
