"""A timeline on τ-voice's tick grid: the rows the panel reads, and τ-voice tick dicts (the
export's trajectory), from one rasterisation.

Tick k covers [k*dt, (k+1)*dt): a side speaks in a tick when any of its speech overlaps it;
a user speech run's first tick carries its segment's action (`backchannel`, else
`generate_message`), later speech ticks `keep_talking`, silent ticks `wait`; an in-turn
effect is a `speech_effects.speech_insert` on the ticks it overlaps, an out-of-turn effect a
`source_effects.speech_insert` on the tick it starts in (τ-voice marks one tick). A silent
tick ends the trajectory, so every segment ends inside it.
"""

from __future__ import annotations

import math
from typing import Any

from voxbench.eval.tau_voice.ticks import Row
from voxbench.eval.tau_voice.timeline import Timeline

INSERT_TYPES = {"vocal_tic": "vocal_tic", "non_directed": "non_directed_phrase"}


def _ticks_of(s: float, e: float, dt: float) -> range:
    """Ticks a half-open span overlaps."""
    return range(math.floor(s / dt + 1e-9), math.ceil(e / dt - 1e-9))


def grid_rows(tl: Timeline, dt: float) -> list[Row]:
    """The timeline's ticks, as the panel reads them."""
    ends = [u.end for u in tl.user] + [e for _, e in tl.agent if e is not None] + [x.end for x in tl.effects]
    n = math.ceil(max(ends, default=0.0) / dt - 1e-9) + 1
    user, agent = [False] * n, [False] * n
    first: dict[int, str] = {}
    in_turn: dict[int, str] = {}
    for u in tl.user:
        r = _ticks_of(u.start, u.end, dt)
        for k in r:
            user[k] = True
            for kind in sorted(u.effects):
                in_turn[k] = kind
        if len(r):
            first.setdefault(r.start, u.action or "generate_message")
    for s, e in tl.agent:
        for k in _ticks_of(s, e if e is not None else n * dt, dt):
            agent[k] = True
    out_of_turn: dict[int, str] = {}
    for x in tl.effects:
        out_of_turn.setdefault(math.floor(x.start / dt + 1e-9), x.kind)
    rows = []
    for k in range(n):
        if not user[k]:
            action = "wait"
        elif k == 0 or not user[k - 1]:
            action = first.get(k, "generate_message")
        else:
            action = "keep_talking"
        rows.append(Row(user[k], agent[k], action, in_turn.get(k) or out_of_turn.get(k)))
    return rows


def tick_dicts(tl: Timeline, dt: float) -> list[dict[str, Any]]:
    """The timeline as τ-voice ticks: an insert on a user speech tick is a speech effect,
    elsewhere a source effect (out of turn)."""
    return [_tick(k, r) for k, r in enumerate(grid_rows(tl, dt))]


def _insert(kind: str | None) -> dict[str, Any] | None:
    return None if kind is None else {"speech_insert": {"text": "", "type": INSERT_TYPES[kind]}}


def _tick(k: int, r: Row) -> dict[str, Any]:
    return {
        "tick_id": k,
        "user_chunk": {
            "role": "user",
            "contains_speech": r.user,
            "turn_taking_action": {"action": r.action},
            "speech_effects": _insert(r.insert if r.user else None),
            "source_effects": _insert(None if r.user else r.insert),
        },
        "agent_chunk": {"role": "assistant", "contains_speech": r.agent, "turn_taking_action": None},
    }
