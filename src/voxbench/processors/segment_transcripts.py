"""A segmented STT's transcript is final only when it covers every segment heard so far.

A segmented STT (pipecat's ``SegmentedSTTService``: local whisper) transcribes each stretch of
speech once the VAD stops, one transcript per segment, in order, and marks each one
``finalized``. Pipecat's turn-stop strategies read that flag as "the recogniser has nothing more
to send" and end the turn at the next VAD stop without waiting for words. When the speaker's
next segment starts before the last one's transcript is in (whisper takes 0.5-1.5 s on shared
cores; a voice leaves 0.2-0.5 s between sentences), that late transcript lands inside the next
segment, sets the flag, and the turn ends at the next stop with the words of every segment but
its last; the last comes as a turn of its own. The simulated caller then answered one agent turn
twice, the second answer contradicting the first (live bb.2, 2026-12-06: "No, that's not my
flight." to the read-back, then "Yes. ..." to the offer said right after it).

This processor sits between the STT and the user aggregator and keeps the ledger: a segment
opens at the VAD's start (seen travelling upstream, where the aggregator broadcasts it) and
closes with its transcript; a transcript is left ``finalized`` only when no segment is open. A
segment that yields no words never closes, so the ledger is cleared when a turn ends (the
strategy's safety net, ``ttfs_p99_latency``, ended it without those words).
"""

from __future__ import annotations

from typing import Any

from pipecat.frames.frames import (
    Frame,
    TranscriptionFrame,
    UserStoppedSpeakingFrame,
    VADUserStartedSpeakingFrame,
)
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor


class SegmentTranscripts(FrameProcessor):
    """Marks a transcript final only when every segment heard has its transcript (module
    docstring). ``open_segments``: segments started whose transcript has not come."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.open_segments = 0

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        upstream = direction == FrameDirection.UPSTREAM
        if isinstance(frame, VADUserStartedSpeakingFrame) and upstream:
            self.open_segments += 1
        elif isinstance(frame, UserStoppedSpeakingFrame) and upstream:
            self.open_segments = 0  # the turn ended: what it waited for is not coming in it
        elif isinstance(frame, TranscriptionFrame) and not upstream:
            self.open_segments = max(0, self.open_segments - 1)
            frame.finalized = frame.finalized and self.open_segments == 0
        await self.push_frame(frame, direction)
