"""Speech sessions: one speaker's audio from start to end, with the text chunks heard in it.

Turn segmentation (`voxbench.eval.context`) and the inline interruption tags
(`voxbench.eval.tags`) both work on these, so they live apart from either.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

Who = Literal["user", "assistant"]
TEXT_KINDS = ("user_intended", "user_transcribed", "assistant_intended", "assistant_transcribed")


@dataclass
class HEvent:
    """One flattened history event. `kind` is audio_start/audio_end (with `who`), one of
    TEXT_KINDS (with `text`), tool_call/tool_response (with `name`, `data`), fallback
    (a turn-end fallback nudge), or end (the recording stopped)."""

    t: float
    kind: str
    who: Who | None = None
    text: str = ""
    name: str = ""
    data: Any = None


@dataclass
class Session:
    """One speaker's speech from `start` to `end`.

    `closed` is False when the history had no end for it (the recording stopped while it
    spoke; `end` is then the last event time). `texts` maps a text kind to its chunks
    `(t, text)` in arrival order.
    """

    who: Who
    start: float
    end: float
    closed: bool = True
    texts: dict[str, list[tuple[float, str]]] = field(default_factory=dict)
    turn: int = -1

    def spans(self, t: float) -> bool:
        """True when `t` lies strictly inside the session (touching ends do not count)."""
        return self.start < t < self.end


def pair_sessions(events: Iterable[HEvent], end_t: float) -> list[Session]:
    """Pair audio_start/audio_end per speaker; an unmatched start ends at `end_t`."""
    sessions: list[Session] = []
    open_: dict[str, Session] = {}
    for ev in events:
        if ev.kind == "audio_start" and ev.who and ev.who not in open_:
            s = Session(ev.who, ev.t, ev.t)
            open_[ev.who] = s
            sessions.append(s)
        elif ev.kind == "audio_end" and ev.who in open_:
            open_.pop(ev.who).end = ev.t
    for s in open_.values():  # a missing end uses the session-end timestamp
        s.end, s.closed = max(end_t, s.start), False
    return sessions


def nearest(sessions: list[Session], t: float) -> Session | None:
    """The session closest to `t` (distance 0 inside it); ties go to the earlier one."""
    best, best_d = None, float("inf")
    for s in sessions:
        d = 0.0 if s.start <= t <= s.end else min(abs(t - s.start), abs(t - s.end))
        if d < best_d:
            best, best_d = s, d
    return best
