"""Scripted stand-ins for the bot's STT, LLM and TTS (``--fake-services``), so a CI test can
run the whole bot (its transport, serializer, aggregators and tool calls) in seconds with no
model. Each subclasses pipecat's real base class, so the pipeline around it is the real one.

* ``ScriptedSTT``: each speech segment the VAD cuts becomes the transcript ``(caller)``.
* ``ScriptedLLM``: each inference is the next reply of a script (text and/or tool calls);
  tool calls go through pipecat's function-calling machinery, i.e. to the tool bridge.
* ``BuzzTTS``: any text as a voiced buzz of text-length duration (a speech-like signal the
  caller's VAD hears).
* ``EnergyVAD``: a plain energy gate (Silero hears no speech in a buzz).

A script is JSON: ``[{"text": "...", "tool_calls": [["get_reservation", {...}]]}, ...]``;
after its last reply the LLM says ``DEFAULT_REPLY``.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

import numpy as np
from pipecat.audio.vad.vad_analyzer import VADAnalyzer, VADParams
from pipecat.frames.frames import (
    Frame,
    FunctionCallFromLLM,
    LLMContextFrame,
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    TranscriptionFrame,
    TTSAudioRawFrame,
)
from pipecat.processors.frame_processor import FrameDirection
from pipecat.services.llm_service import LLMService
from pipecat.services.settings import STTSettings, TTSSettings
from pipecat.services.stt_service import SegmentedSTTService
from pipecat.services.tts_service import TTSService
from pipecat.utils.time import time_now_iso8601

from voxbench.pipelines.agent.reference import blank_llm_settings

DEFAULT_SCRIPT: list[dict[str, Any]] = [
    {"text": "Sure. Could I have your confirmation code and last name, please?"},
    {"text": "Thank you. Is there anything else I can help you with?"},
]
DEFAULT_REPLY = "I see. Is there anything else I can help you with?"


def load_script(path: str | None) -> list[dict[str, Any]]:
    if not path:
        return list(DEFAULT_SCRIPT)
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise ValueError(f"{path}: a fake LLM script is a JSON list of {{text, tool_calls}} objects")
    return data


class EnergyVAD(VADAnalyzer):
    """Speech = 20 ms windows louder than ``threshold`` (int16 RMS)."""

    def __init__(self, *, sample_rate: int | None = None, threshold: float = 500.0):
        super().__init__(sample_rate=sample_rate, params=VADParams(start_secs=0.1, stop_secs=0.25))
        self.threshold = threshold

    def num_frames_required(self) -> int:
        return int(self.sample_rate * 0.02)

    def voice_confidence(self, buffer: bytes) -> float:
        x = np.frombuffer(buffer, dtype=np.int16).astype(np.float32)
        return 1.0 if x.size and float(np.sqrt(np.mean(x * x))) > self.threshold else 0.0


class ScriptedSTT(SegmentedSTTService):
    def __init__(self, **kwargs: Any):
        super().__init__(settings=STTSettings(model="scripted", language=None), **kwargs)

    async def run_stt(self, audio: bytes) -> AsyncGenerator[Frame | None, None]:
        yield TranscriptionFrame("(caller)", "user", time_now_iso8601())


class ScriptedLLM(LLMService):
    def __init__(self, script: list[dict[str, Any]], **kwargs: Any):
        super().__init__(
            settings=blank_llm_settings("scripted"),
            **kwargs,
        )
        self._script = iter(script)
        self._ids = itertools.count(1)

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if not isinstance(frame, LLMContextFrame):
            await self.push_frame(frame, direction)
            return
        reply: dict[str, Any] = next(self._script, {"text": DEFAULT_REPLY})
        await self.push_frame(LLMFullResponseStartFrame())
        if reply.get("text"):
            await self.push_frame(LLMTextFrame(reply["text"]))
        await self.push_frame(LLMFullResponseEndFrame())
        calls = reply.get("tool_calls") or []
        if calls:
            await self.run_function_calls(
                [
                    FunctionCallFromLLM(
                        function_name=name,
                        tool_call_id=f"call_{next(self._ids)}",
                        arguments=args,
                        context=frame.context,
                    )
                    for name, args in calls
                ]
            )


class BuzzTTS(TTSService):
    def __init__(self, *, f0: float = 120.0, **kwargs: Any):
        super().__init__(
            push_start_frame=True,
            push_stop_frames=True,
            stop_frame_timeout_s=0.5,
            settings=TTSSettings(model="buzz", voice="buzz", language=None),
            **kwargs,
        )
        self.f0 = f0

    async def run_tts(self, text: str, context_id: str) -> AsyncGenerator[Frame | None, None]:
        seconds = min(2.5, max(0.3, 0.02 * len(text.strip())))
        n = round(seconds * self.sample_rate)
        t = np.arange(n) / self.sample_rate
        sig = sum(np.sin(2 * np.pi * self.f0 * k * t) / k for k in range(1, 8))
        sig = sig * (0.6 + 0.4 * np.sin(2 * np.pi * 4.0 * t) ** 2)
        pcm = (sig / (np.max(np.abs(sig)) or 1.0) * 32767 * 0.2).astype(np.int16)
        yield TTSAudioRawFrame(pcm.tobytes(), self.sample_rate, 1, context_id=context_id)
