"""Barge-ins and yields derived from stamped speech (pure; no pipecat).

A barge-in is one channel's speech onset while the other channel is speaking. A yield
is the interrupted channel falling silent within `yield_window_s` of that barge-in,
while the barging channel still speaks (or just stopped).
"""

from __future__ import annotations

from collections.abc import Iterable

from voxbench.records import BargeIn, Speech, Yield


def derive_turn_taking(
    speech: Iterable[Speech], yield_window_s: float = 2.0, min_overlap_s: float = 0.0
) -> list[BargeIn | Yield]:
    marks = sorted(speech, key=lambda e: (e.t, 0 if e.state == "offset" else 1))
    speaking: dict[str, float | None] = {"user": None, "agent": None}
    pending: dict[str, float] = {}  # interrupted channel -> barge-in time
    out: list[BargeIn | Yield] = []
    for e in marks:
        other = "agent" if e.channel == "user" else "user"
        if e.state == "onset":
            speaking[e.channel] = e.t
            other_start = speaking[other]
            if other_start is not None and e.t - other_start >= min_overlap_s:
                out.append(BargeIn(t=e.t, side="harness", channel=e.channel))
                pending[other] = e.t
        else:
            speaking[e.channel] = None
            t_barge = pending.pop(e.channel, None)
            if t_barge is not None and e.t - t_barge <= yield_window_s:
                out.append(Yield(t=e.t, side="harness", channel=e.channel))
    return out
