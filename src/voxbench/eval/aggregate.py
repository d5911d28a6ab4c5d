"""Composites per record, run-level aggregation with bootstrap CIs, pass@k blocks (EVA §4)."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from voxbench.eval.exact_mean import mean
from voxbench.eval.passk import scenario_pass_k
from voxbench.eval.types import REGISTRY, MetricResult

N_BOOT = 2000
EVA_COMPONENTS = (
    "task_completion",
    "faithfulness",
    "agent_speech_fidelity",
    "conversation_progression",
    "conciseness",
    "turn_taking",
)
"""The six metrics EVA-A and EVA-X are made of (EVA-overall's mean, the variance and paper analyses)."""
ALPHA = 0.05


@dataclass(frozen=True)
class Composite:
    name: str
    kind: str  # "pass" | "mean" | "derived"
    components: dict[str, float | None] = field(default_factory=dict)  # metric -> threshold
    parts: tuple[str, ...] = ()


COMPOSITES = (
    Composite(
        "EVA-A_pass", "pass", {"task_completion": 1.0, "faithfulness": 0.5, "agent_speech_fidelity": 0.95}
    ),
    Composite(
        "EVA-X_pass", "pass", {"conversation_progression": 0.5, "turn_taking": 0.8, "conciseness": 0.5}
    ),
    Composite(
        "EVA-A_mean", "mean", dict.fromkeys(("task_completion", "faithfulness", "agent_speech_fidelity"))
    ),
    Composite(
        "EVA-X_mean", "mean", dict.fromkeys(("conversation_progression", "conciseness", "turn_taking"))
    ),
    Composite("EVA-overall_mean", "mean", dict.fromkeys(EVA_COMPONENTS)),
    Composite("EVA-overall_pass", "derived", parts=("EVA-A_pass", "EVA-X_pass")),
)


def _ge(a: float, b: float) -> bool:
    return a > b or math.isclose(a, b, abs_tol=1e-9)


def record_aggregates(results: dict[str, MetricResult]) -> dict[str, float | None]:
    """Per-record composites. pass: None if a component is missing/errored; skipped
    components are ignored; None if all are skipped. mean: average of usable values, not
    rounded (EVA stores the exact mean; run-level summaries round to 4 places)."""
    out: dict[str, float | None] = {}
    for comp in COMPOSITES:
        if comp.kind == "pass":
            val: float | None = 1.0
            usable = 0
            for m, thr in comp.components.items():
                r = results.get(m)
                if r is None or r.error is not None or r.details.get("unscored"):
                    val = None
                    break
                if r.skipped:
                    continue
                v = r.value
                if v is None:
                    val = None
                    break
                usable += 1
                if not _ge(v, float(thr or 0.0)):
                    val = 0.0
            out[comp.name] = val if usable else None
        elif comp.kind == "mean":
            vals = [
                r.value
                for m in comp.components
                if (r := results.get(m)) is not None and r.ok and r.value is not None
            ]
            out[comp.name] = mean(vals) if vals else None  # unrounded, as EVA stores it
        else:
            a, b = (out.get(p) for p in comp.parts)
            out[comp.name] = None if a is None or b is None else float(a == 1.0 and b == 1.0)
    return out


def bootstrap_seed(run_name: str) -> int:
    return int.from_bytes(hashlib.sha256(run_name.encode()).digest()[:4], "big") % 2**31


def bootstrap_ci(
    per_scenario: dict[str, list[float]], seed: int, n_boot: int = N_BOOT, alpha: float = ALPHA
) -> tuple[float | None, float | None, int]:
    """Percentile bootstrap of the mean over per-scenario means (trials averaged first)."""
    means = np.array([mean(v) for v in per_scenario.values() if v], dtype=float)
    n = len(means)
    if n == 0:
        return None, None, 0
    if n == 1:
        return float(means[0]), float(means[0]), 1
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(n_boot, n))
    boots = means[idx].mean(axis=1)
    lo, hi = np.quantile(boots, [alpha / 2, 1 - alpha / 2])
    return round(float(lo), 4), round(float(hi), 4), n


@dataclass
class ScoredRecord:
    record_id: str
    scenario_id: str
    trial: int
    status: str  # completed | infra_failure | invalid
    metrics: dict[str, MetricResult]
    aggregates: dict[str, float | None]
    validation: dict[str, Any] = field(default_factory=dict)
    analysis: dict[str, Any] = field(default_factory=dict)
    """Completion time, failure cause, judge repeats (`voxbench.eval.analysis`)."""


def _stats(vals: list[float | None], total: int, errors: int, missing: int) -> dict[str, Any]:
    got = [v for v in vals if v is not None]
    return {
        "mean": round(mean(got), 4) if got else None,
        "min": round(min(got), 4) if got else None,
        "max": round(max(got), 4) if got else None,
        "count": len(got),
        "none_count": len(vals) - len(got),
        "error_count": errors,
        "missing_count": missing,
        "total_records": total,
    }


def _by_scenario(items: Iterable[tuple[str, float | None]]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for sid, v in items:
        if v is not None:
            out.setdefault(sid, []).append(v)
    return out


def sub_direction(key: str, parent_higher: bool) -> bool:
    if key.endswith("_rate"):
        return False
    if key.endswith("_accuracy"):
        return True
    return parent_higher


def per_metric_summary(records: list[ScoredRecord], seed: int, num_draws: int) -> dict[str, Any]:
    names = sorted({m for r in records for m in r.metrics})
    out: dict[str, Any] = {}
    total = len(records)
    for m in names:
        spec = REGISTRY.get(m)
        hib = spec.higher_is_better if spec else True
        vals: list[float | None] = []
        errors = missing = 0
        pairs: list[tuple[str, float | None]] = []
        for r in records:
            res = r.metrics.get(m)
            if res is None:
                missing += 1
                continue
            if res.error is not None:
                errors += 1
            v = res.value if res.ok else None
            vals.append(v)
            pairs.append((r.scenario_id, v))
        block = _stats(vals, total, errors, missing)
        lo, hi, ns = bootstrap_ci(_by_scenario(pairs), seed)
        block.update(
            {"mean_ci_lower": lo, "mean_ci_upper": hi, "mean_ci_n_scenarios": ns, "higher_is_better": hib}
        )
        turns = [r.metrics[m].details for r in records if m in r.metrics and r.metrics[m].ok]
        if turns and all("num_turns" in d and "num_evaluated" in d for d in turns):
            tot = sum(int(d["num_turns"]) for d in turns)
            ev = sum(int(d["num_evaluated"]) for d in turns)
            block["per_turn_coverage"] = {
                "total_turns": tot,
                "evaluated_turns": ev,
                "none_turns": max(0, tot - ev),
                "none_turn_rate": round(max(0, tot - ev) / tot, 4) if tot else None,
                "records_with_none_turns": sum(
                    1 for d in turns if int(d["num_evaluated"]) < int(d["num_turns"])
                ),
            }
        per_key: dict[str, list[float | None]] = {}  # sub-metric -> values, in record order
        for r in records:
            res = r.metrics.get(m)
            if res is not None:
                for k, sres in res.sub_metrics.items():
                    per_key.setdefault(k, []).append(sres.value)
        if per_key:
            block["sub_metrics"] = {}
            for k in sorted(per_key):
                sv = per_key[k]
                sb = _stats(sv, total, 0, total - len(sv))
                sb["higher_is_better"] = sub_direction(k, hib)
                block["sub_metrics"][k] = sb
        if (
            spec is not None
            and not spec.exclude_from_pass_at_k
            and spec.pass_threshold is not None
            and num_draws > 1
        ):
            thr = spec.pass_threshold
            outcomes: dict[str, list[bool]] = {}
            for r in records:
                res = r.metrics.get(m)
                if res is not None and res.ok and res.value is not None:
                    outcomes.setdefault(r.scenario_id, []).append(_ge(res.value, thr))
            pk = pass_k_block(outcomes, num_draws, seed)
            if pk is not None:
                block["pass_k"] = pk
        out[m] = block
    return out


def pass_k_block(outcomes: dict[str, list[bool]], num_draws: int, seed: int) -> dict[str, Any] | None:
    per = {sid: res for sid, o in outcomes.items() if (res := scenario_pass_k(o, num_draws)) is not None}
    if not per:
        return None
    block: dict[str, Any] = {"k": num_draws, "count": len(per), "dropped_scenarios": len(outcomes) - len(per)}
    for f in ("pass_at_1", "pass_at_k", "pass_power_k_observed", "pass_power_k_theoretical"):
        block[f] = round(mean(p[f] for p in per.values()), 4)
        if f != "pass_power_k_theoretical":
            lo, hi, _ = bootstrap_ci({sid: [p[f]] for sid, p in per.items()}, seed)
            block[f"{f}_ci_lower"], block[f"{f}_ci_upper"] = lo, hi
    return block


def overall_scores(records: list[ScoredRecord], seed: int, num_draws: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    total = len(records)
    for comp in COMPOSITES:
        # a record whose composites were never computed (no aggregates at all, e.g. read
        # back from an older metrics file) is missing, not a None value; an empty run has
        # every composite present with count 0 and a null mean
        missing = sum(1 for r in records if comp.name not in r.aggregates)
        vals = [r.aggregates[comp.name] for r in records if comp.name in r.aggregates]
        got = [v for v in vals if v is not None]
        m = round(mean(got), 4) if got else None
        lo, hi, ns = bootstrap_ci(
            _by_scenario((r.scenario_id, r.aggregates.get(comp.name)) for r in records), seed
        )
        out[comp.name] = {
            "mean": m,
            "count": len(got),
            "none_count": len(vals) - len(got),
            "missing_count": missing,
            "total_records": total,
            "success_rate": m
            if comp.kind != "mean"
            else (round(sum(v >= 0.5 for v in got) / len(got), 4) if got else None),
            "mean_ci_lower": lo,
            "mean_ci_upper": hi,
            "mean_ci_n_scenarios": ns,
        }
    if num_draws > 1:
        pk: dict[str, Any] = {}
        for comp in COMPOSITES:
            if comp.kind == "mean":
                continue
            trials: dict[str, list[float | None]] = {}
            for r in records:
                trials.setdefault(r.scenario_id, []).append(r.aggregates.get(comp.name))
            outcomes = {
                sid: [v == 1.0 for v in vs]
                for sid, vs in trials.items()
                if all(v is not None for v in vs) and len(vs) >= num_draws
            }
            block = pass_k_block(outcomes, num_draws, seed)
            if block is not None:
                pk[comp.name] = block
        out["pass_k"] = pk
    return out
