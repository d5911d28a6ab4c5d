"""One readable line per metric result: why it scored what it scored.

Reads the `details` eval writes (judge dimensions, per-turn ratings and reasons,
detected corruptions, invalid calls, database diffs); falls back to nothing rather
than guessing. The full details stay one click away in the viewer.
"""

from __future__ import annotations

from typing import Any

from voxbench.reports.model import MetricView

_TEXT_KEYS = ("explanation", "reason", "rationale", "summary", "message", "skip_reason", "note")


def _bad_turns(per: dict[str, Any], good: float) -> list[str]:
    out = []
    for t, v in sorted(per.items(), key=lambda kv: int(kv[0]) if str(kv[0]).isdigit() else 0):
        if isinstance(v, int | float) and v < good:
            out.append(str(t))
    return out


def _dimension_parts(d: dict[str, Any]) -> list[str]:
    """A judge's flagged dimensions (rated 1, or flagged) with its explanation, or none flagged."""
    parts: list[str] = []
    dims = d.get("dimensions")
    if isinstance(dims, dict) and dims:
        flagged = [
            (k, v)
            for k, v in dims.items()
            if isinstance(v, dict) and (v.get("flagged") or v.get("rating") == 1)
        ]
        for k, v in flagged:
            ex = v.get("explanation") or v.get("evidence") or ""
            parts.append(f"{k.replace('_', ' ')} (rating {v.get('rating')})" + (f": {ex}" if ex else ""))
        if not flagged:
            parts.append("no dimension flagged")
    return parts


def _turn_parts(d: dict[str, Any]) -> list[str]:
    """The turns below the top score or rating (with their reasons or failure modes), or all at
    the top; entities not heard right."""
    parts: list[str] = []
    if isinstance(d.get("per_turn_score"), dict):
        bad = _bad_turns(d["per_turn_score"], 1.0)
        reasons = d.get("per_turn_reason") or {}
        if bad:
            parts.append("; ".join(f"turn {t}: {reasons.get(t, 'low')}" for t in bad[:6]))
        elif d["per_turn_score"]:
            parts.append(f"all {len(d['per_turn_score'])} turns on time")
    elif isinstance(d.get("per_turn_rating"), dict) and d["per_turn_rating"]:
        ratings = d["per_turn_rating"]
        nums = [v for v in ratings.values() if isinstance(v, int | float)]
        top = 3.0 if nums and max(nums) > 1 else 1.0  # judge scales are 1-3, or 0-1
        bad = _bad_turns(ratings, top)
        if nums and not bad:
            parts.append(f"all {len(nums)} rated turn(s) at the top rating")
        modes = d.get("per_turn_failure_modes") or {}
        if bad:
            parts.append(
                "; ".join(
                    f"turn {t}: {ratings[t]}"
                    + (f" ({', '.join(modes.get(t) or [])})" if modes.get(t) else "")
                    for t in bad[:6]
                )
            )
        ents = d.get("per_turn_entities")
        if isinstance(ents, dict):
            missing = [x for v in ents.values() if isinstance(v, dict) for x in v.get("missing") or []]
            if missing:
                parts.append("not heard right: " + ", ".join(map(str, missing[:8])))
    return parts


def explain(m: MetricView) -> str:
    """One line saying why the metric scored what it did, from its details only."""
    d = m.details
    if m.error:
        return m.error
    parts: list[str] = []
    parts += _dimension_parts(d)
    if m.name == "task_completion" and m.value is not None:
        if d.get("auth_success") is False:
            parts.append("the session's authentication did not match the expected one")
        parts.append(
            "final database matches the expected one"
            if m.value >= 1
            else "final database differs from the expected one (diff below)"
        )
    parts += _turn_parts(d)
    if isinstance(d.get("detected"), list):
        parts.append(
            "detected: " + ", ".join(map(str, d["detected"])) if d["detected"] else "nothing detected"
        )
    if isinstance(d.get("invalid_calls"), list) and d["invalid_calls"]:
        parts.append(f"{len(d['invalid_calls'])} invalid tool call(s)")
    if isinstance(d.get("top_errors"), list) and d["top_errors"]:
        parts.append(
            "top errors: "
            + ", ".join(str(e[0]) if isinstance(e, list) else str(e) for e in d["top_errors"][:4])
        )
    if isinstance(d.get("mismatches"), list) and d["mismatches"]:
        parts.append(f"{len(d['mismatches'])} authentication mismatch(es)")
    if m.name == "response_speed":
        subs = m.raw.get("sub_metrics") or {}
        vals = {k: (v or {}).get("score") for k, v in subs.items() if isinstance(v, dict)}
        if vals.get("p50") is not None:
            parts.append(
                f"p50 {vals['p50']:.2f} s, p90 {vals.get('p90') or 0:.2f} s"
                + (
                    f"; tool turns mean {vals['with_tool_calls']:.2f} s"
                    if vals.get("with_tool_calls") is not None
                    else ""
                )
            )
    for k in _TEXT_KEYS:
        if isinstance(d.get(k), str) and d[k] and not (k == "note" and parts):
            parts.append(d[k])
            break
    if isinstance(d.get("ended_reason"), str) and not parts:
        parts.append(
            f"ended by {d['ended_reason']}"
            + (f", last speaker {d['last_speaker']}" if d.get("last_speaker") else "")
        )
    return "; ".join(parts)
