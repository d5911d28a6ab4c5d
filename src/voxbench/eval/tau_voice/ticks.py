"""τ-voice tick trajectories <-> timelines.

A full-duplex τ-voice simulation is a list of ticks; each tick's `user_chunk` and
`agent_chunk` say whether that side produced speech (`contains_speech`), the user
simulator's decision (`turn_taking_action.action`) and injected speech inserts
(`speech_effects.speech_insert` / `source_effects.speech_insert`, with a `type` of
`vocal_tic` or `non_directed_phrase`). Only these fields are read; the rest is kept as is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from voxbench.eval.tau_voice.timeline import Effect, Timeline, UserSegment

INSERT_KINDS = {"vocal_tic": "vocal_tic", "non_directed_phrase": "non_directed"}
"""τ-voice's speech-insert types -> the panel's effect kinds."""


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow")


class SpeechInsert(_Loose):
    text: str = ""
    type: str


class Effects(_Loose):
    speech_insert: SpeechInsert | None = None


class TurnTakingAction(_Loose):
    action: str


class Chunk(_Loose):
    role: str = ""
    contains_speech: bool = False
    turn_taking_action: TurnTakingAction | None = None
    speech_effects: Effects | None = None
    source_effects: Effects | None = None

    def insert_kind(self) -> str | None:
        """The panel's kind of a speech insert on this chunk (vocal tic / non-directed), if any."""
        for eff in (self.speech_effects, self.source_effects):
            if eff is not None and eff.speech_insert is not None:
                kind = INSERT_KINDS.get(eff.speech_insert.type)
                if kind is not None:
                    return kind
        return None


class Tick(_Loose):
    tick_id: int
    user_chunk: Chunk | None = None
    agent_chunk: Chunk | None = None


class Simulation(_Loose):
    """One τ-voice simulation; `ticks` is empty for a half-duplex (text) one."""

    id: str = ""
    task_id: str = ""
    trial: int | None = None
    ticks: list[Tick] | None = None
    reward_info: dict[str, Any] | None = None

    @property
    def reward(self) -> float | None:
        r = (self.reward_info or {}).get("reward")
        return float(r) if isinstance(r, int | float) else None


@dataclass(frozen=True)
class Row:
    """What the panel reads of one tick: who speaks, the user's action, its insert kind."""

    user: bool
    agent: bool
    action: str | None
    insert: str | None


def rows_of(ticks: list[Tick]) -> list[Row]:
    out = []
    for t in ticks:
        u, a = t.user_chunk, t.agent_chunk
        action = u.turn_taking_action.action if u and u.turn_taking_action else None
        out.append(
            Row(
                bool(u and u.contains_speech),
                bool(a and a.contains_speech),
                action,
                u.insert_kind() if u else None,
            )
        )
    return out


def filter_end_of_conversation_ticks(rows: list[Row]) -> list[Row]:
    """The `###STOP###` signal leaves a spurious 1-tick user speech segment at the very end:
    drop it, so it cannot become a false no-yield event."""
    last_alone = len(rows) == 1 or (len(rows) > 1 and not rows[-2].user)
    if rows and rows[-1].user and last_alone:
        return rows[:-1]
    return rows


def _runs(flags: list[bool]) -> list[tuple[int, int]]:
    """Half-open [start, end) index runs of True."""
    out: list[tuple[int, int]] = []
    start: int | None = None
    for i, f in enumerate([*flags, False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            out.append((start, i))
            start = None
    return out


def timeline_from_ticks(ticks: list[Tick], dt: float) -> Timeline:
    """Segments on the tick grid: tick k covers [k*dt, (k+1)*dt)."""
    return timeline_from_rows(rows_of(ticks), dt)


def timeline_from_rows(rows: list[Row], dt: float) -> Timeline:
    """`timeline_from_ticks` on the rows the panel reads (the end-of-conversation filter first)."""
    rows = filter_end_of_conversation_ticks(rows)
    n = len(rows)
    user_on = [r.user for r in rows]
    users: list[UserSegment] = []
    for s, e in _runs(user_on):
        kinds = {r.insert for r in rows[s:e] if r.insert}
        users.append(UserSegment(s * dt, e * dt, rows[s].action, frozenset(kinds)))
    agent = tuple((s * dt, e * dt if e < n else None) for s, e in _runs([r.agent for r in rows]))
    effects: list[Effect] = []
    for i, r in enumerate(rows):
        if r.user or r.insert is None:
            continue
        prev = rows[i - 1] if i else None
        if prev is not None and not prev.user and prev.insert == r.insert:
            effects[-1] = Effect(effects[-1].start, (i + 1) * dt, r.insert)  # type: ignore[arg-type]
        else:
            effects.append(Effect(i * dt, (i + 1) * dt, r.insert))  # type: ignore[arg-type]
    return Timeline(tuple(users), agent, tuple(effects))
