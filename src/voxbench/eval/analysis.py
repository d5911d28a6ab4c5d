"""Run-level analyses beside the metrics: variance split, time to completion, failure causes.

Per record (while its context is loaded): when the task became complete
(`completion.py`), why it failed (`failure_cause.py`) and, with `--judge-repeats`, the
repeated judge ratings (`judge_repeats.py`). Per run: the blocks `variance`,
`completion` and `failure_causes` of `metrics_summary.json`.
"""

from __future__ import annotations

from typing import Any

from voxbench.eval.aggregate import COMPOSITES, EVA_COMPONENTS, ScoredRecord
from voxbench.eval.completion import completion_of, completion_stats
from voxbench.eval.context import ConversationContext
from voxbench.eval.failure_cause import cause_counts, failure_cause
from voxbench.eval.variance import Nested, components, split_metric, trials_needed

VARIANCE_METRICS = EVA_COMPONENTS
PASS_METRICS = ("EVA-A_pass", "EVA-X_pass", "EVA-overall_pass", "task_completion")
DEFAULT_CI_TARGET = 0.10


def analyze_record(ctx: ConversationContext, scored: ScoredRecord) -> dict[str, Any]:
    """The per-record analyses, as stored in `metrics.json` and `ScoredRecord.analysis`."""
    out: dict[str, Any] = {}
    if scored.status == "completed":
        out["completion"] = completion_of(ctx).model_dump(exclude_none=True)
    cause = failure_cause(ctx, scored)
    out["failure_cause"] = cause.model_dump(exclude_none=True) if cause is not None else None
    out["domain"] = ctx.domain
    return out


def _value(r: ScoredRecord, name: str) -> float | None:
    if name in r.aggregates:
        return r.aggregates[name]
    m = r.metrics.get(name)
    return m.value if m is not None and m.ok else None


def nested_values(records: list[ScoredRecord], name: str) -> Nested:
    """y[scenario][trial] = the judge repeats when recorded, else [the value]."""
    y: Nested = {}
    for r in records:
        reps = (r.analysis.get("judge_repeats") or {}).get(name)
        cell = [float(v) for v in reps if v is not None] if reps else []
        if not cell:
            v = _value(r, name)
            cell = [float(v)] if v is not None else []
        if cell:
            y.setdefault(r.scenario_id, []).append(cell)
    return y


def variance_block(records: list[ScoredRecord], seed: int, k: int, target: float) -> dict[str, Any]:
    names = [c.name for c in COMPOSITES] + [
        m for m in VARIANCE_METRICS if any(m in r.metrics for r in records)
    ]
    extra = sorted({n for r in records for n in (r.analysis.get("judge_repeats") or {})} - set(names))
    out: dict[str, Any] = {"k": k, "ci_target_width": target, "per_metric": {}, "pass_at_1_trials_needed": {}}
    if k < 2:
        out["note"] = "needs k >= 2 trials per scenario"
        return out
    for n in names + extra:
        y = nested_values(records, n)
        block = split_metric(y, seed)
        if block is None:
            continue
        out["per_metric"][n] = block
        if n in PASS_METRICS:
            c = components(y)
            if c is not None:
                r = round(block["judge_repeats"] or 1)
                out["pass_at_1_trials_needed"][n] = trials_needed(
                    c, block["n_scenarios"], round(block["trials_per_scenario"]), target, r
                )
    if not out["per_metric"]:
        out["note"] = "needs at least two scenarios with two or more scored trials"
    return out


def analysis_summary(
    records: list[ScoredRecord], seed: int, k: int, ci_target: float = DEFAULT_CI_TARGET
) -> dict[str, Any]:
    """The three run-level blocks of `metrics_summary.json`."""
    ok = [r for r in records if r.status == "completed"]
    comp = completion_stats(
        [
            (str(r.analysis.get("domain") or ""), r.analysis.get("completion"), _value(r, "task_completion"))
            for r in ok
        ]
    )
    causes = [r.analysis.get("failure_cause") for r in records]
    fc = cause_counts(causes)
    fc["by_record"] = {
        r.record_id: {k: v for k, v in c.items() if k in ("cause", "stage", "turn", "summary")}
        for r in records
        if (c := r.analysis.get("failure_cause"))
    }
    return {"variance": variance_block(ok, seed, k, ci_target), "completion": comp, "failure_causes": fc}
