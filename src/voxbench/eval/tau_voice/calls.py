"""τ-voice's panel on one voxbench call, at both resolutions, as per-field fractions.

Each field is a ratio `num / den` (a latency mean: the latency sum over the event count), so
calls pool exactly as τ-voice pools simulations: sum the numerators and the denominators.
The 200 ms grid runs the call through τ-voice's own path (the rows its exported tick
trajectory reads back as, with the end-of-conversation filter); native resolution runs the same rules on the
stamps themselves.
"""

from __future__ import annotations

import weakref
from typing import Any, Literal

from voxbench.eval.context import ConversationContext
from voxbench.eval.tau_voice.grid import grid_rows
from voxbench.eval.tau_voice.panel import counts_of
from voxbench.eval.tau_voice.records import native_timeline
from voxbench.eval.tau_voice.ticks import timeline_from_rows
from voxbench.eval.tau_voice.timeline import Event, Windows, detect

Resolution = Literal["grid", "native"]
GRID = Windows()
NATIVE = Windows(tick_duration_sec=None)
_last: tuple[weakref.ref[ConversationContext], dict[Resolution, list[Event]]] | None = None


def call_events(ctx: ConversationContext) -> dict[Resolution, list[Event]]:
    """The call's events on the tick grid and natively. The eight metrics read the same
    call in a row: the last call's events are kept (a pure function of the context)."""
    global _last
    if _last is not None and _last[0]() is ctx:
        return _last[1]
    tl = native_timeline(ctx)
    dt = GRID.tick_duration_sec
    assert dt is not None
    out: dict[Resolution, list[Event]] = {
        "grid": detect(timeline_from_rows(grid_rows(tl, dt), dt), GRID),
        "native": detect(tl, NATIVE),
    }
    _last = (weakref.ref(ctx), out)
    return out


def fractions(events: list[Event]) -> dict[str, tuple[float, int]]:
    """Per field: (numerator, denominator); the denominator is the count the field rests on."""
    n = counts_of(events)
    resp = sum(e.latency or 0.0 for e in events if e.kind == "response")
    yld = sum(e.latency or 0.0 for e in events if e.kind == "yield")
    return {
        "response_latency_mean": (resp, n["response_count"]),
        "yield_latency_mean": (yld, n["yield_count"]),
        "response_rate": (n["response_count"], n["response_total"]),
        "yield_rate": (n["yield_count"], n["yield_total"]),
        "agent_interruption_rate": (n["agent_interrupts_count"], n["response_total"]),
        "selectivity_backchannel": (n["backchannel_correct"], n["backchannel_total"]),
        "selectivity_vocal_tic": (n["vocal_tic_correct"], n["vocal_tic_total"]),
        "selectivity_non_directed": (n["non_directed_correct"], n["non_directed_total"]),
    }


def value(frac: tuple[float, int]) -> float | None:
    return frac[0] / frac[1] if frac[1] else None


def counts_from_fractions(fr: dict[str, tuple[float, int]]) -> dict[str, Any]:
    """τ-voice's counts block, rebuilt from the eight fields' fractions (what a record keeps)."""
    r, y = fr["response_rate"], fr["yield_rate"]
    out: dict[str, Any] = {
        "response_count": int(r[0]),
        "no_response_count": r[1] - int(r[0]),
        "response_total": r[1],
        "yield_count": int(y[0]),
        "no_yield_count": y[1] - int(y[0]),
        "yield_total": y[1],
        "agent_interrupts_count": int(fr["agent_interruption_rate"][0]),
    }
    for k in ("backchannel", "vocal_tic", "non_directed"):
        c, tot = fr[f"selectivity_{k}"]
        out[f"{k}_correct"], out[f"{k}_error"], out[f"{k}_total"] = int(c), tot - int(c), tot
    return out
