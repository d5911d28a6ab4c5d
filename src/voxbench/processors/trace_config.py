"""How the trace caller takes turns (pure pydantic). Its ear is :class:`.caller_turns.VoiceTurns`,
its timing ``pipelines/caller/trace_simulator.TraceTiming``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class TraceSimConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    turn_gap_s: float = Field(default=1.5, gt=0, le=30, description="agent silence that ends its turn")
    no_greeting_s: float = Field(
        default=6.0, gt=0, le=60, description="speak first if the agent says nothing"
    )
    reply_timeout_s: float = Field(
        default=45.0, gt=0, le=300, description="speak on if the agent never answers"
    )
    max_lines: int | None = Field(default=None, ge=1, description="speak only the first N reference lines")
    follow_trace_turns: bool = Field(
        default=True,
        description="wait for as many agent turns as the reference trace has before each line (a hold "
        "line per unannounced tool call), so the caller does not answer into the silence of a tool call",
    )
    hold_max_s: float = Field(
        default=1.6,
        gt=0,
        le=30,
        description="an agent turn with more speech than this is an answer, not a hold ('One moment "
        "please.' is about 1 s)",
    )
    hold_gap_s: float = Field(
        default=12.0, gt=0, le=300, description="after a hold, speak anyway once the agent is quiet this long"
    )
