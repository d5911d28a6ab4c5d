"""Score records and runs: metrics.json per record, metrics_summary.json per run.

Only records with status "completed" that pass the validation gate are scored for agent
metrics and aggregated. Infrastructure failures and invalid simulations are counted and
listed in the summary (never dropped silently), with their validation results.

The records are found and loaded by `discover`, each record's document is `metrics_doc`'s, the
run's summary `run_summary`'s (with `provenance`'s block); this module scores and drives.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import voxbench.eval.metrics  # noqa: F401  (registers the metrics)
from voxbench.eval.aggregate import ScoredRecord, record_aggregates
from voxbench.eval.analysis import DEFAULT_CI_TARGET, analyze_record
from voxbench.eval.context import ConversationContext
from voxbench.eval.discover import EvaRunInputs, FoundRecord, discover, load_any
from voxbench.eval.heap import settled_heap
from voxbench.eval.judge_repeats import repeat_configs, repeat_values
from voxbench.eval.metrics.validation import validation_gate
from voxbench.eval.metrics_doc import METRICS_FILE, metrics_bytes
from voxbench.eval.parallel import fork_available, map_in_processes
from voxbench.eval.run_summary import SUMMARY_FILE, summarize
from voxbench.eval.types import REGISTRY, EvalConfig, MetricResult, run_metric
from voxbench.records import atomic_write_bytes, atomic_write_json


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
