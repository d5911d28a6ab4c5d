"""What the report reads: run folders, their records and the scores eval wrote.

The input model is deliberately small and forgiving, so the report renders any run
eval can score (and one it has not scored yet):

* ``<run>/run.json``                  optional `RunManifest` (system name, provenance)
* ``<run>/metrics_summary.json``      optional; shown as eval wrote it (data quality, provenance)
* ``<run>/experiment.json``           optional; `voxbench experiment`'s deltas vs the baseline,
                                      validated by `reports.experiment.Experiment`
* ``<run>/records/<conv>/record.json`` a `ConversationRecord` (events, audio, dbs beside it)
* ``<run>/records/<conv>/metrics.json`` optional, EVA's RecordMetrics shape::

      {"record_id": str,
       "metrics": {name: {"score", "normalized_score", "details", "error", "skipped", ...}},
       "aggregate_metrics": {"EVA-A_pass": 1.0 | 0.0 | null, ...}}

  `aggregate_metrics` missing -> composites are recomputed with EVA's rules (§4.1).

Folders named ``<conv>_failed_attempt_<n>`` are counted as failed attempts, not scored.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import voxbench.eval.metrics  # noqa: F401  (registers every metric: thresholds, directions, descriptions)
from voxbench.eval.aggregate import record_aggregates
from voxbench.eval.compare_load import as_number
from voxbench.eval.types import REGISTRY, MetricResult
from voxbench.records import ConversationRecord, RunManifest
from voxbench.records.models import check_schema_version
from voxbench.reports.experiment import Experiment, load_experiment
from voxbench.reports.gate import AttemptView, load_attempts

FAILED_ATTEMPT_RE = re.compile(r"^(?P<conv>.+)_failed_attempt_(?P<n>\d+)$")

COMPOSITES = ("EVA-A_pass", "EVA-X_pass", "EVA-overall_pass", "EVA-A_mean", "EVA-X_mean", "EVA-overall_mean")
EVA_A = ("task_completion", "faithfulness", "agent_speech_fidelity")
EVA_X = ("conversation_progression", "turn_taking", "conciseness")
VALIDATION_METRICS = frozenset(n for n, s in REGISTRY.items() if s.category == "validation")


@dataclass
class MetricView:
    """One metric on one conversation, as the report shows it."""

    name: str
    score: float | None = None
    normalized: float | None = None
    error: str | None = None
    skipped: bool = False
    details: dict[str, Any] = field(default_factory=dict)
    version: str = ""
    judge_model: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def value(self) -> float | None:
        v = self.normalized if self.normalized is not None else self.score
        return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)

    @property
    def ok(self) -> bool:
        return self.error is None and not self.skipped and self.value is not None

    @property
    def unscored(self) -> bool:
        """Could not be computed here (no judge, no audio), as opposed to not applicable."""
        return bool(self.details.get("unscored"))

    @property
    def threshold(self) -> float | None:
        """The metric's registered pass threshold on the normalised score (None: diagnostic only)."""
        spec = REGISTRY.get(self.name)
        if spec is not None:
            return spec.pass_threshold
        return None if self.normalized is None and (self.score or 0) > 1 else 0.5

    @property
    def passed(self) -> bool | None:
        thr = self.threshold
        if not self.ok or thr is None:
            return None
        assert self.value is not None
        return self.value >= thr - 1e-9

    @classmethod
    def from_json(cls, name: str, raw: dict[str, Any]) -> MetricView:
        return cls(
            name=str(raw.get("name") or name),
            score=as_number(raw.get("score")),
            normalized=as_number(raw.get("normalized_score")),
            error=raw.get("error"),
            skipped=bool(raw.get("skipped", False)),
            details=d if isinstance(d := raw.get("details"), dict) else {},
            version=str(raw.get("version") or ""),
            judge_model=raw.get("judge_model"),
            raw=raw,
        )


@dataclass
class Conversation:
    """A scored (or not yet scored) conversation directory."""

    path: Path
    record: ConversationRecord
    system: str
    run: str
    metrics: dict[str, MetricView] = field(default_factory=dict)
    aggregates: dict[str, float | None] = field(default_factory=dict)
    scored: bool = False
    status: str = "completed"  # eval's verdict when scored (a completed record can be invalid)
    # per agent turn (seconds, had a tool call) as eval's response_speed measured it, if scored
    turn_latencies: list[tuple[float, bool]] | None = None
    # eval's per-record analyses: completion (time/turns to completion), failure_cause
    analysis: dict[str, Any] = field(default_factory=dict)

    @property
    def failure_cause(self) -> str | None:
        fc = self.analysis.get("failure_cause")
        return str(fc["cause"]) if isinstance(fc, dict) and fc.get("cause") else None

    @property
    def id(self) -> str:
        return self.record.conversation_id

    @property
    def uid(self) -> str:
        """Unique across runs: the page name of its viewer."""
        return _slug(f"{self.run}__{self.path.name}")

    @property
    def failing(self) -> list[str]:
        return sorted(n for n, m in self.metrics.items() if m.passed is False)

    @property
    def errored(self) -> list[str]:
        return sorted(n for n, m in self.metrics.items() if m.error)


@dataclass
class RunData:
    path: Path
    name: str
    manifest: RunManifest | None
    summary: dict[str, Any] | None
    conversations: list[Conversation]
    failed_attempts: dict[str, int]  # status -> count of archived attempts
    experiment: Experiment | None = None  # <run>/experiment.json from `voxbench experiment`
    attempts: list[AttemptView] = field(default_factory=list)  # discarded attempts (the gate)


def _slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", s).strip("_")[:120] or "conv"


def _system_name(rec: ConversationRecord, manifest: RunManifest | None, run_name: str) -> str:
    if rec.agent.name != "unknown":
        return rec.agent.name
    src = (manifest.config.get("agent") if manifest else None) or {}
    if isinstance(src, dict):
        for k in ("name", "profile"):
            if isinstance(src.get(k), str) and src[k]:
                return str(src[k])
    if manifest and isinstance(manifest.config.get("name"), str):
        return str(manifest.config["name"])
    return run_name


def compute_aggregates(metrics: dict[str, MetricView]) -> dict[str, float | None]:
    """Per-record composites with eval's rules, for a metrics.json that did not carry them."""
    results = {}
    for n, m in metrics.items():
        try:
            results[n] = MetricResult.model_validate({"name": n, **m.raw})
        except ValueError:
            results[n] = MetricResult.fail(n, "unreadable metric result")
    return record_aggregates(results)


def _turn_latencies(raw: dict[str, Any], metrics: dict[str, MetricView]) -> list[tuple[float, bool]] | None:
    rs = metrics.get("response_speed")
    per = rs.details.get("per_turn_latency_s") if rs is not None else None
    if not isinstance(per, dict):
        return None
    ctx = raw.get("context") if isinstance(raw.get("context"), dict) else {}
    tool_turns = {str(c.get("turn_id")) for c in (ctx or {}).get("tool_calls") or [] if isinstance(c, dict)}
    return [(float(v), str(t) in tool_turns) for t, v in per.items() if isinstance(v, int | float)]


def load_metrics(
    conv_dir: Path,
) -> tuple[
    dict[str, MetricView],
    dict[str, float | None],
    str | None,
    list[tuple[float, bool]] | None,
    dict[str, Any],
]:
    """(metrics, composites, status eval gave the record, turn latencies, analyses) from
    metrics.json; status None: not scored yet."""
    p = conv_dir / "metrics.json"
    if not p.is_file():
        return {}, {}, None, None, {}
    raw = json.loads(p.read_text(encoding="utf-8"))
    metrics = {
        n: MetricView.from_json(n, m) for n, m in (raw.get("metrics") or {}).items() if isinstance(m, dict)
    }
    status = str(raw.get("status") or "completed")
    agg_raw = raw.get("aggregate_metrics")
    if isinstance(agg_raw, dict) and agg_raw:
        agg = {k: as_number(v) for k, v in agg_raw.items()}
    elif status == "completed":
        agg = compute_aggregates(metrics)
    else:
        agg = {}
    analysis = raw.get("analysis") if isinstance(raw.get("analysis"), dict) else {}
    return metrics, agg, status, _turn_latencies(raw, metrics), analysis


def load_run(path: str | Path, name: str | None = None) -> RunData:
    """Read one run folder (or a folder of conversation folders, or one conversation)."""
    root = Path(path)
    if not root.is_dir():
        raise FileNotFoundError(f"{root} is not a directory")
    manifest = None
    if (root / "run.json").is_file():
        raw = json.loads((root / "run.json").read_text(encoding="utf-8"))
        check_schema_version(raw.get("schema_version"), root / "run.json")
        manifest = RunManifest.model_validate(raw)
    summary = None
    if (root / "metrics_summary.json").is_file():
        summary = json.loads((root / "metrics_summary.json").read_text(encoding="utf-8"))
    run_name = name or (manifest.run_id if manifest else root.resolve().name)
    if (root / "record.json").is_file():
        dirs = [root]
    else:
        base = root / "records" if (root / "records").is_dir() else root
        dirs = sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith("."))
    convs: list[Conversation] = []
    failed: dict[str, int] = {}
    for d in dirs:
        if not (d / "record.json").is_file():
            continue
        if FAILED_ATTEMPT_RE.match(d.name):
            st = _status_of(d)
            failed[st] = failed.get(st, 0) + 1
            continue
        rec_raw = json.loads((d / "record.json").read_text(encoding="utf-8"))
        check_schema_version(rec_raw.get("schema_version"), d / "record.json")
        rec = ConversationRecord.model_validate(rec_raw)
        metrics, agg, scored_status, lat, analysis = load_metrics(d)
        convs.append(
            Conversation(
                path=d,
                record=rec,
                system=_system_name(rec, manifest, run_name),
                run=run_name,
                metrics=metrics,
                aggregates=agg,
                scored=scored_status is not None,
                status=scored_status or rec.status,
                turn_latencies=lat,
                analysis=analysis,
            )
        )
    if not convs:
        raise ValueError(f"{root}: no conversation records found (expected records/<id>/record.json)")
    attempts = load_attempts(root / "records" if (root / "records").is_dir() else root)
    return RunData(root, run_name, manifest, summary, convs, failed, load_experiment(root), attempts)


def _status_of(d: Path) -> str:
    try:
        st = json.loads((d / "record.json").read_text(encoding="utf-8")).get("status")
    except (OSError, ValueError):
        return "infra_failure"
    return st if isinstance(st, str) else "infra_failure"
