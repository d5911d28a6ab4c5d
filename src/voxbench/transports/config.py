"""Wire configuration (pure pydantic): the loopback wire, VAD on it, and how to reach an external agent."""

from __future__ import annotations

import os
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from voxbench.transports.loopback import require_loopback


class WireConfig(BaseModel):
    """How audio travels between the simulator and the agent under test."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["pcm16", "telephony"] = Field(
        default="pcm16",
        description="pcm16: raw 16-bit PCM in protobuf frames; telephony: Twilio media-stream JSON, mu-law 8 kHz",
    )
    sample_rate: int = Field(default=16000, description="pipeline rate on both ends (Silero: 8k or 16k)")
    host: str = Field(
        default="127.0.0.1", description="loopback only: both ends of the wire are on this machine"
    )
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

    @field_validator("host")
    @classmethod
    def _loopback(cls, v: str) -> str:
        return require_loopback(v, "wire.host")


class VADConfig(BaseModel):
    """Voice activity detection on a pipeline's input (Silero, WebRTC or plain energy)."""

    model_config = ConfigDict(extra="forbid")

    engine: Literal["silero", "webrtc", "energy"] = "silero"
    confidence: float = Field(default=0.7, ge=0, le=1)
    start_secs: float = Field(default=0.2, ge=0, le=2)
    stop_secs: float = Field(default=0.2, ge=0, le=3)
    min_volume: float = Field(default=0.6, ge=0, le=1)


class ExternalAgentConfig(BaseModel):
    """An agent reached over a WebSocket; tools through the HTTP bridge (docs/external-agents.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str = Field("ws://127.0.0.1:8765", description="the agent's WebSocket URL")
    url_env: str | None = Field(
        "VOXBENCH_EXTERNAL_AGENT_URL", description="when this variable is set it overrides url"
    )
    protocol: Literal["pcm16", "twilio"] = Field(
        "pcm16", description="pcm16: pipecat protobuf audio frames; twilio: Twilio media-stream JSON"
    )
    sample_rate: int = Field(16000, description="pcm16 rate on the agent's wire")
    tool_bridge: bool = True
    tool_bridge_host: str = Field("127.0.0.1", description="loopback unless tool_bridge_allow_remote")
    tool_bridge_allow_remote: bool = Field(
        False,
        description="let the bridge listen on a non-loopback tool_bridge_host (an agent in a container or"
        " on another machine); the bridge has no authentication and changes the scenario's database",
    )
    tool_bridge_port: int = Field(0, ge=0, le=65535, description="0: a free port, announced in-band")
    connect_timeout_s: float = Field(10.0, gt=0, le=120)
    headers_env: dict[str, str] = Field(
        default_factory=dict, description="HTTP header -> variable holding its value (e.g. auth)"
    )

    @model_validator(mode="after")
    def _bridge_on_loopback(self) -> ExternalAgentConfig:
        if not self.tool_bridge_allow_remote:
            require_loopback(
                self.tool_bridge_host, "external.tool_bridge_host", "external.tool_bridge_allow_remote"
            )
        return self

    def resolved_url(self) -> str:
        if self.url_env and os.environ.get(self.url_env):
            return os.environ[self.url_env]
        return self.url
