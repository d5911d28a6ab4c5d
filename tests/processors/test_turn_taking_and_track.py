"""Barge-in / yield derivation and the timeline track (pure parts of the recorder)."""

from __future__ import annotations

import numpy as np

from voxbench.processors.audio_track import TimelineTrack, stereo_mix
from voxbench.processors.turn_taking import derive_turn_taking
from voxbench.records import BargeIn, Speech, Yield


def sp(t: float, ch: str, st: str) -> Speech:
    return Speech(t=t, channel=ch, state=st)  # type: ignore[arg-type]


def test_barge_in_and_yield() -> None:
    ev = [
        sp(0.0, "agent", "onset"),
        sp(1.0, "user", "onset"),  # user barges in
        sp(1.4, "agent", "offset"),  # agent yields
        sp(2.0, "user", "offset"),
        sp(3.0, "agent", "onset"),
        sp(4.0, "agent", "offset"),
    ]
    out = derive_turn_taking(ev)
    assert [(type(e).__name__, e.channel, e.t) for e in out] == [
        ("BargeIn", "user", 1.0),
        ("Yield", "agent", 1.4),
    ]


def test_talking_over_without_yield() -> None:
    ev = [
        sp(0.0, "agent", "onset"),
        sp(1.0, "user", "onset"),
        sp(1.5, "user", "offset"),
        sp(5.0, "agent", "offset"),
    ]
    out = derive_turn_taking(ev)
    assert any(isinstance(e, BargeIn) for e in out) and not any(isinstance(e, Yield) for e in out)


def test_track_is_contiguous_under_jitter_and_opens_real_gaps() -> None:
    tr = TimelineTrack(16000, tolerance_s=0.06)
    chunk = np.ones(640, dtype=np.int16)
    starts = [tr.add(chunk, t) for t in (0.0, 0.041, 0.079, 0.122)]
    assert starts == [0.0, 0.04, 0.08, 0.12]
    assert tr.add(chunk, 1.0) == 1.0 and tr.gaps == 1
    assert tr.samples().size == 16000 + 640
    mix = stereo_mix(tr.samples(), np.zeros(10, dtype=np.int16))
    assert mix.shape == (16640, 2)
