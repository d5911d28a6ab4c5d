"""Events -> τ-voice's panel: its eight fields, the `counts` block behind them, and the
leaderboard's rule that hides a rate backed by fewer than 10 events."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from statistics import fmean
from typing import Any

from voxbench.eval.tau_voice.timeline import Event

VERSION = "voxbench-tau-voice-1"
MIN_EVENTS = 10
"""τ-voice's leaderboard hides a rate computed from fewer events than this."""

FIELDS: tuple[tuple[str, str, str], ...] = (
    # field, symbol, direction
    ("response_latency_mean", "L_R", "down"),
    ("yield_latency_mean", "L_Y", "down"),
    ("response_rate", "R_R", "up"),
    ("yield_rate", "R_Y", "up"),
    ("agent_interruption_rate", "I_A", "down"),
    ("selectivity_backchannel", "S_BC", "up"),
    ("selectivity_vocal_tic", "S_VT", "up"),
    ("selectivity_non_directed", "S_ND", "up"),
)
COUNT_KEYS: tuple[str, ...] = (
    "response_count",
    "no_response_count",
    "response_total",
    "yield_count",
    "no_yield_count",
    "yield_total",
    "agent_interrupts_count",
    "backchannel_correct",
    "backchannel_error",
    "backchannel_total",
    "vocal_tic_correct",
    "vocal_tic_error",
    "vocal_tic_total",
    "non_directed_correct",
    "non_directed_error",
    "non_directed_total",
)
SUPPORT: dict[str, str] = {
    "response_latency_mean": "response_count",
    "yield_latency_mean": "yield_count",
    "response_rate": "response_total",
    "yield_rate": "yield_total",
    "agent_interruption_rate": "response_total",
    "selectivity_backchannel": "backchannel_total",
    "selectivity_vocal_tic": "vocal_tic_total",
    "selectivity_non_directed": "non_directed_total",
}
"""The count behind each field (L_R: responded turns, i.e. response_rate x response_total)."""


def counts_of(events: Iterable[Event]) -> dict[str, int]:
    """The counts block of a set of events (summed over conversations by construction)."""
    c: Counter[str] = Counter(e.kind for e in events)
    out = {
        "response_count": c["response"],
        "no_response_count": c["no_response"],
        "yield_count": c["yield"],
        "no_yield_count": c["no_yield"],
        "agent_interrupts_count": c["agent_interrupt"],
    }
    out["response_total"] = out["response_count"] + out["no_response_count"]
    out["yield_total"] = out["yield_count"] + out["no_yield_count"]
    for k in ("backchannel", "vocal_tic", "non_directed"):
        out[f"{k}_correct"] = c[f"{k}_correct"]
        out[f"{k}_error"] = c[f"{k}_error"]
        out[f"{k}_total"] = out[f"{k}_correct"] + out[f"{k}_error"]
    return {k: out[k] for k in COUNT_KEYS}


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def panel_of(events: list[Event]) -> dict[str, Any]:
    """The eight fields and their counts over pooled events (one domain, or one call)."""
    n = counts_of(events)
    resp = [e.latency for e in events if e.kind == "response" and e.latency is not None]
    yld = [e.latency for e in events if e.kind == "yield" and e.latency is not None]
    out: dict[str, Any] = {
        "response_latency_mean": fmean(resp) if resp else None,
        "yield_latency_mean": fmean(yld) if yld else None,
        "response_rate": _ratio(n["response_count"], n["response_total"]),
        "yield_rate": _ratio(n["yield_count"], n["yield_total"]),
        "agent_interruption_rate": _ratio(n["agent_interrupts_count"], n["response_total"]),
        "selectivity_backchannel": _ratio(n["backchannel_correct"], n["backchannel_total"]),
        "selectivity_vocal_tic": _ratio(n["vocal_tic_correct"], n["vocal_tic_total"]),
        "selectivity_non_directed": _ratio(n["non_directed_correct"], n["non_directed_total"]),
    }
    out["counts"] = n
    return out


def shown(panel: dict[str, Any], field: str) -> bool:
    """Whether the leaderboard would show this field (backed by at least MIN_EVENTS events)."""
    return panel.get(field) is not None and panel["counts"][SUPPORT[field]] >= MIN_EVENTS


def selectivity_mean(panel: dict[str, Any]) -> float | None:
    """The leaderboard's Selectivity column: the unweighted mean of S_BC, S_VT and S_ND, only
    when all three are present and each backed by at least MIN_EVENTS events."""
    keys = ("selectivity_backchannel", "selectivity_vocal_tic", "selectivity_non_directed")
    if not all(shown(panel, k) for k in keys):
        return None
    return fmean(panel[k] for k in keys)


def overall(domains: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The Overall view: per field the mean across domains (missing values skipped), counts
    summed."""
    out: dict[str, Any] = {}
    for f, _, _ in FIELDS:
        vals = [p[f] for p in domains.values() if p.get(f) is not None]
        out[f] = fmean(vals) if vals else None
    out["counts"] = {k: sum(p["counts"][k] for p in domains.values()) for k in COUNT_KEYS}
    return out
