"""Score records and runs: metrics.json per record, metrics_summary.json per run.

Only records with status "completed" that pass the validation gate are scored for agent
metrics and aggregated. Infrastructure failures and invalid simulations are counted and
listed in the summary (never dropped silently), with their validation results.
"""

from __future__ import annotations

import contextlib
import functools
import json
import platform
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pydantic_core

import voxbench
import voxbench.eval.metrics
from voxbench.eval.aggregate import (
    ScoredRecord,
    bootstrap_seed,
    overall_scores,
    per_metric_summary,
    record_aggregates,
)
from voxbench.eval.analysis import DEFAULT_CI_TARGET, analysis_summary, analyze_record
from voxbench.eval.context import ConversationContext
from voxbench.eval.eva_dataset import EvaDataset
from voxbench.eval.eva_format import domain_from_config, is_eva_record, load_eva_context
from voxbench.eval.from_record import load_context
from voxbench.eval.heap import settled_heap
from voxbench.eval.judge_repeats import repeat_configs, repeat_values
from voxbench.eval.metrics.validation import validation_gate
from voxbench.eval.offline._shipped import offline_provenance
from voxbench.eval.parallel import fork_available, map_in_processes
from voxbench.eval.tau_voice.pool import pooled_panel
from voxbench.eval.types import REGISTRY, EvalConfig, MetricResult, run_metric
from voxbench.records import atomic_write_bytes, atomic_write_json

METRICS_FILE = "metrics.json"
SUMMARY_FILE = "metrics_summary.json"
SUMMARY_SCHEMA = "1.0"
_ARCHIVED = re.compile(r"_(failed_attempt|attempt|unvalidated)_\d+$")


def default_metrics() -> list[str]:
    return [n for n, s in REGISTRY.items() if s.default]


def score_context(
    ctx: ConversationContext, config: EvalConfig, metrics: Iterable[str] | None = None
) -> ScoredRecord:
    names = list(metrics or default_metrics())
    unknown = [n for n in names if n not in REGISTRY]
    if unknown:
        raise ValueError(f"unknown metric(s): {', '.join(unknown)} (known: {', '.join(sorted(REGISTRY))})")
    results: dict[str, MetricResult] = {}
    val_names = [n for n in names if REGISTRY[n].category == "validation"]
    for n in val_names:
        results[n] = run_metric(REGISTRY[n], ctx, config)
    gate = (
        validation_gate(results)
        if "conversation_valid_end" in results
        else {"valid": True, "status": "unchecked"}
    )
    status = ctx.status
    if status == "completed" and not gate["valid"]:
        status = "invalid"
    if status == "completed":
        if not ctx.num_assistant_turns or not ctx.num_user_turns:
            for n in names:
                if n not in results:
                    results[n] = MetricResult.fail(n, "Skipped: no assistant or user turns")
        else:
            for n in names:
                if n not in results:
                    results[n] = run_metric(REGISTRY[n], ctx, config)
    scored = ScoredRecord(
        record_id=ctx.record_id,
        scenario_id=ctx.scenario_id or ctx.record_id,
        trial=ctx.trial,
        status=status,
        metrics=results,
        aggregates=record_aggregates(results) if status == "completed" else {},
        validation=gate,
    )
    scored.analysis = analyze_record(ctx, scored)
    return scored


def metrics_json(scored: ScoredRecord, ctx: ConversationContext) -> dict[str, Any]:
    doc = metrics_json_doc(scored, ctx)
    doc["metrics"] = {k: v.model_dump(mode="json") for k, v in scored.metrics.items()}
    return doc


def metrics_bytes(scored: ScoredRecord, ctx: ConversationContext) -> bytes:
    """`json_bytes(metrics_json(scored, ctx))`, with the metric results serialized straight
    from their models instead of dumped to dicts first (same bytes, a test checks)."""
    doc = metrics_json_doc(scored, ctx)
    doc["metrics"] = dict(scored.metrics)
    return json_bytes(doc)


def metrics_json_doc(scored: ScoredRecord, ctx: ConversationContext) -> dict[str, Any]:
    """`metrics_json` without the metrics, which the callers fill in."""
    return {
        "schema_version": SUMMARY_SCHEMA,
        "record_id": scored.record_id,
        "scenario_id": scored.scenario_id,
        "trial": scored.trial,
        "status": scored.status,
        "error": ctx.error,
        "validation": scored.validation,
        "metrics": {},
        "aggregate_metrics": scored.aggregates,
        "analysis": scored.analysis,
        "context": ctx.json_view(),
    }


def json_bytes(obj: Any) -> bytes:
    """`metrics.json` text: what `atomic_write_json` writes (indent 2, UTF-8, str() for
    unknown types), serialized in Rust by pydantic-core, about 5x faster than the stdlib's
    pure-Python indenting encoder. The parsed JSON is identical; only floats below 1e-4
    are spelled differently (0.00001 for 1e-05, 1e-7 for 1e-07)."""
    return pydantic_core.to_json(obj, indent=2, fallback=str)


@dataclass
class FoundRecord:
    path: Path
    kind: str  # "voxbench" | "eva"
    record_id: str


def discover(run_dir: Path) -> list[FoundRecord]:
    """voxbench: every directory holding record.json; EVA: records/<id>[/trial_i]/result.json
    (archived `_failed_attempt_N` folders are skipped: they are not the final attempt)."""
    out: list[FoundRecord] = []
    for p in sorted(run_dir.rglob("record.json")):
        rel = str(p.parent.relative_to(run_dir))
        if not _ARCHIVED.search(rel):
            out.append(FoundRecord(p.parent, "voxbench", rel))
    if not out:
        recs = run_dir / "records" if (run_dir / "records").is_dir() else run_dir
        for p in sorted(recs.rglob("result.json")):
            rel = str(p.parent.relative_to(recs))
            if _ARCHIVED.search(rel) or not is_eva_record(p.parent):
                continue
            out.append(FoundRecord(p.parent, "eva", rel))
    return out


class EvaRunInputs:
    """What every EVA record of one run shares, read once per run: the run's domain (from
    its config.json) and the dataset (scenarios, agent spec). Reading these again for each
    record cost more than scoring it."""

    def __init__(self, run_dir: Path, eva_dataset: Path | None) -> None:
        self.run_dir = run_dir
        self.dataset = EvaDataset(eva_dataset) if eva_dataset is not None else None
        self._domain: tuple[str | None] | None = None

    @property
    def domain(self) -> str | None:
        if self._domain is None:
            self._domain = (domain_from_config(self.run_dir) or domain_from_config(self.run_dir.parent),)
        return self._domain[0]


def load_any(
    found: FoundRecord,
    run_dir: Path,
    eva_dataset: Path | None,
    pipeline_type: str,
    shared: EvaRunInputs | None = None,
) -> ConversationContext:
    """Load one found record; pass the run's `shared` inputs when loading many."""
    if found.kind == "voxbench":
        return load_context(found.path)
    shared = shared or EvaRunInputs(run_dir, eva_dataset)
    return load_eva_context(
        found.path,
        record_id=found.record_id,
        domain=shared.domain,
        pipeline_type=pipeline_type,
        dataset=shared.dataset,
    )


def _git(*args: str) -> str | None:
    try:
        return subprocess.run(
            ["git", *args], capture_output=True, text=True, timeout=5, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def provenance(run_dir: Path, config: EvalConfig, metrics: list[str]) -> dict[str, Any]:
    from voxbench.eval.judges import prompts as P
    from voxbench.eval.types import prompt_hash

    judges = {
        k: getattr(j, "model", None)
        for k, j in (("text", config.judge), ("audio", config.audio_judge))
        if j is not None
    }
    prompts = {
        n: prompt_hash(P.render(getattr(P, n)))
        for n in (
            "FAITHFULNESS",
            "CONCISENESS",
            "PROGRESSION",
            "SPEAKABILITY",
            "KEY_ENTITIES",
            "USER_BEHAVIOR",
        )
    }
    judge_details = {
        k: dict(prov)
        for k, j in (("text", config.judge), ("audio", config.audio_judge))
        if j is not None and isinstance(prov := getattr(j, "provenance", None), dict)
    }
    run_json = run_dir / "run.json"
    mode = config.text_judge_mode()
    return {
        "voxbench_version": getattr(voxbench, "__version__", None),
        "metrics_versions": {m: REGISTRY[m].version for m in metrics},
        "git_commit_sha": _git("rev-parse", "HEAD"),
        "git_dirty": bool(_git("status", "--porcelain")),
        "python_version": sys.version.split()[0],
        "platform": platform.platform(),
        "captured_at": datetime.now(UTC).isoformat(),
        "judges": judges,
        "judge_details": judge_details,
        "judge_prompts": prompts,
        "judge_mode": mode,
        "offline_judges": offline_provenance(m for m in metrics if REGISTRY[m].needs_judge)
        if mode == "offline"
        else {},
        "run_manifest": json.loads(run_json.read_text(encoding="utf-8")) if run_json.is_file() else None,
        "metrics_computed": metrics,
    }


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


def can_parallelize(job: RunJob, n_records: int, workers: int) -> bool:
    """Processes pay off for code metrics over more than a handful of records."""
    return (
        workers > 1
        and n_records >= 4 * workers
        and job.config.judge is None
        and job.config.audio_judge is None
        and job.judge_repeats < 2
        and fork_available()
    )


def score_in_processes(
    found: list[FoundRecord],
    job: RunJob,
    workers: int,
    settle: Callable[[], None] | None = None,
    on_scored: Callable[[int], None] | None = None,
) -> list[ScoredRecord]:
    if job.shared.dataset is not None and job.shared.domain and any(f.kind == "eva" for f in found):
        # load the dataset once here: the forked workers share it (a load error is
        # remembered, and every record that needs the dataset reports it)
        with contextlib.suppress(Exception):
            job.shared.dataset.domain(job.shared.domain)
    return map_in_processes(functools.partial(score_found, job=job), found, workers, settle, on_scored)


@dataclass
class RunJob:
    """What scoring each record of one run needs (the same for every record)."""

    run_dir: Path
    config: EvalConfig
    names: list[str]
    dataset_root: Path | None
    pipeline_type: str
    shared: EvaRunInputs
    write: bool
    merge: bool
    judge_repeats: int
    repeats: list[EvalConfig]


def score_found(f: FoundRecord, job: RunJob) -> ScoredRecord:
    """Load, score and (with `job.write`) write metrics.json for one found record."""
    try:
        ctx = load_any(f, job.run_dir, job.dataset_root, job.pipeline_type, job.shared)
    except Exception as exc:  # an unreadable record is an infrastructure failure, counted
        ctx = ConversationContext(record_id=f.record_id, status="infra_failure", error=f"unreadable: {exc}")
    s = score_context(ctx, job.config, job.names)
    mpath = f.path / METRICS_FILE
    if job.merge and mpath.is_file():
        old = json.loads(mpath.read_text(encoding="utf-8")).get("metrics") or {}
        for k, v in old.items():
            if k not in s.metrics:
                s.metrics[k] = MetricResult.model_validate(v)
        if s.status == "completed":
            s.aggregates = record_aggregates(s.metrics)
        s.analysis = analyze_record(ctx, s)
    if job.judge_repeats >= 2:
        s.analysis["judge_repeats"] = repeat_values(ctx, s, job.repeats, job.names)
    if job.write:
        atomic_write_bytes(mpath, metrics_bytes(s, ctx), durable=False)
    return s


def score_run(
    run_dir: str | Path,
    config: EvalConfig,
    metrics: list[str] | None = None,
    eva_dataset: str | Path | None = None,
    pipeline_type: str = "cascade",
    write: bool = True,
    merge: bool = False,
    judge_repeats: int = 0,
    ci_target: float = DEFAULT_CI_TARGET,
    workers: int = 1,
    on_found: Callable[[int], None] | None = None,
    on_scored: Callable[[int], None] | None = None,
) -> tuple[list[ScoredRecord], dict[str, Any]]:
    """Score every record under `run_dir`; with `merge`, keep earlier metrics not re-run.

    Progress: `on_found(total)` once the records are found, `on_scored(n)` as n more are scored.

    `judge_repeats` R >= 2: the judge metrics are also rated R more times per record
    (`judge_repeats.py`) so the variance split can separate judge noise. `workers` > 1
    scores records in that many processes when no judge is configured (`parallel.py`);
    the results and files are the same as with one."""
    run_dir = Path(run_dir)
    names = metrics or default_metrics()
    found = discover(run_dir)
    if not found:
        raise FileNotFoundError(f"no records under {run_dir} (record.json or records/*/result.json)")
    if on_found is not None:
        on_found(len(found))
    dataset_root = Path(eva_dataset) if eva_dataset else None
    job = RunJob(
        run_dir=run_dir,
        config=config,
        names=names,
        dataset_root=dataset_root,
        pipeline_type=pipeline_type,
        shared=EvaRunInputs(run_dir, dataset_root),
        write=write,
        merge=merge,
        judge_repeats=judge_repeats,
        repeats=repeat_configs(config, judge_repeats) if judge_repeats >= 2 else [],
    )
    # the kept results are not walked by the GC again and again, while scoring and while
    # summarizing them (the summary's temporaries made the collector walk them all)
    with settled_heap() as settle:
        if can_parallelize(job, len(found), workers):
            scored = score_in_processes(found, job, workers, settle, on_scored)
        else:
            scored = []
            for f in found:
                scored.append(score_found(f, job))
                settle()
                if on_scored is not None:
                    on_scored(1)
        all_names = sorted({m for s in scored for m in s.metrics} | set(names))
        summary = summarize(
            run_dir, scored, config, [m for m in all_names if m in REGISTRY], ci_target=ci_target
        )
        if write:
            atomic_write_json(run_dir / SUMMARY_FILE, summary)
    return scored, summary
