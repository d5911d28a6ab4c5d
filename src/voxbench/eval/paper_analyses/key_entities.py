"""Analysis 4 (EVA-Bench §5.5 figure 7): key-entity transcription against task completion.

Key-entity accuracy is `transcription_accuracy_key_entities` (share of the caller's key
entities the agent's STT got right), task completion `task_completion` (0 / 1). Pearson's r
with its two-sided p (scipy) is computed over conversations per system, over conversations
per domain (all systems), and over system means across systems (the paper's r = 0.93 is the
latter, over 7 cascades). Task completion is also split at 70 % key-entity accuracy.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from scipy import stats

from voxbench.eval.paper_analyses.rows import Row, by_system, too_few

KE = "transcription_accuracy_key_entities"
TC = "task_completion"
CUT = 0.70


def pearson(pairs: list[tuple[float, float]]) -> dict[str, Any]:
    """r and its two-sided p over (x, y) pairs; None with a reason when undefined."""
    n = len(pairs)
    if n < 3:
        return {"n": n, "r": None, "p": None, "note": "needs 3 or more pairs"}
    xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
    if len(set(xs)) < 2 or len(set(ys)) < 2:
        return {"n": n, "r": None, "p": None, "note": "one side is constant"}
    res = stats.pearsonr(xs, ys)
    r, p = float(res.statistic), float(res.pvalue)
    return {"n": n, "r": round(r, 4), "p": None if math.isnan(p) else round(p, 4)}


def pairs_of(rows: Iterable[Row]) -> list[tuple[float, float]]:
    return [(ke, tc) for r in rows if (ke := r.value(KE)) is not None and (tc := r.value(TC)) is not None]


def split(pairs: list[tuple[float, float]], cut: float = CUT) -> dict[str, Any]:
    """Task completion of conversations at or above `cut` key-entity accuracy and below it."""
    hi = [tc for ke, tc in pairs if ke >= cut - 1e-9]
    lo = [tc for ke, tc in pairs if ke < cut - 1e-9]
    a = sum(hi) / len(hi) if hi else None
    b = sum(lo) / len(lo) if lo else None
    drop = (b - a) / a if a and b is not None else None
    return {
        "n_above": len(hi),
        "n_below": len(lo),
        "completion_above": None if a is None else round(a, 4),
        "completion_below": None if b is None else round(b, 4),
        "relative_change": None if drop is None else round(drop, 4),
    }


def key_entities(rows: list[Row], cut: float = CUT) -> dict[str, Any]:
    """The analysis block: correlations per system, per domain, across systems; the split."""
    note = too_few(rows)
    if note:
        return {"note": note, "cut": cut}
    systems = by_system(rows)
    out: dict[str, Any] = {"cut": cut, "per_system": {}, "per_domain": {}}
    for s, rs in systems.items():
        pr = pairs_of(rs)
        if pr:
            out["per_system"][s] = {**pearson(pr), **split(pr, cut)}
    for dom in sorted({r.domain for r in rows}):
        pr = pairs_of(r for r in rows if r.domain == dom)
        if pr:
            out["per_domain"][dom] = {**pearson(pr), **split(pr, cut)}
    means = []
    for rs in systems.values():
        pr = pairs_of(rs)
        if pr:
            means.append((sum(p[0] for p in pr) / len(pr), sum(p[1] for p in pr) / len(pr)))
    out["across_systems"] = pearson(means)
    out["overall_split"] = split(pairs_of(rows), cut)
    if not out["per_system"]:
        out["note"] = (
            f"no conversation has both {KE} and {TC}: key-entity accuracy needs the agent's own "
            "transcript of the caller (an STT, as in a cascade) and a judge or the offline rater"
        )
    return out
