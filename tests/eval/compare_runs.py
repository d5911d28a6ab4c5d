"""Synthetic scored run folders for `voxbench compare` and JUnit tests: known values, known answers.

Only the files those readers use: ``record.json`` (identity and status), ``metrics.json`` (scores
as eval writes them) and ``scenario.json`` / ``initial_db.json`` (the scenario's data).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def metric(score: float | None, normalized: float | None = None, **extra: Any) -> dict[str, Any]:
    return {"score": score, "normalized_score": normalized, "error": None, "skipped": False, **extra}


def write_conv(
    run: Path,
    scenario: str,
    trial: int,
    metrics: dict[str, dict[str, Any]],
    *,
    domain: str = "airline",
    status: str = "completed",
    aggregates: dict[str, float | None] | None = None,
    data: str = "v1",
    analysis: dict[str, Any] | None = None,
    scored: bool = True,
) -> Path:
    """One conversation folder under ``run/records``; ``data`` stands for the scenario's content."""
    d = run / "records" / f"{domain}__{scenario}__t{trial}__clean"
    d.mkdir(parents=True, exist_ok=True)
    rec = {
        "schema_version": "1.1",
        "conversation_id": d.name,
        "domain": domain,
        "scenario_id": scenario,
        "trial": trial,
        "condition": "clean",
        "status": status,
        "end_reason": "end_call",
    }
    (d / "record.json").write_text(json.dumps(rec), encoding="utf-8")
    (d / "scenario.json").write_text(json.dumps({"id": scenario, "goal": data}), encoding="utf-8")
    (d / "initial_db.json").write_text(json.dumps({"rows": [scenario]}), encoding="utf-8")
    if scored:
        m = {
            "schema_version": "1.0",
            "record_id": d.name,
            "scenario_id": scenario,
            "trial": trial,
            "status": status,
            "metrics": {n: {"name": n, **v} for n, v in metrics.items()},
            "aggregate_metrics": aggregates or {},
            "analysis": analysis or {},
        }
        (d / "metrics.json").write_text(json.dumps(m), encoding="utf-8")
    return d


def write_run(run: Path, task: dict[str, list[float]], **kw: Any) -> Path:
    """A run whose task_completion per scenario and trial is given: {scenario: [trial values]}."""
    for scenario, values in task.items():
        for trial, v in enumerate(values):
            write_conv(
                run, scenario, trial, {"task_completion": metric(v, v)}, aggregates={"EVA-A_pass": v}, **kw
            )
    return run
