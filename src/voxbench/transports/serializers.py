"""Serializers that let only audio cross the wire (pitfall a).

Pipecat's protobuf serializer also carries `InterruptionFrame` and text frames; a
pipecat *client* turns a far-side interruption into its own `InterruptionFrame`,
which cut the simulator's speech after ~0.3 s. A phone line carries sound only, so
here everything but audio is dropped, and an interruption signal from the far side
is reported through `on_interruption` (a free "far side interrupted" timestamp).

`accepting` gates input: pipecat's client connects during `setup()`, before its input
transport has an audio queue, so audio from a continuously streaming server arriving
in that window crashed the receive task (an extension of pitfall d). The caller opens
the gate once its pipeline has started.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable

import numpy as np
import soxr
from pipecat.frames.frames import (
    Frame,
    InputAudioRawFrame,
    InterruptionFrame,
    OutputAudioRawFrame,
)
from pipecat.processors.frame_processor import FrameProcessorSetup
from pipecat.serializers.base_serializer import FrameSerializer
from pipecat.serializers.protobuf import ProtobufFrameSerializer

InterruptionCallback = Callable[[], None]

TELEPHONY_RATE = 8000


class AudioOnlyProtobufSerializer(ProtobufFrameSerializer):
    """Protobuf audio frames only; far-side interruptions become a callback."""

    def __init__(self, on_interruption: InterruptionCallback | None = None, accepting: bool = True):
        super().__init__()
        self.on_interruption = on_interruption
        self.interruptions = 0
        self.accepting = accepting

    async def serialize(self, frame: Frame) -> str | bytes | None:
        if not isinstance(frame, OutputAudioRawFrame):
            return None
        return await super().serialize(frame)

    async def deserialize(self, data: str | bytes) -> Frame | None:
        if not self.accepting:
            return None
        frame = await super().deserialize(data)
        if isinstance(frame, InterruptionFrame):
            self.interruptions += 1
            if self.on_interruption is not None:
                self.on_interruption()
            return None
        return frame if isinstance(frame, InputAudioRawFrame) else None


def _ulaw_encode(pcm: np.ndarray) -> bytes:
    """G.711 mu-law, numpy (audioop is gone in Python 3.13)."""
    x = pcm.astype(np.int32)
    sign = (x < 0).astype(np.int32) << 7
    mag = np.minimum(np.abs(x), 32635) + 0x84
    exp = np.floor(np.log2(mag)).astype(np.int32) - 7
    exp = np.clip(exp, 0, 7)
    mant = (mag >> (exp + 3)) & 0x0F
    return (~(sign | (exp << 4) | mant) & 0xFF).astype(np.uint8).tobytes()


def _ulaw_decode(data: bytes) -> np.ndarray:
    u = ~np.frombuffer(data, dtype=np.uint8).astype(np.int32) & 0xFF
    sign = u & 0x80
    exp = (u >> 4) & 0x07
    mant = u & 0x0F
    mag = (((mant << 3) + 0x84) << exp) - 0x84
    return np.where(sign != 0, -mag, mag).astype(np.int16)


class TwilioClientSerializer(FrameSerializer):
    """The caller's end of a Twilio media stream (the agent runs pipecat's TwilioFrameSerializer).

    Sends `connected`/`start` on the first audio, then `media` events with 8 kHz mu-law
    payloads; decodes the agent's `media` events back to the pipeline rate and turns a
    `clear` event (Twilio's interruption) into the `on_interruption` callback.
    """

    def __init__(
        self,
        stream_sid: str = "MZvoxbench",
        on_interruption: InterruptionCallback | None = None,
        accepting: bool = True,
    ):
        super().__init__()
        self.accepting = accepting
        self.stream_sid = stream_sid
        self.on_interruption = on_interruption
        self.interruptions = 0
        self._rate = 16000
        self._started = False
        self._chunk = 0
        self._down: soxr.ResampleStream | None = None
        self._up: soxr.ResampleStream | None = None

    async def setup(self, setup: FrameProcessorSetup) -> None:  # type: ignore[override]
        self._rate = setup.audio_in_sample_rate or self._rate
        self._down = soxr.ResampleStream(self._rate, TELEPHONY_RATE, 1, dtype="int16", quality="LQ")
        self._up = soxr.ResampleStream(TELEPHONY_RATE, self._rate, 1, dtype="int16", quality="LQ")

    def start_messages(self) -> list[str]:
        return [
            json.dumps({"event": "connected", "protocol": "Call", "version": "1.0.0"}),
            json.dumps(
                {
                    "event": "start",
                    "streamSid": self.stream_sid,
                    "start": {
                        "streamSid": self.stream_sid,
                        "callSid": "CAvoxbench",
                        "tracks": ["inbound"],
                        "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1},
                    },
                }
            ),
        ]

    async def serialize(self, frame: Frame) -> str | bytes | None:
        if not isinstance(frame, OutputAudioRawFrame) or self._down is None:
            return None
        pcm = np.frombuffer(frame.audio, dtype=np.int16)
        low = self._down.resample_chunk(pcm)
        if low.size == 0:
            return None
        self._chunk += 1
        msg = {
            "event": "media",
            "streamSid": self.stream_sid,
            "media": {
                "track": "inbound",
                "chunk": str(self._chunk),
                "payload": base64.b64encode(_ulaw_encode(low)).decode(),
            },
        }
        return json.dumps(msg)

    async def deserialize(self, data: str | bytes) -> Frame | None:
        if not self.accepting:
            return None
        try:
            msg = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError):
            return None
        event = msg.get("event")
        if event == "clear":
            self.interruptions += 1
            if self.on_interruption is not None:
                self.on_interruption()
            return None
        if event != "media" or self._up is None:
            return None
        payload = msg.get("media", {}).get("payload")
        if not payload:
            return None
        pcm = self._up.resample_chunk(_ulaw_decode(base64.b64decode(payload)))
        if pcm.size == 0:
            return None
        return InputAudioRawFrame(
            audio=pcm.astype(np.int16).tobytes(), sample_rate=self._rate, num_channels=1
        )
