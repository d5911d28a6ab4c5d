"""Compare two runs (version A, version B) on the conversations they share, for regressions.

Pairing: a conversation of A and one of B pair when they have the same domain, scenario,
condition and trial index, both were scored as completed, and the scenario's data (its
``scenario.json`` and ``initial_db.json``) is the same in both; everything else is counted and
named, never compared. For each metric (and each EVA composite) with at least one pair:

- ``delta``: B minus A, the mean over scenarios of each scenario's mean paired difference
  (trials averaged first, as pass@1 is), with a 95 % percentile bootstrap CI that resamples
  scenarios (``aggregate.bootstrap_ci``), so its width counts how scenarios differ;
- ``p_value``: the paired sign-flip permutation test over the pairs
  (``significance.paired_permutation_test``): under "no difference" each pair's two
  conversations are exchangeable. Pairs with a zero difference are dropped first (their sign
  flips change nothing, so the exact p-value is the same and the enumeration is smaller);
- ``p_holm``: Holm-corrected across the metrics compared, controlling the chance of calling
  any metric changed when none is. A metric whose pairs all agree (no difference at all) has
  p = 1 whatever happens and is left out of the count (it can never be called changed, so it
  needs no share of the error budget; Tarone's argument), its ``p_holm`` is 1.

A metric regresses when its Holm p is at most ``alpha`` and B is worse in the metric's direction
(normalised scores: higher is better; raw scores: the registry says). Regressions come first.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

import voxbench.eval.metrics  # noqa: F401  (registers every metric: its direction)
from voxbench.eval.aggregate import bootstrap_ci, bootstrap_seed
from voxbench.eval.compare_load import ConvKey, ConvScores, dataset_sha, load_scores
from voxbench.eval.significance import holm, mean, paired_permutation_test
from voxbench.eval.types import REGISTRY

ALPHA = 0.05
Verdict = Literal["regression", "improvement", "no_change"]


class MetricDelta(BaseModel):
    """One metric, B against A, over the shared conversations that have it in both runs."""

    metric: str
    n_pairs: int
    n_differing: int = Field(description="pairs whose two values differ: the test's sample size")
    n_scenarios: int
    mean_a: float
    mean_b: float
    delta: float = Field(description="B minus A (scenario means of the paired differences)")
    ci_lower: float | None
    ci_upper: float | None
    p_value: float
    p_holm: float | None = None
    lower_is_better: bool = False
    verdict: Verdict = "no_change"

    @property
    def harm(self) -> float:
        """How much worse B is, in the metric's units (negative: better)."""
        return self.delta if self.lower_is_better else -self.delta


class Comparison(BaseModel):
    """What ``voxbench compare`` found; ``rows`` are ordered regressions first."""

    run_a: str
    run_b: str
    alpha: float
    shared: int = Field(description="conversations paired (same scenario, condition, trial; same data)")
    shared_scenarios: list[str]
    only_a: list[str] = Field(default_factory=list)
    only_b: list[str] = Field(default_factory=list)
    data_differs: list[str] = Field(default_factory=list, description="scenarios left out")
    not_completed: list[str] = Field(default_factory=list, description="pairs left out: a side not completed")
    notes: list[str] = Field(default_factory=list)
    rows: list[MetricDelta] = Field(default_factory=list)

    @property
    def regressions(self) -> list[MetricDelta]:
        return [r for r in self.rows if r.verdict == "regression"]


def _lower_is_better(metric: str, convs: list[ConvScores]) -> bool:
    """Raw (never normalised) scores follow the registry; normalised scores are higher-better."""
    spec = REGISTRY.get(metric)
    if spec is None or spec.higher_is_better:
        return False
    return any(metric in c.raw for c in convs)


def metric_delta(
    metric: str, pairs: list[tuple[ConvScores, ConvScores]], *, seed: int, lower_is_better: bool
) -> MetricDelta | None:
    """The delta, its CI and p-value for one metric; None when no pair has it on both sides."""
    got = [
        (a.key, va, vb)
        for a, b in pairs
        if (va := a.values.get(metric)) is not None and (vb := b.values.get(metric)) is not None
    ]
    if not got:
        return None
    per_scenario: dict[str, list[float]] = {}
    for key, va, vb in got:
        per_scenario.setdefault(key.scenario, []).append(vb - va)
    scen_means = [m for d in per_scenario.values() if (m := mean(d)) is not None]
    lo, hi, n_scen = bootstrap_ci(per_scenario, seed)
    nonzero = [vb - va for _, va, vb in got if abs(vb - va) > 1e-12]
    p = paired_permutation_test(nonzero, seed=seed) if nonzero else 1.0
    return MetricDelta(
        metric=metric,
        n_pairs=len(got),
        n_differing=len(nonzero),
        n_scenarios=n_scen,
        mean_a=round(mean([va for _, va, _ in got]) or 0.0, 4),
        mean_b=round(mean([vb for _, _, vb in got]) or 0.0, 4),
        delta=round(mean(scen_means) or 0.0, 4),
        ci_lower=lo,
        ci_upper=hi,
        p_value=float(p if p is not None else 1.0),
        lower_is_better=lower_is_better,
    )


def _rank(row: MetricDelta) -> tuple[int, float, str]:
    order = {"regression": 0, "improvement": 1, "no_change": 2}[row.verdict]
    return order, -abs(row.harm) if row.verdict != "no_change" else row.p_value, row.metric


def compare_scores(
    a: Mapping[ConvKey, ConvScores],
    b: Mapping[ConvKey, ConvScores],
    *,
    run_a: str = "A",
    run_b: str = "B",
    alpha: float = ALPHA,
) -> Comparison:
    """Pair the two runs' conversations and test every metric both have (pure: no files)."""
    differs = sorted({k.scenario for k in a.keys() & b.keys() if a[k].data_hash != b[k].data_hash})
    shared_keys = sorted(k for k in a.keys() & b.keys() if k.scenario not in differs)
    pairs, not_completed = [], []
    for k in shared_keys:
        if a[k].status == "completed" and b[k].status == "completed":
            pairs.append((a[k], b[k]))
        else:
            not_completed.append(f"{k.label()} (A {a[k].status}, B {b[k].status})")
    seed = bootstrap_seed(f"{run_a}|{run_b}")
    metrics = sorted({m for c in (*a.values(), *b.values()) for m in c.values})
    rows: list[MetricDelta] = []
    for name in metrics:
        lib = _lower_is_better(name, [c for pair in pairs for c in pair])
        row = metric_delta(name, pairs, seed=seed, lower_is_better=lib)
        if row is not None:
            rows.append(row)
    adjusted = holm({r.metric: r.p_value if r.n_differing else None for r in rows})
    for r in rows:
        r.p_holm = adjusted[r.metric] if r.n_differing else 1.0
        if r.p_holm is not None and r.p_holm <= alpha and r.harm != 0:
            r.verdict = "regression" if r.harm > 0 else "improvement"
    rows.sort(key=_rank)
    return Comparison(
        run_a=run_a,
        run_b=run_b,
        alpha=alpha,
        shared=len(pairs),
        shared_scenarios=sorted({p[0].key.scenario for p in pairs}),
        only_a=sorted(k.label() for k in a.keys() - b.keys()),
        only_b=sorted(k.label() for k in b.keys() - a.keys()),
        data_differs=differs,
        not_completed=not_completed,
        rows=rows,
    )


def smallest_holm_p(rows: list[MetricDelta]) -> float | None:
    """The smallest Holm p any row could reach: an exact sign-flip test over n pairs cannot go
    below 2 / 2^n, and Holm multiplies the smallest p by the number of metrics tested."""
    testable = [r for r in rows if r.n_differing]
    if not testable:
        return None
    most = max(r.n_differing for r in testable)
    return min(1.0, len(testable) * 2.0 / 2**most)


def compare_runs(run_a: str | Path, run_b: str | Path, *, alpha: float = ALPHA) -> Comparison:
    """Read both run folders and compare them; notes say what differs between the runs."""
    sa, sb = load_scores(run_a), load_scores(run_b)
    unscored = [
        f"{name}: {n} conversation(s) not scored (run `voxbench eval` on it)"
        for name, s in (("A", sa), ("B", sb))
        if (n := sum(not c.scored for c in s.values()))
    ]
    comp = compare_scores(sa, sb, run_a=str(run_a), run_b=str(run_b), alpha=alpha)
    notes = list(unscored)
    da, db = dataset_sha(run_a), dataset_sha(run_b)
    if da and db and da != db:
        notes.append(
            "the runs' datasets differ (run.json dataset.sha256): only shared scenarios "
            "with the same data are compared"
        )
    if comp.data_differs:
        notes.append("scenario data differs, left out: " + ", ".join(comp.data_differs))
    if comp.only_a or comp.only_b:
        notes.append(f"conversations in one run only: {len(comp.only_a)} in A, {len(comp.only_b)} in B")
    if comp.shared == 0:
        notes.append("no conversation is shared by both runs with both completed: nothing to compare")
    floor = smallest_holm_p(comp.rows)
    if floor is not None and floor > alpha:
        testable = [r for r in comp.rows if r.n_differing]
        most = max(r.n_differing for r in testable)
        notes.append(
            f"too few pairs to find anything: with at most {most} differing pairs and {len(testable)} "
            f"metrics that differ, the smallest possible Holm p is {floor:.3g} > {alpha:g}; run more "
            "trials or scenarios"
        )
    comp.notes = notes
    return comp
