"""Where the variance of a score comes from: scenarios, trials, and the judge.

For a run with k >= 2 trials per scenario, each metric's values y[s, t] (and, when the
judge rated each conversation R times, y[s, t, r]) are split with the nested
random-effects model y = mu + a_s + b_st (+ e_str), method-of-moments (ANOVA)
estimators that also work when scenarios have different numbers of trials:

* judge (within a conversation): the pooled variance of the R repeated ratings;
* trial (within a scenario): the pooled variance of the conversation means within a
  scenario, minus what judge noise explains (sigma2_judge / R);
* scenario: the variance of the scenario means, minus what trial and judge noise
  explain (sigma2_trial / k + sigma2_judge / (k R)).

Negative estimates are truncated at 0. Without judge repeats the trial component
includes the judge's own noise (it cannot be separated). CIs: percentile bootstrap over
scenarios (resampling the top level of a nested design is what keeps every component's
interval honest).

Trials needed (not estimable when every conversation scored the same: zero observed variance
says nothing about how wide the CI is): the pass@1 estimate is the mean over S scenarios of per-scenario pass
rates, so its variance is (sigma2_scenario + sigma2_trial / k) / S, and the 95% CI width
2 * 1.96 * sqrt(that). The part due to trials falls as k^-1/2; the scenario part does
not, so below a floor only more scenarios help, and we say so.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from pydantic import BaseModel

Z95 = 1.959964
N_BOOT = 1000

# y[scenario] -> list over trials of list over judge repeats (one value when no repeats)
Nested = dict[str, list[list[float]]]


class Components(BaseModel):
    scenario: float
    trial: float
    judge: float | None = None

    @property
    def total(self) -> float:
        return self.scenario + self.trial + (self.judge or 0.0)


def _mean(v: list[float]) -> float:
    return sum(v) / len(v)


def _pooled_within(groups: list[list[float]]) -> tuple[float, int]:
    """Pooled within-group variance (ddof 1 per group) and its degrees of freedom."""
    ss, df = 0.0, 0
    for g in groups:
        n = len(g)
        if n > 1:
            m = sum(g) / n
            ss += sum((x - m) ** 2 for x in g)
            df += n - 1
    return (ss / df if df else 0.0), df


def components(y: Nested) -> Components | None:
    """Method-of-moments split; None when no scenario has two trials (plain floats: the
    bootstrap calls this a thousand times per metric)."""
    y = {s: t for s, trials in y.items() if (t := [c for c in trials if c])}
    if len(y) < 2 or not any(len(t) >= 2 for t in y.values()):
        return None
    cells = [c for t in y.values() for c in t]
    repeats = any(len(c) >= 2 for c in cells)
    judge = _pooled_within(cells)[0] if repeats else 0.0
    r_bar = sum(len(c) for c in cells) / len(cells)
    cell_means = [[_mean(c) for c in t] for t in y.values()]
    within = _pooled_within(cell_means)[0]
    trial = max(0.0, within - (judge / r_bar if repeats else 0.0))
    k_harm = len(y) / sum(1.0 / len(t) for t in y.values())  # harmonic mean trials per scenario
    s_means = [_mean(m) for m in cell_means]
    mu = _mean(s_means)
    between = sum((x - mu) ** 2 for x in s_means) / (len(s_means) - 1)
    scen = max(0.0, between - within / k_harm)
    return Components(scenario=scen, trial=trial, judge=judge if repeats else None)


def _balanced(y: Nested) -> np.ndarray | None:
    """The values as an (S, k, R) array when every scenario has k trials of R ratings."""
    shapes = {(len(t), len(c)) for t in y.values() for c in t}
    if len(shapes) != 1 or any(len(t) != len(next(iter(y.values()))) for t in y.values()):
        return None
    return np.asarray([list(t) for t in y.values()], dtype=float)


def _components_batch(a: np.ndarray) -> dict[str, np.ndarray]:
    """`components` for a batch of balanced designs, shape (B, S, k, R), vectorised."""
    r, k = a.shape[3], a.shape[2]
    judge = a.var(axis=3, ddof=1).mean(axis=(1, 2)) if r >= 2 else np.zeros(a.shape[0])
    cells = a.mean(axis=3)
    within = cells.var(axis=2, ddof=1).mean(axis=1)
    trial = np.maximum(0.0, within - judge / r)
    scen = np.maximum(0.0, cells.mean(axis=2).var(axis=1, ddof=1) - within / k)
    return {"scenario": scen, "trial": trial, "judge": judge}


def _components_resampled(a: np.ndarray, picks: np.ndarray) -> dict[str, np.ndarray]:
    """`_components_batch(a[picks])` for a design `a` of shape (S, k, R) and bootstrap
    draws `picks` (B, S) of scenario indices, without building the (B, S, k, R) copy:
    every statistic of one scenario (its cells' means and judge variances, the variance of
    its cell means, its mean) is computed once and gathered by `picks`. Each is reduced
    over the same contiguous row of values as in the copy, so the results are the same
    floats (a test compares them); the summary's variance block took ~0.1 s per 1,000
    records in the copy's reductions (issue 18)."""
    r, k = a.shape[2], a.shape[1]
    judge = a.var(axis=2, ddof=1)[picks].mean(axis=(1, 2)) if r >= 2 else np.zeros(picks.shape[0])
    cells = a.mean(axis=2)
    within = cells.var(axis=1, ddof=1)[picks].mean(axis=1)
    trial = np.maximum(0.0, within - judge / r)
    scen = np.maximum(0.0, cells.mean(axis=1)[picks].var(axis=1, ddof=1) - within / k)
    return {"scenario": scen, "trial": trial, "judge": judge}


def _bootstrap(y: Nested, seed: int, n_boot: int) -> dict[str, tuple[float, float] | None]:
    """Percentile CIs, resampling scenarios (vectorised when the design is balanced)."""
    keys = list(y)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(keys), size=(n_boot, len(keys)))
    draws: dict[str, list[float]] = {"scenario": [], "trial": [], "judge": [], "share_scenario": []}
    arr = _balanced(y)
    if arr is not None and arr.shape[1] >= 2:
        got = _components_resampled(arr, picks)
        total = got["scenario"] + got["trial"] + got["judge"]
        draws["scenario"], draws["trial"] = list(got["scenario"]), list(got["trial"])
        if arr.shape[2] >= 2:
            draws["judge"] = list(got["judge"])
        draws["share_scenario"] = list(got["scenario"][total > 0] / total[total > 0])
    else:
        for pick in picks:
            c = components({f"{i}:{keys[j]}": y[keys[j]] for i, j in enumerate(pick)})
            if c is None:
                continue
            draws["scenario"].append(c.scenario)
            draws["trial"].append(c.trial)
            if c.judge is not None:
                draws["judge"].append(c.judge)
            if c.total > 0:
                draws["share_scenario"].append(c.scenario / c.total)
    out: dict[str, tuple[float, float] | None] = {}
    for k, v in draws.items():
        out[k] = (
            (round(float(np.quantile(v, 0.025)), 5), round(float(np.quantile(v, 0.975)), 5)) if v else None
        )
    return out


def ci_width(scen: float, trial: float, judge: float, n_scen: int, k: float, r: float = 1.0) -> float:
    """Model 95% CI width of the run mean with n_scen scenarios and k trials each."""
    return 2 * Z95 * math.sqrt(max(0.0, scen + trial / k + judge / (k * r)) / n_scen)


def trials_needed(c: Components, n_scen: int, k: int, target: float, r: int = 1) -> dict[str, Any]:
    """Trials per scenario for a 95% CI width under `target` (None when trials cannot reach it)."""
    judge = c.judge or 0.0
    now = ci_width(c.scenario, c.trial, judge, n_scen, k, r)
    floor = ci_width(c.scenario, 0.0, 0.0, n_scen, 1)
    out: dict[str, Any] = {
        "target_width": target,
        "model_width_now": round(now, 4),
        "width_floor_from_scenarios": round(floor, 4),
        "k_now": k,
    }
    if c.total == 0:
        # every conversation scored the same (all failed, or all passed): a zero width is an
        # artifact of seeing no variation, not evidence that k trials are enough
        out["trials_needed"] = None
        out["note"] = (
            "no variation observed (every conversation scored the same): not estimable from this run"
        )
        return out
    if now <= target:
        out["trials_needed"] = k
        return out
    if floor >= target:
        out["trials_needed"] = None
        # more scenarios: width scales as n^-1/2 at fixed k
        out["scenarios_needed_at_k"] = math.ceil(n_scen * (now / target) ** 2)
        out["note"] = "scenario-to-scenario variance alone keeps the CI wider than the target: add scenarios"
        return out
    need = (c.trial + judge / r) / (n_scen * (target / (2 * Z95)) ** 2 - c.scenario)
    out["trials_needed"] = max(k, math.ceil(need))
    return out


def split_metric(y: Nested, seed: int, n_boot: int = N_BOOT) -> dict[str, Any] | None:
    """Components, shares and bootstrap CIs for one metric's nested values."""
    c = components(y)
    if c is None:
        return None
    tot = c.total
    shares = {
        "scenario": round(c.scenario / tot, 4) if tot else None,
        "trial": round(c.trial / tot, 4) if tot else None,
    }
    if c.judge is not None:
        shares["judge"] = round(c.judge / tot, 4) if tot else None
    ks = [len(t) for t in y.values() if t]
    rs = [len(cell) for t in y.values() for cell in t]
    return {
        "n_scenarios": len(ks),
        "trials_per_scenario": round(float(np.mean(ks)), 2),
        "judge_repeats": round(float(np.mean(rs)), 2) if c.judge is not None else None,
        "mean": round(float(np.mean([_mean(cell) for t in y.values() for cell in t])), 4),
        "variance": {k: round(v, 6) for k, v in c.model_dump().items() if v is not None},
        "total_variance": round(tot, 6),
        "share": shares,
        "ci95": _bootstrap(y, seed, n_boot),
    }
