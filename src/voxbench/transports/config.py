"""Wire configuration (pure pydantic)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class WireConfig(BaseModel):
    """How audio travels between the simulator and the agent under test."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["pcm16", "telephony"] = Field(
        default="pcm16",
        description="pcm16: raw 16-bit PCM in protobuf frames; telephony: Twilio media-stream JSON, mu-law 8 kHz",
    )
    sample_rate: int = Field(default=16000, description="pipeline rate on both ends (Silero: 8k or 16k)")
    host: str = "127.0.0.1"
    connect_timeout_s: float = Field(default=10.0, gt=0)
    gap_fill: bool = True
    continuous_output: bool = True
    chunk_ms: int = Field(
        default=40,
        ge=10,
        le=100,
        multiple_of=10,
        description="audio per websocket message (pipecat's audio_out_10ms_chunks x 10): speech can only start"
        " on a chunk boundary, so a chunk adds up to its length to when a voice starts being heard",
    )
