"""Analysis 3 (EVA-Bench §5.6 figure 9): pass@1 as one metric's pass threshold moves.

By default the turn-taking threshold of EVA-X sweeps 0.50 .. 0.95 (the chosen 0.80 marked):
each conversation's EVA-X pass is recomputed with that threshold and the others unchanged,
by the rules of `aggregate.record_aggregates` (a missing, errored or unscored component makes
the pass unknown; a skipped one is ignored). Any metric can be swept: one of a composite's
components moves that composite; any other metric moves its own pass rate. pass@1 is the
mean over scenarios of each scenario's pass rate over its trials.
"""

from __future__ import annotations

import math
from typing import Any

import voxbench.eval.metrics  # noqa: F401  (registers every metric: thresholds, directions)
from voxbench.eval.aggregate import COMPOSITES
from voxbench.eval.paper_analyses.rows import Row, by_system, per_scenario, too_few
from voxbench.eval.types import REGISTRY

DEFAULT_METRIC = "turn_taking"
GRID = tuple(round(0.5 + 0.05 * i, 2) for i in range(10))  # 0.50 .. 0.95


def _ge(a: float, b: float) -> bool:
    return a > b or math.isclose(a, b, abs_tol=1e-9)


def composite_of(metric: str) -> tuple[str, dict[str, float]] | None:
    """The pass composite whose component `metric` is: (its name, component -> threshold)."""
    for c in COMPOSITES:
        if c.kind == "pass" and metric in c.components:
            return c.name, {m: float(t or 0.0) for m, t in c.components.items()}
    return None


def pass_with(
    row: Row, thresholds: dict[str, float], lower_better: frozenset[str] = frozenset()
) -> float | None:
    """1.0 / 0.0 when every usable component clears its threshold or not; None if unknown.
    A metric in `lower_better` clears it at or below (a swept diagnostic such as stt_wer)."""
    usable = 0
    val = 1.0
    for m, thr in thresholds.items():
        cell = row.metrics.get(m)
        if cell is None or cell.state == "missing":
            return None
        if cell.state == "skipped":
            continue
        assert cell.value is not None
        usable += 1
        if not (_ge(thr, cell.value) if m in lower_better else _ge(cell.value, thr)):
            val = 0.0
    return val if usable else None


def pass_at_1(
    rows: list[Row], thresholds: dict[str, float], lower_better: frozenset[str] = frozenset()
) -> tuple[float | None, int]:
    per = per_scenario(rows, lambda r: pass_with(r, thresholds, lower_better))
    if not per:
        return None, 0
    return round(sum(sum(v) / len(v) for v in per.values()) / len(per), 4), len(per)


def _what_moves(metric: str) -> tuple[str, dict[str, float], frozenset[str]]:
    """(what the sweep recomputes, its thresholds, the metrics that pass at or below)."""
    comp = composite_of(metric)
    if comp is not None:
        return comp[0], comp[1], frozenset()
    spec = REGISTRY.get(metric)
    if spec is None or spec.pass_threshold is None:
        raise ValueError(f"threshold sweep: metric {metric!r} has no pass threshold to move")
    lower = frozenset() if spec.higher_is_better else frozenset({metric})
    return metric, {metric: float(spec.pass_threshold)}, lower


def threshold_sweep(
    rows: list[Row], metric: str = DEFAULT_METRIC, grid: tuple[float, ...] = GRID
) -> dict[str, Any]:
    """The analysis block: per system, pass@1 at each threshold of `grid`."""
    name, base, lower = _what_moves(metric)
    out: dict[str, Any] = {"metric": metric, "moves": name, "chosen": base[metric], "grid": list(grid)}
    if lower:
        out["direction"] = "at or below the threshold passes"
    note = too_few(rows)
    if note:
        return {**out, "note": note}
    per: dict[str, Any] = {}
    for system, rs in by_system(rows).items():
        points = [pass_at_1(rs, {**base, metric: t}, lower) for t in grid]
        if any(v is not None for v, _ in points):
            per[system] = {"pass_at_1": [v for v, _ in points], "n_scenarios": max(n for _, n in points)}
    out["per_system"] = per
    if not per:
        out["note"] = f"no conversation has {name} known"
    return out
