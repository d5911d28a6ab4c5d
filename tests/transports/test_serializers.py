"""Pitfall (a): only audio crosses the wire; a far-side interruption is a callback."""

from __future__ import annotations

import base64
import json
from types import SimpleNamespace
from typing import Any

import numpy as np
from pipecat.frames.frames import InputAudioRawFrame, InterruptionFrame, OutputAudioRawFrame, TextFrame
from pipecat.serializers.protobuf import ProtobufFrameSerializer
from pipecat.serializers.twilio import TwilioFrameSerializer

from voxbench.transports.serializers import (
    AudioOnlyProtobufSerializer,
    TwilioClientSerializer,
    _ulaw_decode,
    _ulaw_encode,
)


async def test_interruption_from_far_side_becomes_callback_not_frame() -> None:
    wire = await ProtobufFrameSerializer().serialize(InterruptionFrame())
    assert wire is not None  # pipecat does put interruptions on the wire
    hits: list[int] = []
    ser = AudioOnlyProtobufSerializer(on_interruption=lambda: hits.append(1))
    assert await ser.deserialize(wire) is None
    assert hits == [1]


async def test_only_audio_is_sent() -> None:
    ser = AudioOnlyProtobufSerializer()
    assert await ser.serialize(InterruptionFrame()) is None
    assert await ser.serialize(TextFrame("agent text must not reach the caller's TTS")) is None
    audio = OutputAudioRawFrame(b"\x01\x00" * 320, 16000, 1)
    data = await ser.serialize(audio)
    back = await AudioOnlyProtobufSerializer().deserialize(data)  # type: ignore[arg-type]
    assert isinstance(back, InputAudioRawFrame) and back.audio == audio.audio


async def test_closed_gate_drops_input() -> None:
    data = await ProtobufFrameSerializer().serialize(OutputAudioRawFrame(b"\x00\x00" * 320, 16000, 1))
    ser = AudioOnlyProtobufSerializer(accepting=False)
    assert await ser.deserialize(data) is None  # type: ignore[arg-type]
    ser.accepting = True
    assert isinstance(await ser.deserialize(data), InputAudioRawFrame)  # type: ignore[arg-type]


def test_ulaw_roundtrip_is_close() -> None:
    x = (np.sin(np.linspace(0, 60, 1600)) * 12000).astype(np.int16)
    y = _ulaw_decode(_ulaw_encode(x))
    assert np.max(np.abs(y.astype(int) - x.astype(int))) < 0.04 * 12000


async def test_twilio_client_against_pipecat_twilio_serializer() -> None:
    setup: Any = SimpleNamespace(audio_in_sample_rate=16000, audio_out_sample_rate=16000)
    hits: list[int] = []
    client = TwilioClientSerializer("MZ1", on_interruption=lambda: hits.append(1))
    await client.setup(setup)
    agent = TwilioFrameSerializer(
        stream_sid="MZ1", params=TwilioFrameSerializer.InputParams(auto_hang_up=False, sample_rate=16000)
    )
    await agent.setup(setup)
    tone = (np.sin(np.arange(640 * 10) * 2 * np.pi * 300 / 16000) * 8000).astype(np.int16)
    got = 0
    for i in range(10):
        msg = await client.serialize(OutputAudioRawFrame(tone[i * 640 : (i + 1) * 640].tobytes(), 16000, 1))
        if msg is None:
            continue
        m = json.loads(msg)
        assert m["event"] == "media" and len(base64.b64decode(m["media"]["payload"])) > 0
        frame = await agent.deserialize(msg)
        if frame is not None:
            got += len(frame.audio)
    assert got > 0
    assert await client.deserialize(json.dumps({"event": "clear", "streamSid": "MZ1"})) is None
    assert hits == [1]
