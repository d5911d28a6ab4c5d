"""A silence the harness left in the caller's line, as a frame the recorder writes.

The caller's local TTS releases a line sentence by sentence (``pipelines/services/playout.py``);
on a machine slower than real time a pause at a sentence boundary, or before the first word,
lasts longer than the voice would make it. The TTS pushes this frame right before the audio
chunk that ends the silence, so the recorder (an observer) stamps it at the release on the
call's clock and writes a typed ``harness_pause`` event starting ``duration_s`` earlier, the
same way a ``FallbackNudgeFrame`` becomes a ``fallback_nudge`` event. A line withdrawn or cut
off while held (the caller driver withdraws a line the agent started speaking over before its
first word) ends the silence without a release: the TTS then pushes the frame at once with the
part of the silence that played (``LocalTTSService.process_frame``), so the pause the agent
spoke into is in the record even though the line never resumed.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipecat.frames.frames import DataFrame


@dataclass
class HarnessPauseFrame(DataFrame):
    """``duration_s`` of silence past the natural pause before sentence ``sentence`` (0: before
    the first word) of ``line``, the text the TTS was given."""

    duration_s: float = 0.0
    sentence: int = 0
    line: str = ""
