"""Fake STT / TTS / LLM services driven by scripts.

- `FakeTTS` speaks any text as a harmonic buzz of text-length duration (a loud,
  speech-like, deterministic signal), after a scripted first-audio delay; each sentence
  may end in silence (``trailing_silence_s``), the pause a real voice leaves between them.
- `FakeSTT` is a segmented STT: each VAD-delimited segment yields the next scripted
  transcript.
- `FakeLLM` answers each inference with the next scripted reply: text, tool calls, or
  both, after a scripted delay. Tool calls go through pipecat's real function-calling
  machinery (`run_function_calls` -> registered handlers -> re-inference).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
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
from pipecat.metrics.metrics import LLMTokenUsage
from pipecat.processors.frame_processor import FrameDirection
from pipecat.services.llm_service import LLMService
from pipecat.services.settings import STTSettings, TTSSettings
from pipecat.services.stt_service import SegmentedSTTService
from pipecat.services.tts_service import TTSService
from pipecat.utils.time import time_now_iso8601

from voxbench.pipelines.agent.reference import blank_llm_settings

SECONDS_PER_CHAR = 0.02
MAX_SECONDS = 2.5


def buzz(duration_s: float, sample_rate: int, f0: float = 140.0, level_db: float = -14.0) -> np.ndarray:
    """A voiced-speech-like signal: harmonics of f0 with a 4 Hz syllable envelope."""
    n = max(1, round(duration_s * sample_rate))
    t = np.arange(n) / sample_rate
    sig = sum(np.sin(2 * np.pi * f0 * k * t) / k for k in range(1, 8))
    env = 0.6 + 0.4 * np.sin(2 * np.pi * 4.0 * t) ** 2
    sig = sig * env
    sig = sig / (np.max(np.abs(sig)) or 1.0)
    amp = 32767 * 10 ** (level_db / 20)
    return (sig * amp).astype(np.int16)


class FakeTTS(TTSService):
    def __init__(
        self,
        *,
        first_audio_delay_s: float = 0.05,
        f0: float = 140.0,
        stop_frame_timeout_s: float = 0.5,
        trailing_silence_s: float = 0.0,
        **kwargs: Any,
    ):
        # pipecat ends a TTS turn after stop_frame_timeout_s without audio: keep it above the delay
        super().__init__(
            push_start_frame=True,
            push_stop_frames=True,
            stop_frame_timeout_s=stop_frame_timeout_s,
            settings=TTSSettings(model="fake", voice="buzz", language=None),
            **kwargs,
        )
        self.delay = first_audio_delay_s
        self.f0 = f0
        self.trailing_silence_s = trailing_silence_s  # after each sentence, as a TTS pads its end
        self.spoken: list[str] = []

    def can_generate_metrics(self) -> bool:
        return True

    @staticmethod
    def duration_of(text: str) -> float:
        return min(MAX_SECONDS, max(0.3, SECONDS_PER_CHAR * len(text.strip())))

    async def run_tts(self, text: str, context_id: str) -> AsyncGenerator[Frame | None, None]:
        self.spoken.append(text)
        await asyncio.sleep(self.delay)
        pcm = buzz(self.duration_of(text), self.sample_rate, self.f0)
        if self.trailing_silence_s > 0:
            pcm = np.concatenate([pcm, np.zeros(round(self.trailing_silence_s * self.sample_rate), np.int16)])
        await self.stop_ttfb_metrics()
        yield TTSAudioRawFrame(pcm.tobytes(), self.sample_rate, 1, context_id=context_id)


class FakeSTT(SegmentedSTTService):
    def __init__(self, script: Sequence[str], *, latency_s: float = 0.05, **kwargs: Any):
        super().__init__(settings=STTSettings(model="fake", language=None), **kwargs)
        self._script = iter(list(script))
        self.latency = latency_s
        self.segments: list[float] = []

    @property
    def wants_wav_segments(self) -> bool:
        return False

    def can_generate_metrics(self) -> bool:
        return True

    async def run_stt(self, audio: bytes) -> AsyncGenerator[Frame | None, None]:
        self.segments.append(len(audio) / 2 / self.sample_rate)
        await asyncio.sleep(self.latency)
        text = next(self._script, None)
        if text:
            yield TranscriptionFrame(text, "user", time_now_iso8601())


@dataclass
class Reply:
    """One scripted inference: optional text, optional tool calls (name, args)."""

    text: str = ""
    tool_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    delay_s: float = 0.05
    crash: bool = False  # the model server dies: a permanent error, the service becomes unusable
    completion_tokens: int | None = None  # report usage (a pipecat MetricsFrame) when set
    reasoning_tokens: int | None = None


class FakeLLM(LLMService):
    def __init__(self, script: Sequence[Reply], **kwargs: Any):
        super().__init__(
            settings=blank_llm_settings("fake-llm"),
            **kwargs,
        )
        self._script = iter(list(script))
        self._ids = itertools.count(1)
        self.contexts: list[list[dict[str, Any]]] = []

    def can_generate_metrics(self) -> bool:
        return True

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if not isinstance(frame, LLMContextFrame):
            await self.push_frame(frame, direction)
            return
        self.contexts.append([dict(m) for m in frame.context.get_messages() if isinstance(m, dict)])
        reply = next(self._script, None)
        if reply is not None and reply.crash:
            await self.push_error("fake model server crashed", force_treat_as_permanent=True)
            return
        await self.push_frame(LLMFullResponseStartFrame())
        if reply is not None:
            await self.start_ttfb_metrics()
            await asyncio.sleep(reply.delay_s)
            await self.stop_ttfb_metrics()
            if reply.text:
                await self.push_frame(LLMTextFrame(reply.text))
            if reply.completion_tokens is not None:
                await self.start_llm_usage_metrics(
                    LLMTokenUsage(
                        prompt_tokens=100,
                        completion_tokens=reply.completion_tokens,
                        total_tokens=100 + reply.completion_tokens,
                        reasoning_tokens=reply.reasoning_tokens,
                    )
                )
        await self.push_frame(LLMFullResponseEndFrame())
        if reply is not None and reply.tool_calls:
            await self.run_function_calls(
                [
                    FunctionCallFromLLM(
                        function_name=name,
                        tool_call_id=f"call_{next(self._ids)}",
                        arguments=args,
                        context=frame.context,
                    )
                    for name, args in reply.tool_calls
                ]
            )
