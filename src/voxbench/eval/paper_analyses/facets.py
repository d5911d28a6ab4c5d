"""Analysis 6 (EVA-Bench §5.2 figure 3): the six EVA components and latency by architecture.

Per pipeline type (the record's agent architecture: cascade, hybrid, s2s, external, ...):
the mean of each EVA-A and EVA-X component over its conversations, with a 95 % bootstrap CI
over scenarios (`aggregate.bootstrap_ci`; a scenario's value is the mean of its conversations
of that type), and the agent's response latency on turns with a tool call against turns
without one (median and mean over turns, from `response_speed`). The same latency split is
given per system, as the paper names systems whose tool-call turns take over 5 s.
"""

from __future__ import annotations

from statistics import median
from typing import Any

from voxbench.eval.aggregate import EVA_COMPONENTS, bootstrap_ci, bootstrap_seed
from voxbench.eval.paper_analyses.rows import Row, by_system, per_scenario, too_few

COMPONENTS = EVA_COMPONENTS


def _lat(xs: list[float]) -> dict[str, Any]:
    return {
        "turns": len(xs),
        "median": round(median(xs), 4) if xs else None,
        "mean": round(sum(xs) / len(xs), 4) if xs else None,
    }


def latency_split(rows: list[Row]) -> dict[str, Any]:
    return {
        "tool": _lat([v for r in rows for v in r.tool_latencies]),
        "no_tool": _lat([v for r in rows for v in r.plain_latencies]),
    }


def component_means(rows: list[Row], seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for m in COMPONENTS:
        per = per_scenario(rows, lambda r, m=m: r.value(m))
        if not per:
            out[m] = {"mean": None, "ci": None, "n_scenarios": 0}
            continue
        lo, hi, n = bootstrap_ci(per, seed)
        mean = sum(sum(v) / len(v) for v in per.values()) / len(per)
        out[m] = {"mean": round(mean, 4), "ci": [lo, hi], "n_scenarios": n}
    return out


def facets(rows: list[Row]) -> dict[str, Any]:
    """The analysis block: per pipeline type and per system."""
    note = too_few(rows)
    if note:
        return {"note": note}
    types: dict[str, list[Row]] = {}
    for r in rows:
        types.setdefault(r.pipeline, []).append(r)
    per_type = {
        t: {
            "systems": sorted({r.system for r in rs}),
            "conversations": len(rs),
            "components": component_means(rs, bootstrap_seed(f"facets/{t}")),
            "latency": latency_split(rs),
        }
        for t, rs in sorted(types.items())
    }
    per_system = {
        s: {"pipeline": rs[0].pipeline, "latency": latency_split(rs)} for s, rs in by_system(rows).items()
    }
    out: dict[str, Any] = {"per_type": per_type, "per_system": per_system}
    if len(per_type) < 2:
        out["note"] = "one pipeline type only: run agents of other architectures to compare them"
    return out
