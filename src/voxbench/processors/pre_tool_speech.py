"""A short spoken line before a tool call when the agent's LLM said nothing first."""

from __future__ import annotations

from typing import Any

from pipecat.frames.frames import (
    Frame,
    FunctionCallsStartedFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    TTSSpeakFrame,
    UserStartedSpeakingFrame,
)
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor

from voxbench.processors.control import TRANSFER_TOOL


class PreToolSpeech(FrameProcessor):
    """Says a short line before a tool call when the LLM said nothing first.

    Sits right after the LLM; at most once per user turn, so a chain of tool calls
    gets one "one moment" rather than one per call.
    """

    def __init__(self, text: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.text = text
        self._said_text = False
        self._filled_this_turn = False

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, UserStartedSpeakingFrame):
            self._filled_this_turn = False
        elif isinstance(frame, LLMFullResponseStartFrame):
            self._said_text = False
        elif isinstance(frame, LLMTextFrame) and frame.text.strip():
            self._said_text = True
        await self.push_frame(frame, direction)
        if (
            isinstance(frame, FunctionCallsStartedFrame)
            and direction == FrameDirection.DOWNSTREAM
            and not self._said_text
            and not self._filled_this_turn
            and any(c.function_name != TRANSFER_TOOL for c in frame.function_calls)
        ):
            self._filled_this_turn = True
            await self.push_frame(TTSSpeakFrame(self.text))
