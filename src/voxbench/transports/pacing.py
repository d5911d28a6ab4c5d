"""Continuous audio in both directions (pitfall b).

Pipecat's websocket output sends nothing while idle, so the far side's VAD only ends
speech via its 1 s `audio_idle_timeout`, and latencies come out 0.5-1.1 s wrong.
`ContinuousMixer` makes an output transport stream silence between utterances (and is
the hook where perturbations add noise); `GapFillProcessor` re-creates a continuous
stream on the receiving side when the far end (an external agent) goes quiet.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import numpy as np
from pipecat.audio.mixers.base_audio_mixer import BaseAudioMixer
from pipecat.frames.frames import (
    CancelFrame,
    EndFrame,
    Frame,
    InputAudioRawFrame,
    MixerControlFrame,
    StartFrame,
)
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor

AudioTransform = Callable[[np.ndarray], np.ndarray]


class ContinuousMixer(BaseAudioMixer):
    """A mixer that adds nothing but makes the output continuous.

    With any mixer set, pipecat's output transport emits a chunk every period,
    silence when nothing is queued. `transform` (int16 -> int16) sees every outgoing
    chunk, speech and silence alike: that is where noise perturbations belong.
    """

    def __init__(self, transform: AudioTransform | None = None):
        self.transform = transform
        self.sample_rate = 0
        self.chunks = 0

    async def start(self, sample_rate: int) -> None:
        self.sample_rate = sample_rate

    async def stop(self) -> None:
        pass

    async def process_frame(self, frame: MixerControlFrame) -> None:
        pass

    async def mix(self, audio: bytes) -> bytes:
        self.chunks += 1
        if self.transform is None:
            return audio
        pcm = np.frombuffer(audio, dtype=np.int16)
        return np.asarray(self.transform(pcm), dtype=np.int16).tobytes()


class GapFillProcessor(FrameProcessor):
    """Fills silence into received audio when the far end stops sending.

    Put right after an input transport. Received audio passes through untouched (no
    added latency); when no audio has covered the last `grace_s`, silence frames of
    `tick_s` are pushed until audio resumes, so VAD and turn detection downstream see
    a real-time stream.
    """

    def __init__(self, sample_rate: int, tick_s: float = 0.02, grace_s: float = 0.06, **kwargs):
        super().__init__(**kwargs)
        self._sr = sample_rate
        self._tick = tick_s
        self._grace = grace_s
        self._covered_until = 0.0
        self._task: asyncio.Task | None = None
        self.filled_s = 0.0

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, StartFrame):
            await self.push_frame(frame, direction)
            self._covered_until = asyncio.get_running_loop().time()
            if self._task is None:
                self._task = self.create_task(self._fill_loop())
            return
        if isinstance(frame, EndFrame | CancelFrame):
            await self._stop()
        elif isinstance(frame, InputAudioRawFrame) and direction == FrameDirection.DOWNSTREAM:
            dur = len(frame.audio) / 2 / frame.num_channels / frame.sample_rate
            self._covered_until = max(self._covered_until, asyncio.get_running_loop().time()) + dur
        await self.push_frame(frame, direction)

    async def cleanup(self) -> None:
        await self._stop()
        await super().cleanup()

    async def _stop(self) -> None:
        if self._task is not None:
            await self.cancel_task(self._task)
            self._task = None

    async def _fill_loop(self) -> None:
        n = round(self._sr * self._tick)
        silence = bytes(2 * n)
        while True:
            await asyncio.sleep(self._tick)
            now = asyncio.get_running_loop().time()
            while now > self._covered_until + self._grace:
                self._covered_until += self._tick
                self.filled_s += self._tick
                await self.push_frame(InputAudioRawFrame(audio=silence, sample_rate=self._sr, num_channels=1))
