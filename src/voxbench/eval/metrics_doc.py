"""A record's metrics.json: the document `voxbench eval` writes beside each record (its status,
validation, metric results, aggregates, analysis and the context scored), and the fast
serializer it is written with. Kept apart from the scoring so a test, a bench or a golden file
builds the very bytes `score_run` writes."""

from typing import Any

import pydantic_core

from voxbench.eval.aggregate import ScoredRecord
from voxbench.eval.context import ConversationContext

METRICS_FILE = "metrics.json"
SUMMARY_SCHEMA = "1.0"


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
