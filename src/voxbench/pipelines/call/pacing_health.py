"""Pacing health of a live call, as `pacing` events: overload shows in the record, not silently.

Per side: ``late_chunks`` = chunks its output really sent more than the pacer's tolerance
(10 ms) after their slot on the sample clock (the sender's loop stalled; with continuous
output every such stall counts; on a `LogicalClockLoop` measured on the real clock, which the
stamps are not, and every chunk a stall held back counts), ``max_lateness_ms`` = the worst real lateness of any chunk, and
``underruns`` = holes the listener's track had to fill in that side's audio (a chunk
arriving more than its tolerance after the audio before it ran out).
"""

from __future__ import annotations

from typing import Any

from voxbench.processors.recorder import ConversationRecorder
from voxbench.records import PacingEvent
from voxbench.records.events import Channel


def pacing_events(rec: ConversationRecorder, outputs: dict[Channel, Any], t: float) -> list[PacingEvent]:
    """One event per side: ``outputs`` maps a channel to its output transport (or None)."""
    out = []
    for ch, transport in outputs.items():
        pacer = getattr(transport, "pacer", None)
        out.append(
            PacingEvent(
                t=t,
                side=ch,
                underruns=rec.tracks[ch].gaps,
                late_chunks=pacer.late if pacer is not None else 0,
                max_lateness_ms=round(1000 * pacer.max_late_s, 1) if pacer is not None else 0.0,
            )
        )
    return out
