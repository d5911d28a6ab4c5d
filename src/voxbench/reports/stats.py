"""The numbers on the report, computed from per-record values with EVA's rules.

Per group of conversations (a system, optionally one domain or condition):

* pass@1 = c/n per scenario, pass@k = 1 - C(n-c,k)/C(n,k), pass^k = C(c,k)/C(n,k),
  then averaged over scenarios (eva-reference §4.3); k is the group's trials per
  scenario and scenarios with fewer valid trials are dropped from pass@k / pass^k;
* 95% CIs are a percentile bootstrap over per-scenario values (2000 draws, a seed
  derived from the group's name, so a report is reproducible);
* a perturbation delta pairs scenarios present in both conditions and bootstraps the
  mean difference; it is marked significant when the CI excludes 0.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from voxbench.eval.passk import pass_at_k
from voxbench.eval.passk import pass_power_k_observed as pass_pow_k

N_BOOT = 2000


def seed_of(name: str) -> int:
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big") % 2**31


def bootstrap_ci(values: Sequence[float], seed: int, alpha: float = 0.05) -> tuple[float, float] | None:
    """Percentile bootstrap CI of the mean; None for fewer than 2 values."""
    arr = np.asarray(values, dtype=float)
    if arr.size < 2:
        return None
    rng = np.random.default_rng(seed)
    means = arr[rng.integers(0, arr.size, size=(N_BOOT, arr.size))].mean(axis=1)
    lo, hi = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


@dataclass
class Estimate:
    value: float | None
    ci: tuple[float, float] | None = None
    n: int = 0  # scenarios behind it


@dataclass
class PassStats:
    """pass@1 / pass@k / pass^k of one composite (or metric) over a group."""

    pass1: Estimate
    pass_k: Estimate
    pass_pow_k: Estimate
    k: int
    records: int  # records with a value
    missing: int  # records where it could not be computed (None)
    per_scenario: dict[str, float] = field(default_factory=dict)  # scenario -> pass@1


def pass_stats(trials: dict[str, list[float | None]], seed: int) -> PassStats:
    """`trials`: scenario -> per-trial pass values (1.0 / 0.0 / None)."""
    valid = {s: [v for v in vs if v is not None] for s, vs in trials.items()}
    valid = {s: vs for s, vs in valid.items() if vs}
    missing = sum(1 for vs in trials.values() for v in vs if v is None)
    if not valid:
        k0 = max((len(vs) for vs in trials.values()), default=0)
        return PassStats(Estimate(None), Estimate(None), Estimate(None), k0, 0, missing)
    k = max(len(vs) for vs in valid.values())
    p1 = {s: sum(1 for v in vs if v >= 1.0 - 1e-9) / len(vs) for s, vs in valid.items()}
    full = {s: vs for s, vs in valid.items() if len(vs) >= k}
    pk = {s: pass_at_k(len(vs), sum(1 for v in vs if v >= 1 - 1e-9), k) for s, vs in full.items()}
    ppk = {s: pass_pow_k(len(vs), sum(1 for v in vs if v >= 1 - 1e-9), k) for s, vs in full.items()}

    def est(d: dict[str, float]) -> Estimate:
        vals = [d[s] for s in sorted(d)]
        return Estimate(float(np.mean(vals)) if vals else None, bootstrap_ci(vals, seed), len(vals))

    return PassStats(est(p1), est(pk), est(ppk), k, sum(len(v) for v in valid.values()), missing, p1)


def mean_stats(trials: dict[str, list[float | None]], seed: int) -> Estimate:
    """Mean of a score with a CI over per-scenario means (trials averaged first)."""
    per = {s: float(np.mean(vs)) for s, v in trials.items() if (vs := [x for x in v if x is not None])}
    vals = [per[s] for s in sorted(per)]
    return Estimate(float(np.mean(vals)) if vals else None, bootstrap_ci(vals, seed), len(vals))


@dataclass
class Delta:
    value: float | None
    ci: tuple[float, float] | None
    n: int

    @property
    def significant(self) -> bool:
        return self.ci is not None and (self.ci[0] > 0 or self.ci[1] < 0)


def paired_delta(base: dict[str, float], other: dict[str, float], seed: int) -> Delta:
    """Mean of other - base over scenarios in both, with a bootstrap CI."""
    common = sorted(set(base) & set(other))
    diffs = [other[s] - base[s] for s in common]
    if not diffs:
        return Delta(None, None, 0)
    return Delta(float(np.mean(diffs)), bootstrap_ci(diffs, seed), len(diffs))


def pareto_front(points: Iterable[tuple[str, float, float]]) -> list[str]:
    """Names of the points no other point beats on both axes (higher is better)."""
    pts = list(points)
    front = []
    for name, x, y in pts:
        dominated = any((x2 >= x and y2 >= y) and (x2 > x or y2 > y) for n2, x2, y2 in pts if n2 != name)
        if not dominated:
            front.append(name)
    return front


def percentiles(values: Sequence[float], qs: Sequence[float] = (50, 90, 95)) -> list[float | None]:
    if not values:
        return [None for _ in qs]
    return [float(v) for v in np.percentile(np.asarray(values, dtype=float), qs)]
