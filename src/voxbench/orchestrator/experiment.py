"""Experiments: the same scenarios under several perturbation conditions, compared to a baseline.

One orchestrator run holds every (scenario x trial x condition) conversation, so it resumes
like any run and scores with ``voxbench.eval`` as usual. Then, per condition and metric, each
scenario's mean over its trials is paired with its baseline mean; the table reports the mean
delta, a two-sided sign-flip permutation p-value over the scenario pairs, and Holm-adjusted
p-values across the metrics of that condition. ``experiment.json`` lands in the run folder,
where ``voxbench report`` finds it next to the records.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voxbench.orchestrator.config import RunConfig
from voxbench.records import atomic_write_json

EXPERIMENT_FILE = "experiment.json"
EXPERIMENT_SCHEMA = "1.0"
DEFAULT_BASELINE = "clean"
ALPHA = 0.05
_ARCHIVED = re.compile(r"_(failed_attempt|attempt|unvalidated)_\d+$")


@dataclass
class ExperimentResult:
    run_dir: Path
    summary: dict[str, Any]
    experiment: dict[str, Any]
    interrupted: bool


def experiment_config(base: RunConfig, conditions: list[str], baseline: str = DEFAULT_BASELINE) -> RunConfig:
    """``base`` with ``conditions`` (baseline first, added if missing). Names are checked now:
    a typo should fail before an hour of calls, not in the worker."""
    from voxbench.processors.perturbations import resolve_condition

    names = list(dict.fromkeys([baseline, *conditions]))
    # a condition the run config defines wins; other names resolve now (KeyError names the known ones)
    conds = {n: base.conditions.get(n) or resolve_condition(n) for n in names}
    return base.model_copy(update={"conditions": conds})


def run_experiment(config: RunConfig, baseline: str = DEFAULT_BASELINE, **orch_kw: Any) -> ExperimentResult:
    """Run (or resume) the conversations, score them, compare, write ``experiment.json``."""
    from voxbench.orchestrator.runner import Orchestrator

    result = Orchestrator(config, **orch_kw).run_sync()
    exp = compare_run(result.run_dir, baseline, seed=config.seed, order=list(config.conditions))
    exp["run_id"] = result.summary.get("run_id")
    if not result.interrupted:
        atomic_write_json(result.run_dir / EXPERIMENT_FILE, exp)
    return ExperimentResult(result.run_dir, result.summary, exp, result.interrupted)


# --------------------------------------------------------------------------------------------
# Comparison (reads the run folder only)
# --------------------------------------------------------------------------------------------


def collect_values(run_dir: Path) -> list[dict[str, Any]]:
    """One row per final record: condition, scenario, trial, status, {metric: value}.

    A metric's value is its normalized score when it has one (higher is better), else its raw
    score; errored and skipped results are left out. EVA composites (``aggregate_metrics``)
    are included under their names."""
    rows: list[dict[str, Any]] = []
    for rec_path in sorted((run_dir / "records").glob("*/record.json")):
        folder = rec_path.parent
        if _ARCHIVED.search(folder.name) or folder.name.startswith("."):
            continue
        rec = json.loads(rec_path.read_text(encoding="utf-8"))
        values: dict[str, float] = {}
        mpath = folder / "metrics.json"
        scored = False
        if mpath.is_file():
            m = json.loads(mpath.read_text(encoding="utf-8"))
            scored = m.get("status") == "completed"
            for name, r in (m.get("metrics") or {}).items():
                v = r.get("normalized_score") if r.get("normalized_score") is not None else r.get("score")
                if r.get("error") is None and not r.get("skipped") and v is not None:
                    values[name] = float(v)
            for name, v in (m.get("aggregate_metrics") or {}).items():
                if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v):
                    values[name] = float(v)
        rows.append(
            {
                "condition": rec.get("condition", "clean"),
                "scenario": f"{rec.get('domain')}/{rec.get('scenario_id')}",
                "trial": rec.get("trial", 0),
                "status": rec.get("status"),
                "scored": scored,
                "values": values if scored else {},
                "perturbation": {
                    k: rec.get("perturbation", {}).get(k) for k in ("achieved_snr_db", "voice_id", "seed")
                },
            }
        )
    return rows


def compare_rows(
    rows: list[dict[str, Any]],
    baseline: str = DEFAULT_BASELINE,
    *,
    seed: int = 0,
    alpha: float = ALPHA,
    order: list[str] | None = None,
) -> dict[str, Any]:
    from voxbench.eval.significance import holm, mean, paired_permutation_test

    cells: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    conditions: list[str] = []
    for r in rows:
        c = r["condition"]
        if c not in conditions:
            conditions.append(c)
        counts[c]["records"] += 1
        counts[c][str(r["status"])] += 1
        counts[c]["scored"] += int(r["scored"])
        for name, v in r["values"].items():
            cells[(c, r["scenario"])][name].append(v)
    rank = {c: i for i, c in enumerate(order or [])}
    conditions.sort(key=lambda c: (c != baseline, rank.get(c, len(rank)), c))
    scenarios = sorted({r["scenario"] for r in rows})
    metrics = sorted({m for cell in cells.values() for m in cell})
    comparisons: dict[str, list[dict[str, Any]]] = {}
    for cond in [c for c in conditions if c != baseline]:
        table: list[dict[str, Any]] = []
        pvals: dict[str, float | None] = {}
        for name in metrics:
            pairs = [
                (mean(cells[(baseline, s)][name]), mean(cells[(cond, s)][name]))
                for s in scenarios
                if cells.get((baseline, s), {}).get(name) and cells.get((cond, s), {}).get(name)
            ]
            pairs_f = [(b, c) for b, c in pairs if b is not None and c is not None]
            if not pairs_f:
                continue
            diffs = [c - b for b, c in pairs_f]
            p = paired_permutation_test(diffs, seed=seed)
            pvals[name] = p
            table.append(
                {
                    "metric": name,
                    "n_pairs": len(pairs_f),
                    "baseline_mean": mean([b for b, _ in pairs_f]),
                    "condition_mean": mean([c for _, c in pairs_f]),
                    "delta": mean(diffs),
                    "p_value": p,
                }
            )
        adj = holm(pvals)
        for row in table:
            row["p_holm"] = adj.get(row["metric"])
            row["significant"] = row["p_holm"] is not None and row["p_holm"] <= alpha
        comparisons[cond] = table
    return {
        "schema_version": EXPERIMENT_SCHEMA,
        "baseline": baseline,
        "conditions": conditions,
        "scenarios": scenarios,
        "alpha": alpha,
        "test": "two-sided paired sign-flip permutation over per-scenario means (exact for n<=16); "
        "Holm across metrics within each condition",
        "value": "normalized_score when present (higher is better), else score",
        "counts": {c: dict(v) for c, v in counts.items()},
        "comparisons": comparisons,
    }


def compare_run(
    run_dir: Path, baseline: str = DEFAULT_BASELINE, *, seed: int = 0, order: list[str] | None = None
) -> dict[str, Any]:
    rows = collect_values(Path(run_dir))
    if not any(r["condition"] == baseline for r in rows):
        raise ValueError(f"no records of the baseline condition {baseline!r} in {run_dir}")
    return compare_rows(rows, baseline, seed=seed, order=order)


def format_table(exp: dict[str, Any], metrics: list[str] | None = None) -> str:
    """A plain-text delta table (one block per condition)."""
    base = exp["baseline"]
    lines = [
        f"baseline: {base}; {len(exp['scenarios'])} scenario(s); "
        f"p: paired permutation over scenario means, Holm across metrics; * = p_holm <= {exp['alpha']}"
    ]
    head = f"{'condition':<18} {'metric':<38} {base[:8]:>8} {'cond':>8} {'delta':>8} {'p':>6} {'p_holm':>6} {'n':>3}"
    lines += [head, "-" * len(head)]

    def f(x: float | None, w: int = 8, d: int = 3) -> str:
        return f"{x:>{w}.{d}f}" if x is not None else f"{'-':>{w}}"

    for cond, rows in exp["comparisons"].items():
        for r in rows:
            if metrics and r["metric"] not in metrics:
                continue
            star = "*" if r.get("significant") else " "
            lines.append(
                f"{cond[:18]:<18} {r['metric'][:38]:<38} {f(r['baseline_mean'])} {f(r['condition_mean'])} "
                f"{f(r['delta'], 8, 3)} {f(r['p_value'], 6, 3)} {f(r['p_holm'], 6, 3)}{star}{r['n_pairs']:>3}"
            )
        if not rows:
            lines.append(f"{cond[:18]:<18} (no metric scored under both conditions)")
    return "\n".join(lines)
