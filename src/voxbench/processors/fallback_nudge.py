"""The turn-end fallback nudge (EVA's `turn_end_fallback_time`), as a frame and its sender.

When the agent has finished speaking and the caller stays silent, a real voice agent
re-prompts ("are you still there?"). The silence timer is pipecat's own user-idle
detection in the user aggregator (it already knows about bot speech, caller turns and
pending tool calls); when it fires, `FallbackNudger.nudge()` pushes a
`FallbackNudgeFrame` into the aggregator: an ordinary `LLMMessagesAppendFrame` (a
developer message, and run the LLM) that also says how long the caller was silent, so
the recorder can write it as a typed `fallback_nudge` event. The nudger sits right
before the user aggregator and holds no timer of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from pipecat.frames.frames import Frame, LLMMessagesAppendFrame, UserStartedSpeakingFrame
from pipecat.processors.aggregators.llm_context import LLMContextMessage
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor

NUDGE_PROMPT = (
    "The caller has said nothing for {silence:.0f} seconds since you finished speaking. "
    "Re-prompt them in one short sentence: check they are still there, or repeat your last "
    "question briefly."
)
MAX_CONSECUTIVE_NUDGES = 2


@dataclass
class FallbackNudgeFrame(LLMMessagesAppendFrame):
    """A nudge to the agent's LLM after `silence_s` of caller silence."""

    silence_s: float = 0.0


class FallbackNudger(FrameProcessor):
    """Pushes a nudge downstream on request, at most `max_consecutive` times in a row.

    The cap resets when the caller starts a turn; without it an agent would keep
    re-prompting a caller who is gone and the call would never reach its inactivity end.
    """

    def __init__(self, silence_s: float, max_consecutive: int = MAX_CONSECUTIVE_NUDGES, **kwargs: Any):
        super().__init__(**kwargs)
        self.silence_s = silence_s
        self.max_consecutive = max_consecutive
        self.sent = 0
        self._in_a_row = 0

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, UserStartedSpeakingFrame):
            self._in_a_row = 0
        await self.push_frame(frame, direction)

    async def nudge(self) -> bool:
        """Send one nudge unless the cap is reached; True when one was sent."""
        if self._in_a_row >= self.max_consecutive:
            return False
        self._in_a_row += 1
        self.sent += 1
        message = cast(
            LLMContextMessage, {"role": "developer", "content": NUDGE_PROMPT.format(silence=self.silence_s)}
        )
        await self.push_frame(FallbackNudgeFrame(messages=[message], run_llm=True, silence_s=self.silence_s))
        return True
