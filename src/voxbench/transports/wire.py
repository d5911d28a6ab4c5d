"""Constructing the two ends of the wire from config (VAD analyzers: :mod:`.vad`)."""

from __future__ import annotations

from collections.abc import Callable

from pipecat.serializers.base_serializer import FrameSerializer
from pipecat.serializers.twilio import TwilioFrameSerializer

from voxbench.transports.config import WireConfig
from voxbench.transports.paced import PacedWebsocketClientTransport, PacedWebsocketServerTransport
from voxbench.transports.pacing import AudioTransform, ContinuousMixer
from voxbench.transports.pairing import client_params, server_params
from voxbench.transports.serializers import AudioOnlyProtobufSerializer, TwilioClientSerializer

STREAM_SID = "MZvoxbench0000000000000000000000"


def agent_serializer(wire: WireConfig) -> FrameSerializer:
    if wire.mode == "telephony":
        return TwilioFrameSerializer(
            stream_sid=STREAM_SID,
            params=TwilioFrameSerializer.InputParams(auto_hang_up=False, sample_rate=wire.sample_rate),
        )
    return AudioOnlyProtobufSerializer()


def simulator_serializer(
    wire: WireConfig, on_interruption: Callable[[], None] | None
) -> AudioOnlyProtobufSerializer | TwilioClientSerializer:
    """Closed until the simulator pipeline has started (open it with `.accepting = True`)."""
    if wire.mode == "telephony":
        return TwilioClientSerializer(STREAM_SID, on_interruption=on_interruption, accepting=False)
    return AudioOnlyProtobufSerializer(on_interruption=on_interruption, accepting=False)


def make_server(wire: WireConfig, port: int) -> PacedWebsocketServerTransport:
    """The agent's end. Its output is continuous too, like a phone line, on its sample clock."""
    mixer = ContinuousMixer() if wire.continuous_output else None
    params = server_params(agent_serializer(wire), wire.sample_rate, mixer, wire.chunk_ms)
    return PacedWebsocketServerTransport(params=params, host=wire.host, port=port)


def make_client(
    wire: WireConfig,
    port: int,
    serializer: AudioOnlyProtobufSerializer | TwilioClientSerializer,
    transform: AudioTransform | None = None,
) -> PacedWebsocketClientTransport:
    """The simulator's end: continuous output on its sample clock (and the perturbation hook)."""
    mixer = ContinuousMixer(transform) if wire.continuous_output else None
    params = client_params(serializer, wire.sample_rate, mixer, wire.chunk_ms)
    return PacedWebsocketClientTransport(uri=f"ws://{wire.host}:{port}", params=params)
