"""Scoring: reads record directories only (voxbench or EVA layout), never the live loop.

Metrics are registered pure functions `(ConversationContext, EvalConfig) -> MetricResult`;
judges are injected through `EvalConfig`. `score_run` writes `metrics.json` per record and
`metrics_summary.json` per run.
"""

from voxbench.eval.context import ConversationContext, HEvent, segment
from voxbench.eval.types import REGISTRY, EvalConfig, MetricResult, MetricSpec, metric, run_metric

__all__ = [
    "REGISTRY",
    "ConversationContext",
    "EvalConfig",
    "HEvent",
    "MetricResult",
    "MetricSpec",
    "metric",
    "run_metric",
    "segment",
]
