"""A run's metrics_summary.json: the scored records counted (infrastructure failures and
invalid simulations listed with their reasons, never dropped), data quality, overall and per
metric scores with bootstrap intervals, pass@k, metric errors, τ-voice's pooled panel, the
analyses and the provenance."""

from pathlib import Path
from typing import Any

from voxbench.eval.aggregate import ScoredRecord, bootstrap_seed, overall_scores, per_metric_summary
from voxbench.eval.analysis import DEFAULT_CI_TARGET, analysis_summary
from voxbench.eval.metrics_doc import SUMMARY_SCHEMA
from voxbench.eval.provenance import provenance
from voxbench.eval.tau_voice.pool import pooled_panel
from voxbench.eval.types import REGISTRY, EvalConfig

SUMMARY_FILE = "metrics_summary.json"


def data_quality(records: list[ScoredRecord]) -> dict[str, Any]:
    none_: dict[str, int] = {}
    err: dict[str, int] = {}
    for r in records:
        for m, res in r.metrics.items():
            if res.error is not None:
                err[m] = err.get(m, 0) + 1
            elif res.value is None:
                none_[m] = none_.get(m, 0) + 1
    all_names = {m for r in records for m in r.metrics}
    missing = {m: sum(1 for r in records if m not in r.metrics) for m in all_names}
    return {
        "total_records": len(records),
        "records_with_any_none": sum(1 for r in records if any(x.value is None for x in r.metrics.values())),
        "records_with_errors": sum(1 for r in records if any(x.error for x in r.metrics.values())),
        "records_with_missing": sum(1 for r in records if all_names - set(r.metrics)),
        "metrics_with_none_scores": none_,
        "metrics_with_errors": err,
        "metrics_with_missing": {k: v for k, v in missing.items() if v},
    }


def summarize(
    run_dir: Path,
    scored: list[ScoredRecord],
    config: EvalConfig,
    metrics: list[str],
    num_draws: int | None = None,
    ci_target: float = DEFAULT_CI_TARGET,
) -> dict[str, Any]:
    ok = [r for r in scored if r.status == "completed"]
    infra = [r for r in scored if r.status == "infra_failure"]
    invalid = [r for r in scored if r.status == "invalid"]
    trials: dict[str, int] = {}
    for r in ok:
        trials[r.scenario_id] = trials.get(r.scenario_id, 0) + 1
    k = num_draws or (max(trials.values()) if trials else 1)
    seed = bootstrap_seed(run_dir.resolve().name)
    summary: dict[str, Any] = {
        "schema_version": SUMMARY_SCHEMA,
        "total_records": len(scored),
        "scored_records": len(ok),
        "failures": {
            "infrastructure": {"count": len(infra), "record_ids": [r.record_id for r in infra]},
            "validation": {
                "count": len(invalid),
                "record_ids": [r.record_id for r in invalid],
                "reasons": {r.record_id: r.validation for r in invalid},
            },
        },
        "data_quality": data_quality(ok),
        "overall_scores": overall_scores(ok, seed, k),
        "per_metric": per_metric_summary(ok, seed, k),
        "pass_at_k_config": {
            "num_draws": k,
            "per_metric_thresholds": {
                m: REGISTRY[m].pass_threshold for m in metrics if not REGISTRY[m].exclude_from_pass_at_k
            },
            "exclude_metrics": [m for m in metrics if REGISTRY[m].exclude_from_pass_at_k],
        },
        "bootstrap": {"n_boot": 2000, "alpha": 0.05, "seed": seed, "unit": "per-scenario means"},
        "provenance": provenance(run_dir, config, metrics),
    }
    errs = {
        m: {
            "failed_count": sum(1 for r in ok if m in r.metrics and r.metrics[m].error),
            "total_count": sum(1 for r in ok if m in r.metrics),
            "failed_records": [r.record_id for r in ok if m in r.metrics and r.metrics[m].error],
        }
        for m in metrics
    }
    summary["metric_errors"] = {m: v for m, v in errs.items() if v["failed_count"]}
    tau = pooled_panel({n: m.details for n, m in r.metrics.items() if n.startswith("tau_")} for r in ok)
    if tau is not None:
        summary["tau_voice_panel"] = tau  # τ-voice's pooling: over calls, not a mean of calls
    summary.update(analysis_summary(scored, seed, k, ci_target))
    low = [
        str(d.get("note") or f"{d.get('model')}: low-confidence judge")
        for d in summary["provenance"]["judge_details"].values()
        if d.get("confidence") == "low"
    ]
    if low:
        summary["judge_confidence"] = {"level": "low", "notes": low}
    return summary
