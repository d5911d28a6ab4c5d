"""The event engine: τ-voice's detection rules on speech segments in seconds.

Both sides' speech is a list of half-open intervals ``[start, end)``. The user's carry what
τ-voice's segments carry (the turn-taking action of their first tick, the speech-insert
effects active during them); speech inserts outside user speech are *out-of-turn effects*.
The same rules score a tick trajectory (segments on the tick grid) and a voxbench call
(segments at the stamps' own resolution), so the two differ only in their input.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

EffectKind = Literal["vocal_tic", "non_directed"]
EventKind = Literal[
    "response",
    "no_response",
    "yield",
    "no_yield",
    "agent_interrupt",
    "backchannel_correct",
    "backchannel_error",
    "vocal_tic_correct",
    "vocal_tic_error",
    "non_directed_correct",
    "non_directed_error",
]
EPS = 1e-9
"""Window comparisons tolerate float error of tick arithmetic (5 * 0.2 is 1.0, 3 * 0.2 is not 0.6)."""


class Windows(BaseModel):
    """τ-voice's detection windows (its `interaction_metrics.config` block), seconds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tick_duration_sec: float | None = Field(default=0.2, description="None: native resolution")
    no_yield_window_sec: float = 2.0
    backchannel_yield_window_sec: float = 1.0
    vocal_tic_yield_window_sec: float = 1.0
    non_directed_yield_window_sec: float = 1.0
    vocal_tic_response_window_sec: float = 2.0
    non_directed_response_window_sec: float = 2.0

    def yield_window(self, kind: str) -> float:
        return {
            "backchannel": self.backchannel_yield_window_sec,
            "vocal_tic": self.vocal_tic_yield_window_sec,
            "non_directed": self.non_directed_yield_window_sec,
        }[kind]

    def response_window(self, kind: str) -> float:
        return {
            "vocal_tic": self.vocal_tic_response_window_sec,
            "non_directed": self.non_directed_response_window_sec,
        }[kind]


@dataclass(frozen=True)
class UserSegment:
    """Contiguous user speech: its first tick's action, and the effects active during it."""

    start: float
    end: float
    action: str | None = None
    effects: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Effect:
    """A speech insert outside user speech (τ-voice's out-of-turn source effect)."""

    start: float
    end: float
    kind: EffectKind


@dataclass(frozen=True)
class Timeline:
    """One conversation. An agent segment with ``end=None`` was still speaking at the end."""

    user: tuple[UserSegment, ...]
    agent: tuple[tuple[float, float | None], ...]
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class Event:
    """One detected event: when, what, and its latency (response / yield events)."""

    t: float
    kind: EventKind
    latency: float | None = None
    source: str = "user_segment"


@dataclass
class _Agent:
    starts: list[float] = field(default_factory=list)
    segs: list[tuple[float, float | None]] = field(default_factory=list)

    def containing(self, t: float) -> tuple[float, float | None] | None:
        """The agent segment speaking at time t (half-open: a segment ending at t is over)."""
        i = bisect.bisect_right(self.starts, t) - 1
        if i < 0:
            return None
        e = self.segs[i][1]
        return self.segs[i] if e is None or t < e else None

    def speaking_until(self, t: float) -> bool:
        """Whether the agent was speaking up to t (a segment with start < t <= end): on
        ticks, speaking at the tick before t."""
        i = bisect.bisect_left(self.starts, t) - 1
        if i < 0:
            return False
        e = self.segs[i][1]
        return e is None or t <= e

    def next_start(self, t: float) -> float | None:
        i = bisect.bisect_left(self.starts, t)
        return self.starts[i] if i < len(self.starts) else None


def classify(seg: UserSegment) -> str:
    """A user segment starting during agent speech: backchannel > vocal tic > non-directed >
    real interruption."""
    if seg.action == "backchannel":
        return "backchannel"
    if "vocal_tic" in seg.effects:
        return "vocal_tic"
    if "non_directed" in seg.effects:
        return "non_directed"
    return "interruption"


def _yielded_within(agent_seg: tuple[float, float | None], t: float, window: float) -> float | None:
    """Seconds from t until the agent stopped, if it stopped within the window (else None).
    An agent still speaking when the conversation ended did not stop."""
    end = agent_seg[1]
    if end is None or end - t > window + EPS:
        return None
    return end - t


def _selectivity(kind: str, t_start: float, t_end: float, agent: _Agent, w: Windows, src: str) -> Event:
    """A signal the agent should ignore: during its speech, yielding within the window is the
    error; in silence (out-of-turn effects only), responding within the window is."""
    seg = agent.containing(t_start)
    if seg is not None:
        err = _yielded_within(seg, t_start, w.yield_window(kind)) is not None
    else:
        nxt = agent.next_start(t_end)
        err = nxt is not None and nxt - t_end <= w.response_window(kind) + EPS
    return Event(t_start, f"{kind}_{'error' if err else 'correct'}", source=src)  # type: ignore[arg-type]


def detect(tl: Timeline, w: Windows) -> list[Event]:
    """Every event of one conversation, in time order (ties: the order rules run)."""
    agent = _Agent([s for s, _ in tl.agent], list(tl.agent))
    users = sorted(tl.user, key=lambda u: u.start)
    user_starts = [u.start for u in users]
    out: list[Event] = []
    for i, u in enumerate(users):
        seg = agent.containing(u.start)
        kind = classify(u) if seg is not None else "turn"
        if kind in ("backchannel", "vocal_tic", "non_directed"):
            out.append(_selectivity(kind, u.start, u.end, agent, w, "user_segment"))
        elif kind == "interruption":
            assert seg is not None
            lat = _yielded_within(seg, u.start, w.no_yield_window_sec)
            out.append(Event(u.start, "no_yield") if lat is None else Event(u.start, "yield", lat))
        if u.action == "backchannel" or agent.speaking_until(u.end):
            continue  # backchannels, and turns ending in agent speech, get no response
        nxt_user = user_starts[i + 1] if i + 1 < len(users) else None
        a = agent.next_start(u.end)
        if a is not None and (nxt_user is None or a < nxt_user):
            out.append(Event(u.end, "response", a - u.end))
        elif nxt_user is not None:
            out.append(Event(u.end, "no_response"))
    for s, _ in tl.agent:
        if any(u.start <= s < u.end for u in _around(users, user_starts, s)):
            out.append(Event(s, "agent_interrupt", source="agent_segment"))
    for e in tl.effects:
        out.append(_selectivity(e.kind, e.start, e.end, agent, w, "out_of_turn"))
    return sorted(out, key=lambda ev: ev.t)


def _around(users: list[UserSegment], starts: list[float], t: float) -> list[UserSegment]:
    """The user segment that may contain t (the last one starting at or before t)."""
    i = bisect.bisect_right(starts, t) - 1
    return [users[i]] if i >= 0 else []
