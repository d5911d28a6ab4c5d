"""Starts a realtime (speech-to-speech) session's first response when the caller connects."""

from __future__ import annotations

from typing import Any

from pipecat.frames.frames import Frame, LLMRunFrame, TTSSpeakFrame
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor


class Kickoff(FrameProcessor):
    """Starts the realtime session's first response when the caller connects (once)."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.started = False

    async def kick(self) -> None:
        if not self.started:
            self.started = True
            await self.push_frame(LLMRunFrame())

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, TTSSpeakFrame) and direction == FrameDirection.DOWNSTREAM:
            await self.kick()  # the greeting: spoken by the model, from its instructions
            return
        await self.push_frame(frame, direction)
