"""The ``livekit`` section of an agent profile: which LiveKit agent to run, and how.

Kept free of livekit-agents (and of pipecat) so that profiles load, list and preflight on a
machine without the ``livekit`` extra; ``livekit_session.py`` is what imports LiveKit.

``agent`` names a factory as ``module:function`` (importable, e.g. ``my_bot.agent:build``)
or ``path/to/file.py:function`` (a relative path is resolved against the profiles YAML that
names it, or the working directory). The factory is called once per call, with no argument
or with a :class:`~voxbench.pipelines.agent.livekit_loader.LiveKitCall` (the scenario's
instructions and tools, for an agent that takes them from the benchmark), and returns a
LiveKit ``Agent`` (voxbench then builds ``AgentSession(**session_options)``) or an
``(AgentSession, Agent)`` pair (your own session; voxbench only sets its audio I/O).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class LiveKitAgentConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    agent: str = Field(description="module:factory or path/to/file.py:factory")
    session_options: dict[str, Any] = Field(
        default_factory=dict,
        description="keyword arguments of AgentSession (turn_handling, max_tool_steps, ...) when the "
        "factory returns an Agent",
    )
    greeting: Literal["say", "agent"] = Field(
        default="say",
        description="say: the session says the call's greeting when the caller connects; agent: the "
        "agent greets by itself (its on_enter), or not at all",
    )
    passthrough_tools: list[str] = Field(
        default_factory=list,
        description="tools that run the agent's own code (e.g. an end_call that hangs up); every other "
        "function tool runs on the scenario's database",
    )
    model: str = Field(default="", description="what the record names as the agent's model (free text)")
    shutdown_timeout_s: float = Field(default=5.0, gt=0)

    @field_validator("agent")
    @classmethod
    def _target(cls, v: str) -> str:
        module, sep, func = v.rpartition(":")
        if not sep or not module or not func.isidentifier():
            raise ValueError(f"livekit.agent must be 'module:factory' or 'file.py:factory', got {v!r}")
        return v

    def target(self) -> tuple[str, str]:
        """(module or file path, factory name)."""
        module, _, func = self.agent.rpartition(":")
        return module, func

    def is_file(self) -> bool:
        return self.target()[0].endswith(".py")

    def resolved_against(self, base_dir: Path) -> LiveKitAgentConfig:
        """A relative ``file.py`` target made absolute against ``base_dir`` (the profile file's)."""
        module, func = self.target()
        if not self.is_file() or Path(module).is_absolute():
            return self
        return self.model_copy(update={"agent": f"{(base_dir / module).resolve()}:{func}"})
