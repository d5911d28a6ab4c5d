"""Constructing the two ends of the wire and the VAD analyzers from config."""

from __future__ import annotations

from collections.abc import Callable

from pipecat.audio.vad.silero import SileroVADAnalyzer
from pipecat.audio.vad.vad_analyzer import VADAnalyzer, VADParams
from pipecat.serializers.base_serializer import FrameSerializer
from pipecat.serializers.twilio import TwilioFrameSerializer
from pipecat.transports.websocket.client import WebsocketClientTransport
from pipecat.transports.websocket.server import SingleClientWebsocketServerTransport

from voxbench.pipelines.config import VADConfig
from voxbench.processors.vad import EnergyVADAnalyzer, WebRTCVADAnalyzer
from voxbench.transports.config import WireConfig
from voxbench.transports.pacing import AudioTransform, ContinuousMixer
from voxbench.transports.pairing import client_params, server_params
from voxbench.transports.serializers import AudioOnlyProtobufSerializer, TwilioClientSerializer

STREAM_SID = "MZvoxbench0000000000000000000000"


def make_vad(cfg: VADConfig, sample_rate: int) -> VADAnalyzer:
    params = VADParams(
        confidence=cfg.confidence,
        start_secs=cfg.start_secs,
        stop_secs=cfg.stop_secs,
        min_volume=cfg.min_volume,
    )
    if cfg.engine == "webrtc":
        return WebRTCVADAnalyzer(sample_rate=sample_rate, params=params)
    if cfg.engine == "energy":
        return EnergyVADAnalyzer(sample_rate=sample_rate, params=params)
    return SileroVADAnalyzer(sample_rate=sample_rate, params=params)


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


def make_server(wire: WireConfig, port: int) -> SingleClientWebsocketServerTransport:
    """The agent's end. Its output is continuous too, like a phone line."""
    mixer = ContinuousMixer() if wire.continuous_output else None
    return SingleClientWebsocketServerTransport(
        params=server_params(agent_serializer(wire), wire.sample_rate, mixer), host=wire.host, port=port
    )


def make_client(
    wire: WireConfig,
    port: int,
    serializer: AudioOnlyProtobufSerializer | TwilioClientSerializer,
    transform: AudioTransform | None = None,
) -> WebsocketClientTransport:
    """The simulator's end: continuous output (and the perturbation hook)."""
    mixer = ContinuousMixer(transform) if wire.continuous_output else None
    return WebsocketClientTransport(
        uri=f"ws://{wire.host}:{port}", params=client_params(serializer, wire.sample_rate, mixer)
    )
