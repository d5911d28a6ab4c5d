"""Judge metrics per dimension: EVA's faithfulness and progression labels name the failure
modes a person saw, so each dimension's check can be measured on its own, as a yes/no
"flagged" against the person's, besides the overall 1-3 rating. A dimension the labels never
name cannot be measured: it reports human_flagged 0.

Faithfulness labels use EVA's five dimension names. Progression labels use finer names than
its four dimensions; `PROGRESSION_MODES` maps each to the dimension whose definition it falls
under (EVA's judge prompt: unnecessary tool calls = repeated or pointless calls; information
loss = asking again for what was given, forgetting results; redundant statements; question
quality = vague or missing clarifying questions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from voxbench.eval.calibration_stats import agreement
from voxbench.eval.judges.prompts import FAITH_DIMS, PROG_DIMS  # EVA's dimensions, as the judges are asked
from voxbench.eval.types import MetricResult

PROGRESSION_MODES = {
    "unnecessary_tool_calls": "unnecessary_tool_calls",
    "repetitive_tool_calls": "unnecessary_tool_calls",
    "inefficient_tool_use": "unnecessary_tool_calls",
    "information_loss": "information_loss",
    "forgetting_information": "information_loss",
    "asking_same_question": "information_loss",
    "redundant_statements": "redundant_statements",
    "minor_redundancy": "redundant_statements",
    "question_quality": "question_quality",
    "vague_questions": "question_quality",
    "no_clarifying_questions": "question_quality",
}
METRIC_DIMENSIONS = {"faithfulness": FAITH_DIMS, "conversation_progression": PROG_DIMS}


def label_dimensions(metric: str, modes: list[str]) -> list[str]:
    """The metric's dimensions a label's failure modes name (unknown names are dropped)."""
    if metric == "conversation_progression":
        return sorted({PROGRESSION_MODES[m] for m in modes if m in PROGRESSION_MODES})
    return [m for m in modes if m in FAITH_DIMS]


def flagged_dimensions(metric: str, res: MetricResult) -> list[str]:
    """The dimensions a result flagged (from `details.dimensions`; EVA's LLM judges and the
    offline methods both write {dimension: {flagged, ...}})."""
    dims = (res.details or {}).get("dimensions")
    if not isinstance(dims, dict):
        return []
    names = METRIC_DIMENSIONS.get(metric, ())
    return [d for d in names if isinstance(dims.get(d), dict) and dims[d].get("flagged")]


def dimension_agreement(
    rows: Sequence[dict[str, Any]], dimensions: Sequence[str] = FAITH_DIMS
) -> dict[str, Any]:
    """{dimension: agreement of flagged yes/no, person vs method} over the rows that carry
    both (calibration rows with `human_modes` and `judge_flagged`)."""
    rows = [r for r in rows if "human_modes" in r and r.get("judge") is not None]
    out: dict[str, Any] = {}
    for d in dimensions:
        pairs = [(d in r["human_modes"], d in r["judge_flagged"]) for r in rows]
        a = agreement(pairs, [True, False])
        a["human_flagged"] = sum(h for h, _ in pairs)
        a["judge_flagged"] = sum(j for _, j in pairs)
        a["both_flagged"] = sum(h and j for h, j in pairs)
        out[d] = a
    return out
