"""Faithfulness per dimension: EVA's labels name the failure modes a person saw (a subset of
the five dimensions), so each dimension's check can be measured on its own, as a yes/no
"flagged" against the person's, besides the overall 1-3 rating (= the minimum over the
dimensions). A dimension the labels never name cannot be measured: it reports n_flagged 0."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from voxbench.eval.types import MetricResult

DIMENSIONS = (
    "fabricating_tool_parameters",
    "misrepresenting_tool_result",
    "violating_policies",
    "failing_to_disambiguate",
    "hallucination",
)


def flagged_dimensions(res: MetricResult) -> list[str]:
    """The dimensions a faithfulness result flagged (from `details.dimensions`; EVA's LLM judge
    and the offline method both write {dimension: {flagged, rating, evidence}})."""
    dims = (res.details or {}).get("dimensions")
    if not isinstance(dims, dict):
        return []
    return [d for d in DIMENSIONS if isinstance(dims.get(d), dict) and dims[d].get("flagged")]


def dimension_agreement(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """{dimension: agreement of flagged yes/no, person vs method} over the rows that carry
    both (calibration rows with `human_modes` and `judge_flagged`)."""
    from voxbench.eval.calibration import agreement

    rows = [r for r in rows if "human_modes" in r and r.get("judge") is not None]
    out: dict[str, Any] = {}
    for d in DIMENSIONS:
        pairs = [(d in r["human_modes"], d in r["judge_flagged"]) for r in rows]
        a = agreement(pairs, [True, False])
        a["human_flagged"] = sum(h for h, _ in pairs)
        a["judge_flagged"] = sum(j for _, j in pairs)
        a["both_flagged"] = sum(h and j for h, j in pairs)
        out[d] = a
    return out
