"""τ-voice tick trajectories <-> timelines.

A full-duplex τ-voice simulation is a list of ticks; each tick's `user_chunk` and
`agent_chunk` say whether that side produced speech (`contains_speech`), the user
simulator's decision (`turn_taking_action.action`) and injected speech inserts
(`speech_effects.speech_insert` / `source_effects.speech_insert`, with a `type` of
`vocal_tic` or `non_directed_phrase`). Only these fields are read; the rest is kept as is.
"""

from __future__ import annotations

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


def _speaks(c: Chunk | None) -> bool:
    return c is not None and c.contains_speech


def filter_end_of_conversation_ticks(ticks: list[Tick]) -> list[Tick]:
    """The `###STOP###` signal leaves a spurious 1-tick user speech segment at the very end:
    drop it, so it cannot become a false no-yield event."""
    last_alone = len(ticks) == 1 or (len(ticks) > 1 and not _speaks(ticks[-2].user_chunk))
    if ticks and _speaks(ticks[-1].user_chunk) and last_alone:
        return ticks[:-1]
    return ticks


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
    ticks = filter_end_of_conversation_ticks(ticks)
    n = len(ticks)
    user_on = [_speaks(t.user_chunk) for t in ticks]
    agent_on = [_speaks(t.agent_chunk) for t in ticks]
    users: list[UserSegment] = []
    for s, e in _runs(user_on):
        first = ticks[s].user_chunk
        action = first.turn_taking_action.action if first and first.turn_taking_action else None
        kinds = {k for t in ticks[s:e] if t.user_chunk and (k := t.user_chunk.insert_kind())}
        users.append(UserSegment(s * dt, e * dt, action, frozenset(kinds)))
    agent = tuple((s * dt, e * dt if e < n else None) for s, e in _runs(agent_on))
    effects: list[Effect] = []
    for i, t in enumerate(ticks):
        kind = t.user_chunk.insert_kind() if t.user_chunk and not user_on[i] else None
        if kind is None:
            continue
        prev = ticks[i - 1].user_chunk if i else None
        if i and not user_on[i - 1] and prev is not None and prev.insert_kind() == kind:
            effects[-1] = Effect(effects[-1].start, (i + 1) * dt, kind)  # one insert over ticks
        else:
            effects.append(Effect(i * dt, (i + 1) * dt, kind))  # type: ignore[arg-type]
    return Timeline(tuple(users), agent, tuple(effects))
