"""Judge calibration: run judge metrics over human-labelled sets and measure agreement.

Two sources of human labels:

* EVA's judge-validation sets (`docs/metrics/judge_validation_datasets/*.jsonl`, format in
  their README): `faithfulness` and `conversation_progression` (one 1-3 rating per
  conversation), `conciseness` (a 1-3 rating per agent turn) and
  `key_entity_transcription` (per caller turn, the entities with correct true/false).
  `agent_speech_fidelity` needs the audio, which the sets do not ship: reported as skipped.
  Read by `calibration_items`, scored by `calibration_score`.
* voxbench records carrying a `human_rating` (mic-in-the-loop calls, `voxbench talk`):
  the caller's 1-3 "natural" rating against the 1-3 judge metrics, and "task done"
  against task_completion. These are proxies (the person rated the call, not the metric's
  exact question) and are labelled so.

This module drives both: which sets, which sample, and the offline judges' cross-validated
block (`calibration_offline`). The statistics are `calibration_stats`'.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import voxbench.eval.metrics  # noqa: F401  (registers the metrics)
from voxbench.eval.calibration_items import DATASET_METRICS, UNSUPPORTED, AgentInfo, load_items
from voxbench.eval.calibration_score import int_rating, sample, score_items
from voxbench.eval.calibration_stats import agreement
from voxbench.eval.context import ConversationContext
from voxbench.eval.types import REGISTRY, EvalConfig, MetricResult, run_metric

CALIBRATION_SCHEMA = "1.0"


def calibrate_dataset(
    dataset_dir: Path,
    config: EvalConfig,
    *,
    metrics: Sequence[str] | None = None,
    limit: int | None = None,
    seed: int = 0,
    agent: AgentInfo | None = None,
    progress: Callable[[str, int, int, MetricResult], None] | None = None,
    cv_folds: int = 5,
) -> dict[str, Any]:
    """Calibrate on every `*.jsonl` validation set in `dataset_dir` (or only `metrics`). With
    the offline judge, methods fitted on labels also get `cv_folds`-fold cross-validated figures."""
    files = sorted(dataset_dir.glob("*.jsonl"))
    if not files:
        raise FileNotFoundError(f"no *.jsonl validation sets in {dataset_dir}")
    out: dict[str, Any] = {"metrics": {}, "skipped": {}, "files": {}}
    for f in files:
        metric = DATASET_METRICS.get(f.stem)
        if metric is None:
            out["skipped"][f.name] = "unknown validation set"
            continue
        if metrics and metric not in metrics:
            continue
        out["files"][f.name] = hashlib.sha256(f.read_bytes()).hexdigest()
        if f.stem in UNSUPPORTED:
            out["skipped"][metric] = UNSUPPORTED[f.stem]
            continue
        _, items, excluded = load_items(f, agent)
        chosen = sample(items, limit, seed)
        res = score_items(metric, chosen, config, progress)
        if config.text_judge_mode() == "offline":
            from voxbench.eval.calibration_offline import offline_block

            res |= offline_block(metric, chosen, res, cv_folds, seed, f.stem, out["files"][f.name])
        res["available_items"] = len(items)
        res["excluded_invalid_rows"] = excluded
        res["sample"] = {"limit": limit, "seed": seed} if limit is not None and limit < len(items) else None
        out["metrics"][metric] = res
    return out


# --- human-rated voxbench records --------------------------------------------------------------------


RECORD_PROXY_METRICS = ("conversation_progression", "conciseness", "faithfulness")


def calibrate_records(
    contexts: Sequence[tuple[ConversationContext, dict[str, Any]]],
    config: EvalConfig,
    metrics: Sequence[str] = RECORD_PROXY_METRICS,
) -> dict[str, Any]:
    """(context, human_rating) pairs: `natural` (1-3) against each 1-3 judge metric's raw score
    (rounded), `task_done` against task_completion. Proxies, not the metric's own question."""
    out: dict[str, Any] = {"records": len(contexts), "metrics": {}}
    for m in [*metrics, "task_completion"]:
        pairs: list[tuple[Any, Any]] = []
        rows = []
        for ctx, hr in contexts:
            human = hr.get("task_done") if m == "task_completion" else hr.get("natural")
            if human is None:
                continue
            res = run_metric(REGISTRY[m], ctx, config)
            if m == "task_completion":
                judge: Any = None if not res.ok else bool(res.value == 1.0)
            else:
                judge = int_rating(res)
            rows.append({"record_id": ctx.record_id, "human": human, "judge": judge, "error": res.error})
            if judge is not None:
                pairs.append((bool(human), judge) if m == "task_completion" else (int(human), judge))
        if m == "task_completion":
            out["metrics"][m] = {"human_field": "task_done", "agreement": agreement(pairs, [True, False])}
        else:
            out["metrics"][m] = {
                "human_field": "natural (1-3), a proxy",
                "agreement": agreement(pairs, [1, 2, 3], ordinal=True),
            }
        out["metrics"][m]["per_record"] = rows
    return out
