"""Speech sessions: one speaker's audio from start to end, with the text chunks heard in it.

Turn segmentation (`voxbench.eval.context`) and the inline interruption tags
(`voxbench.eval.tags`) both work on these, so they live apart from either.
"""

from __future__ import annotations

import bisect
import itertools
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


def _distance(s: Session, t: float) -> float:
    return 0.0 if s.start <= t <= s.end else min(abs(t - s.start), abs(t - s.end))


def nearest(sessions: list[Session], t: float) -> Session | None:
    """The session closest to `t` (distance 0 inside it); ties go to the earlier one."""
    best, best_d = None, float("inf")
    for s in sessions:
        d = _distance(s, t)
        if d < best_d:
            best, best_d = s, d
    return best


class NearestIndex:
    """`nearest()` in O(log n) over one speaker's sessions, as `pair_sessions` makes them
    from a time-sorted history: one after another, starts and ends both non-decreasing.

    Why: EVA records carry hundreds of TTS text chunks, and the linear scan per chunk was
    a large share of loading one. Then the distance is non-increasing over the sessions
    that start at or before `t` and non-decreasing over the later ones, so the answer is
    the last of the first group or the first of the second, moved back over equal
    distances to keep `nearest()`'s earliest-wins ties. Lists not in that order use the
    linear scan, so the result is always `nearest()`'s."""

    def __init__(self, sessions: list[Session]) -> None:
        self.sessions = sessions
        self.starts = [s.start for s in sessions]
        self.ordered = all(a.start <= b.start and a.end <= b.end for a, b in itertools.pairwise(sessions))

    def started_by(self, t: float) -> Session | None:
        """The last session that started at or before `t`, else `nearest()`: where a
        speech-to-text result belongs (it transcribes speech that had begun; it arrives
        after the audio, often nearer the speaker's next session than its own)."""
        starts = self.starts if self.ordered else sorted(s.start for s in self.sessions)
        i = bisect.bisect_right(starts, t) - 1
        if i < 0:
            return self(t)
        if self.ordered:
            return self.sessions[i]
        return max((s for s in self.sessions if s.start <= t), key=lambda s: s.start)

    def __call__(self, t: float) -> Session | None:
        ss = self.sessions
        if not self.ordered:
            return nearest(ss, t)
        if not ss:
            return None
        i = bisect.bisect_right(self.starts, t) - 1  # last session starting at or before t
        if i < 0:
            return ss[0]
        s = ss[i]
        if t <= s.end:  # inside it (it starts at or before t): distance 0
            if i == 0 or t > ss[i - 1].end:  # the common case, answered without _distance
                return s
            d = 0.0
        else:
            d = _distance(s, t)
            if i + 1 < len(ss) and _distance(ss[i + 1], t) < d:
                return ss[i + 1]
        while i > 0 and _distance(ss[i - 1], t) == d:
            i -= 1
        return ss[i]


class SpanIndex:
    """Which of one speaker's sessions hold a time strictly inside, or start within a span,
    in O(log n) when the sessions follow one another (each starts at or after the previous
    one's end, as `pair_sessions` makes them): then at most one holds a time, the last that
    starts before it, and the starts are sorted. Lists not in that order are scanned, so
    the answers are always the scans' (`Session.spans` over the list, in list order).

    Why: interruption tags and turn segmentation asked every session of the other speaker
    about every session of this one, about 500 checks per record (issue 18)."""

    def __init__(self, sessions: list[Session]) -> None:
        self.sessions = sessions
        self.starts = [s.start for s in sessions]
        self.ordered = all(s.start <= s.end for s in sessions) and all(
            a.end <= b.start for a, b in itertools.pairwise(sessions)
        )

    def containing(self, t: float) -> list[Session]:
        """`[o for o in sessions if o.spans(t)]`."""
        if not self.ordered:
            return [o for o in self.sessions if o.spans(t)]
        i = bisect.bisect_left(self.starts, t) - 1  # the last session starting before t
        return [self.sessions[i]] if i >= 0 and t < self.sessions[i].end else []

    def starting_inside(self, lo: float, hi: float) -> list[Session]:
        """`[o for o in sessions if lo < o.start < hi]`."""
        if not self.ordered:
            return [o for o in self.sessions if lo < o.start < hi]
        return self.sessions[bisect.bisect_right(self.starts, lo) : bisect.bisect_left(self.starts, hi)]
