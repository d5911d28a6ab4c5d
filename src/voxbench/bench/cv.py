"""One caller graded three ways: in-sample, k-fold by scenario and leave one domain out.

*In-sample*: fitted on every scenario, graded on every scenario. *k-fold*: each fold graded by
the caller fitted on the other folds (:func:`.folds.kfold`). *LODO*: each domain graded by the
caller fitted on the other domains. A caller with nothing to fit (``fits`` false) gives the same
figures all three ways, so it runs once and the three columns are the one run.

Given where each reference caller broke its goal (:class:`.ref_goal.ReferenceGoal`), the report also
holds the in-sample figures on the turns where the reference kept its goal (``figures["in_goal"]``)
and the reference turns left out, per domain and kind (``reference_breaks``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping

from pydantic import BaseModel, Field

from voxbench.bench.caller_check import ScenarioResult, Tally, by_domain, check_all
from voxbench.bench.callers import CallerKind, Item
from voxbench.bench.folds import domain_folds, kfold, rest
from voxbench.bench.tally import breaks_by_domain, in_goal_by_domain

SPLITS = ("in_sample", "kfold", "lodo")
IN_GOAL = "in_goal"
"""The figures key of the in-sample figures on the turns where the reference kept its goal."""
Breaks = Mapping[tuple[str, str], dict[int, list[str]]]


class CheckReport(BaseModel):
    simulator: str
    data: str
    limit: int | None = None
    k: int = 5
    seed: int = 0
    note: str = ""
    figures: dict[str, dict[str, dict[str, float | None]]] = Field(
        default_factory=dict, description="split -> domain (and 'overall') -> summary"
    )
    scenarios: dict[str, list[ScenarioResult]] = Field(default_factory=dict, description="split -> results")
    reference_breaks: dict[str, dict[str, int]] = Field(
        default_factory=dict,
        description="domain (and 'overall') -> goal-rule kind -> reference turns left out",
    )


def _progress(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _graded(kind: CallerKind, folds: list[list[Item]], items: list[Item], label: str,
            say: Callable[[str], None], breaks: Breaks | None) -> list[ScenarioResult]:  # fmt: skip
    out: list[ScenarioResult] = []
    for i, fold in enumerate(folds):
        t0 = time.perf_counter()
        train = rest(items, fold)
        kind.fit(train)
        res = check_all(fold, kind.make, breaks=breaks)
        domains = "+".join(sorted({d for d, _ in fold}))
        say(
            f"  {label} {i + 1}/{len(folds)} ({domains}): fitted on {len(train)}, graded {len(fold)}, {_line(res, t0)}"
        )
        out += res
    return out


def grade(
    kind: CallerKind, items: list[Item], data: str, k: int = 5, seed: int = 0,
    limit: int | None = None, say: Callable[[str], None] = _progress, breaks: Breaks | None = None,
) -> CheckReport:  # fmt: skip
    """Grade ``kind`` on ``items`` in-sample, by k-fold and leave-one-domain-out; with ``breaks``
    also in-sample on the turns where the reference kept its goal."""
    if limit:
        items = [it for dom in domain_folds(items) for it in dom[:limit]]
    report = CheckReport(simulator=kind.name, data=data, limit=limit, k=k, seed=seed)
    say(f"caller check: {kind.name}, {len(items)} scenarios")
    say(" in-sample")
    kind.fit(items)
    results = {"in_sample": _in_sample(kind, items, say, breaks)}
    if kind.fits:
        say(f" {k}-fold by scenario (seed {seed})")
        results["kfold"] = _graded(kind, kfold(items, k, seed), items, "fold", say, breaks)
        say(" leave one domain out")
        results["lodo"] = _graded(kind, domain_folds(items), items, "domain", say, breaks)
    else:
        results["kfold"] = results["lodo"] = results["in_sample"]
        report.note = "nothing fitted: the k-fold and leave-one-domain-out figures are the in-sample run"
    report.scenarios = results if kind.fits else {"in_sample": results["in_sample"]}
    report.figures = {
        split: {d: t.summary() for d, t in by_domain(rs).items()} for split, rs in results.items()
    }
    if breaks is not None:
        report.figures[IN_GOAL] = {d: t.summary() for d, t in in_goal_by_domain(results["in_sample"]).items()}
        report.reference_breaks = breaks_by_domain(results["in_sample"])
    return report


def _in_sample(kind: CallerKind, items: list[Item], say: Callable[[str], None],
               breaks: Breaks | None = None) -> list[ScenarioResult]:  # fmt: skip
    """Every scenario, a progress line per domain."""
    out: list[ScenarioResult] = []
    for dom in domain_folds(items):
        t0 = time.perf_counter()
        res = check_all(dom, kind.make, breaks=breaks)
        say(f"  {dom[0][0]}: {len(dom)} scenarios, {_line(res, t0)}")
        out += res
    return out


def _line(res: list[ScenarioResult], t0: float) -> str:
    t = Tally()
    for r in res:
        t.add(r.tally)
    s = t.summary()
    return (f"requests {s['requests_answered_right_pct']} %, decisions {s['decisions_matched_pct']} %, "
            f"{time.perf_counter() - t0:.1f} s")  # fmt: skip
