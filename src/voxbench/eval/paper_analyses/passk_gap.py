"""Analysis 1 (EVA-Bench §5.1 figure 2, §5.3): pass@1 against pass^k, and the gap per system.

For each system and each of EVA-A and EVA-X: pass@1, pass@k and pass^k over scenarios with k
trials (`aggregate.pass_k_block`, bootstrap CIs over scenarios), and the consistency gap
pass@k − pass^k (what a system can do against what it does every time) as the mean over
scenarios of each scenario's gap, with its 95 % bootstrap CI over scenarios. The median gap
over systems is the paper's headline (0.44 EVA-A, 0.24 EVA-X over its 12 systems), and the
Pareto frontiers at pass@1 and at pass^k say which systems lead on both axes in each view.
"""

from __future__ import annotations

from statistics import median
from typing import Any

from voxbench.eval.aggregate import bootstrap_ci, bootstrap_seed, pass_k_block
from voxbench.eval.paper_analyses.rows import Row, by_system, too_few
from voxbench.eval.passk import scenario_pass_k

COMPOSITES = ("EVA-A_pass", "EVA-X_pass")


def outcomes(rows: list[Row], comp: str) -> dict[str, list[bool]]:
    """scenario -> pass per trial; a scenario with any trial whose composite is unknown is
    left out (as `aggregate.overall_scores` does for pass^k)."""
    trials: dict[str, list[float | None]] = {}
    for r in sorted(rows, key=lambda r: (r.scenario_id, r.trial)):
        trials.setdefault(r.scenario_id, []).append(r.aggregates.get(comp))
    return {s: [v == 1.0 for v in vs] for s, vs in trials.items() if all(v is not None for v in vs)}


def system_gap(rows: list[Row], comp: str, seed: int) -> dict[str, Any] | None:
    """pass@1, pass@k, pass^k (with CIs) and the gap pass@k − pass^k with its CI, or None."""
    outs = outcomes(rows, comp)
    k = max((len(o) for o in outs.values()), default=0)
    if k < 2:
        return None
    block = pass_k_block(outs, k, seed)
    if block is None:
        return None
    gaps = {
        s: [p["pass_at_k"] - p["pass_power_k_observed"]]
        for s, o in outs.items()
        if (p := scenario_pass_k(o, k)) is not None
    }
    lo, hi, n = bootstrap_ci(gaps, seed)
    gap = sum(v[0] for v in gaps.values()) / n
    return {
        "k": k,
        "n_scenarios": n,
        "pass_at_1": block["pass_at_1"],
        "pass_at_1_ci": [block["pass_at_1_ci_lower"], block["pass_at_1_ci_upper"]],
        "pass_at_k": block["pass_at_k"],
        "pass_power_k": block["pass_power_k_observed"],
        "pass_power_k_ci": [block["pass_power_k_observed_ci_lower"], block["pass_power_k_observed_ci_upper"]],
        "gap": round(gap, 4),
        "gap_ci": [lo, hi],
    }


def pareto(points: dict[str, tuple[float, float]]) -> list[str]:
    """Systems no other system beats on both axes (higher is better on each)."""
    return sorted(
        a
        for a, (x, y) in points.items()
        if not any(x2 >= x and y2 >= y and (x2, y2) != (x, y) for b, (x2, y2) in points.items() if b != a)
    )


def passk_gap(rows: list[Row]) -> dict[str, Any]:
    """The analysis block: per system and composite, the frontiers, the median gaps."""
    note = too_few(rows, need_k=True)
    if note:
        return {"note": note}
    per: dict[str, dict[str, Any]] = {}
    for system, rs in by_system(rows).items():
        per[system] = {}
        for comp in COMPOSITES:
            block = system_gap(rs, comp, bootstrap_seed(f"{system}/{comp}"))
            if block is not None:
                per[system][comp] = block
    out: dict[str, Any] = {"per_system": per, "median_gap": {}, "frontier": {}}
    for comp in COMPOSITES:
        gaps = [b[comp]["gap"] for b in per.values() if comp in b]
        out["median_gap"][comp] = round(median(gaps), 4) if gaps else None
    for view in ("pass_at_1", "pass_power_k"):
        pts = {
            s: (b["EVA-X_pass"][view], b["EVA-A_pass"][view])
            for s, b in per.items()
            if "EVA-A_pass" in b and "EVA-X_pass" in b
        }
        out["frontier"][view] = pareto(pts)
    if not any(per.values()):
        out["note"] = "no system has EVA-A or EVA-X known on every trial of a scenario"
    return out
