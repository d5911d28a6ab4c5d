"""Analysis 2 (EVA-Bench §5.3 figure 4): how the 95 % CI of pass@1 narrows with the trial count.

A system with K trials per scenario is re-estimated from every subsample of k of its K trial
slots (k = 1 .. K; the same slots in every scenario, so each subsample is a run that had
stopped at k trials): pass@1 is the mean over scenarios of the chosen trials' pass rate, and
its 95 % CI is `aggregate.bootstrap_ci` over scenarios. Per k: the median CI width over the
subsamples and the share of subsamples whose pass@1 lies within ±0.02 of the full-K estimate
(the paper: 97.6 % EVA-A, 99.6 % EVA-X at k = 3 of 5).
"""

from __future__ import annotations

from itertools import combinations
from statistics import median
from typing import Any

from voxbench.eval.aggregate import bootstrap_ci, bootstrap_seed
from voxbench.eval.paper_analyses.passk_gap import COMPOSITES, outcomes
from voxbench.eval.paper_analyses.rows import Row, by_system, too_few

TOLERANCE = 0.02


def _estimate(outs: dict[str, list[bool]], slots: tuple[int, ...]) -> dict[str, list[float]]:
    return {s: [float(o[i]) for i in slots] for s, o in outs.items()}


def curve(outs: dict[str, list[bool]], seed: int, tol: float = TOLERANCE) -> list[dict[str, Any]]:
    """Per k: subsamples, median pass@1 CI width, share within ±tol of the full estimate.
    Only scenarios with the full K trials take part, so every subsample has the same scenarios."""
    big = max((len(o) for o in outs.values()), default=0)
    full = {s: o for s, o in outs.items() if len(o) == big}
    if big < 1 or not full:
        return []
    anchor = _mean_of_means(_estimate(full, tuple(range(big))))
    out = []
    for k in range(1, big + 1):
        widths, near = [], 0
        subsets = list(combinations(range(big), k))
        for slots in subsets:
            per = _estimate(full, slots)
            lo, hi, _ = bootstrap_ci(per, seed)
            if lo is not None and hi is not None:
                widths.append(hi - lo)
            near += abs(_mean_of_means(per) - anchor) <= tol + 1e-12
        out.append(
            {
                "k": k,
                "subsamples": len(subsets),
                "median_ci_width": round(median(widths), 4) if widths else None,
                "share_within_tol": round(near / len(subsets), 4),
            }
        )
    return out


def _mean_of_means(per: dict[str, list[float]]) -> float:
    return sum(sum(v) / len(v) for v in per.values()) / len(per)


def trial_count(rows: list[Row], tol: float = TOLERANCE) -> dict[str, Any]:
    """The analysis block: per system and composite, the curve over k = 1 .. K."""
    note = too_few(rows, need_k=True)
    if note:
        return {"note": note, "tolerance": tol}
    per: dict[str, dict[str, Any]] = {}
    for system, rs in by_system(rows).items():
        for comp in COMPOSITES:
            outs = outcomes(rs, comp)
            big = max((len(o) for o in outs.values()), default=0)
            if big < 2:
                continue
            per.setdefault(system, {})[comp] = {
                "K": big,
                "n_scenarios": sum(1 for o in outs.values() if len(o) == big),
                "curve": curve(outs, bootstrap_seed(f"{system}/{comp}"), tol),
            }
    out: dict[str, Any] = {"tolerance": tol, "per_system": per}
    if not per:
        out["note"] = "no system has a composite known on two or more trials of a scenario"
    return out
