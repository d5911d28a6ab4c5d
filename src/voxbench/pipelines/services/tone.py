"""A synthetic "voice" for plumbing runs: a voiced buzz as long as the text, no model.

`voxbench selftest --voices tone` re-enacts reference conversations with it, so the
whole live path (paced WebSocket audio, VAD, turn detection, tool calls, recorder, eval)
runs at almost no CPU cost. Nothing can transcribe it; the speech-fidelity metrics of
such a run are unscored. The signal is harmonics of ``f0`` under a 4 Hz syllable
envelope, loud enough for every VAD engine; two voices differ by ``f0`` and say so in
their ``voice_id``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

import numpy as np
from pipecat.frames.frames import Frame, TTSAudioRawFrame
from pipecat.services.settings import TTSSettings
from pipecat.services.tts_service import TTSService


def tone_speech(duration_s: float, sample_rate: int, f0: float, level_db: float = -14.0) -> np.ndarray:
    """int16 voiced-speech-like signal of ``duration_s``."""
    n = max(1, round(duration_s * sample_rate))
    t = np.arange(n) / sample_rate
    sig = sum(np.sin(2 * np.pi * f0 * k * t) / k for k in range(1, 8))
    sig = sig * (0.6 + 0.4 * np.sin(2 * np.pi * 4.0 * t) ** 2)
    sig = sig / (np.max(np.abs(sig)) or 1.0)
    return np.asarray(sig * 32767 * 10 ** (level_db / 20), dtype=np.int16)


class ToneTTSService(TTSService):
    """Speaks any text as ``seconds_per_char`` of buzz per character (bounded), after ``delay_s``."""

    def __init__(
        self,
        *,
        f0: float = 140.0,
        seconds_per_char: float = 0.02,
        min_s: float = 0.3,
        max_s: float = 2.5,
        delay_s: float = 0.05,
        **kwargs: Any,
    ):
        super().__init__(
            push_start_frame=True,
            push_stop_frames=True,
            stop_frame_timeout_s=max(0.5, 4 * delay_s),
            settings=TTSSettings(model="tone", voice=f"tone:{f0:g}Hz", language=None),
            **kwargs,
        )
        self.f0 = f0
        self.seconds_per_char = seconds_per_char
        self.min_s, self.max_s, self.delay_s = min_s, max_s, delay_s

    @property
    def voice_id(self) -> str:
        return f"tone:{self.f0:g}Hz"

    def can_generate_metrics(self) -> bool:
        return True

    def duration_of(self, text: str) -> float:
        return min(self.max_s, max(self.min_s, self.seconds_per_char * len(text.strip())))

    async def run_tts(self, text: str, context_id: str) -> AsyncGenerator[Frame | None, None]:
        await asyncio.sleep(self.delay_s)
        pcm = tone_speech(self.duration_of(text), self.sample_rate, self.f0)
        await self.stop_ttfb_metrics()
        yield TTSAudioRawFrame(pcm.tobytes(), self.sample_rate, 1, context_id=context_id)
