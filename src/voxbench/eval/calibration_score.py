"""Scoring validation items with a judge metric and comparing its verdicts with the human labels.

Each item is scored by the *registered* metric function (or a `rater` standing in for it, e.g.
a model refitted without the item's fold), so calibration measures exactly the prompt, parser
and aggregation that `voxbench eval` uses. Judge failures are counted as errors, not as
disagreements. The unit compared depends on the set: a conversation's 1-3 rating
(faithfulness, conversation_progression), an agent turn's 1-3 rating (conciseness), or an
entity's correct/incorrect verdict (key-entity transcription).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import voxbench.eval.metrics  # noqa: F401  (registers the metrics)
from voxbench.eval.calibration_dims import METRIC_DIMENSIONS, dimension_agreement, flagged_dimensions
from voxbench.eval.calibration_entities import match_entities
from voxbench.eval.calibration_items import CalibItem
from voxbench.eval.calibration_stats import agreement, mae
from voxbench.eval.types import REGISTRY, EvalConfig, MetricResult, run_metric

RATED = ("faithfulness", "conversation_progression")
"""The sets labelled with one 1-3 rating per conversation."""


def int_rating(res: MetricResult) -> int | None:
    if not res.ok or res.score is None:
        return None
    return round(res.score)


@dataclass
class _Tally:
    """What the items of one set add up to, item by item."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    pairs: list[tuple[Any, Any]] = field(default_factory=list)
    score_pairs: list[tuple[float, float]] = field(default_factory=list)
    ent_pairs: list[tuple[bool, bool]] = field(default_factory=list)
    ent_counts: dict[str, int] = field(default_factory=lambda: {"human": 0, "judge": 0, "matched": 0})
    errors: int = 0
    prompt_hashes: set[str] = field(default_factory=set)


def _add_rating(tally: _Tally, metric: str, it: CalibItem, res: MetricResult, row: dict[str, Any]) -> None:
    """A conversation's rating; a judge output the metric could not parse is an error."""
    j = int_rating(res)
    row["judge"] = j
    if "failure_modes" in it.extra:
        row["human_modes"] = it.extra["failure_modes"]
        row["judge_flagged"] = flagged_dimensions(metric, res)
    if j is not None and not (res.details or {}).get("invalid_judge_output"):
        tally.pairs.append((it.human, j))
    elif j is not None:
        row["error"] = "invalid judge output (metric defaulted to the scale minimum)"
        tally.errors += 1


def _add_turn_ratings(tally: _Tally, it: CalibItem, res: MetricResult, row: dict[str, Any]) -> None:
    """Each agent turn the judge rated, and the conversation's normalised score."""
    per = {int(k): v for k, v in ((res.details or {}).get("per_turn_rating") or {}).items()}
    row["judge"] = per
    row["unrated_turns"] = sorted(t for t in it.human if t not in per)
    for t, h in it.human.items():
        if t in per:
            tally.pairs.append((h, per[t]))
    if res.ok and it.human:
        hm = sum(it.human.values()) / len(it.human)
        tally.score_pairs.append(((hm - 1) / 2, float(res.normalized_score or 0.0)))


def _add_entities(tally: _Tally, it: CalibItem, res: MetricResult, row: dict[str, Any]) -> None:
    """Each human entity matched to a judge's, and each turn's share of correct entities."""
    judged = {int(k): v for k, v in ((res.details or {}).get("per_turn_entities") or {}).items()}
    row["judge"] = {t: [(e.get("value"), e.get("correct")) for e in v] for t, v in judged.items()}
    counts = tally.ent_counts
    for t, hum in it.human.items():
        jents = [e for e in judged.get(t, []) if not e.get("skipped")]
        counts["human"] += len(hum)
        counts["judge"] += len(jents)
        if res.error is None:
            for hi, ji in match_entities(hum, jents):
                counts["matched"] += 1
                tally.ent_pairs.append((bool(hum[hi].get("correct")), bool(jents[ji].get("correct"))))
        if hum and res.error is None and t in judged:
            hs = sum(bool(e.get("correct")) for e in hum) / len(hum)
            js = sum(bool(e.get("correct")) for e in jents) / len(jents) if jents else None
            if js is not None:
                tally.score_pairs.append((hs, js))
                tally.pairs.append((hs == 1.0, js == 1.0))


def _entity_figures(tally: _Tally) -> dict[str, Any]:
    """Agreement on matched entities, and how well the judge found the human's entities."""
    h, j, m = tally.ent_counts["human"], tally.ent_counts["judge"], tally.ent_counts["matched"]
    prec, rec = (m / j if j else None), (m / h if h else None)
    return {
        "unit": "entity (correctly transcribed: true/false), matched leniently by value",
        "agreement": agreement(tally.ent_pairs, [True, False]),
        "entity_extraction": {
            "human_entities": h,
            "judge_entities": j,
            "matched": m,
            "precision": round(prec, 4) if prec is not None else None,
            "recall": round(rec, 4) if rec is not None else None,
            "f1": round(2 * prec * rec / (prec + rec), 4) if prec and rec else None,
        },
        "turn_score_mae": mae(tally.score_pairs),
        "turn_all_correct_agreement": agreement(tally.pairs, [True, False]),
    }


def _figures(metric: str, tally: _Tally, items: list[CalibItem]) -> dict[str, Any]:
    """The set's agreement figures, in the unit its labels are given in."""
    if metric in RATED:
        out: dict[str, Any] = {
            "unit": "conversation (overall 1-3 rating)",
            "agreement": agreement(tally.pairs, [1, 2, 3], ordinal=True),
        }
        if any("human_modes" in r for r in tally.rows):
            out["dimensions"] = dimension_agreement(tally.rows, METRIC_DIMENSIONS[metric])
        return out
    if metric == "conciseness":
        return {
            "unit": "agent turn (1-3 rating)",
            "agreement": agreement(tally.pairs, [1, 2, 3], ordinal=True),
            "conversation_score_mae": mae(tally.score_pairs),
            "human_labelled_turns": sum(len(it.human) for it in items),  # n below: those the judge rated
        }
    return _entity_figures(tally)


def score_items(
    metric: str,
    items: list[CalibItem],
    config: EvalConfig,
    progress: Callable[[str, int, int, MetricResult], None] | None = None,
    rater: Callable[[CalibItem], MetricResult] | None = None,
) -> dict[str, Any]:
    """Run `metric` on every item (or `rater`, e.g. a model refitted without the item's fold)
    and compare with the human labels."""
    spec = REGISTRY[metric]
    tally = _Tally()
    for n, it in enumerate(items, start=1):
        res = rater(it) if rater is not None else run_metric(spec, it.ctx, config)
        if res.prompt_hash:
            tally.prompt_hashes.add(res.prompt_hash)
        row: dict[str, Any] = {"id": it.item_id, "human": it.human}
        if res.error is not None:
            tally.errors += 1
            row["error"] = res.error
        if metric in RATED:
            _add_rating(tally, metric, it, res, row)
        elif metric == "conciseness":
            _add_turn_ratings(tally, it, res, row)
        elif metric == "transcription_accuracy_key_entities":
            _add_entities(tally, it, res, row)
        tally.rows.append(row)
        if progress is not None:
            progress(metric, n, len(items), res)
    out: dict[str, Any] = {
        "metric": metric,
        "metric_version": spec.version,
        "prompt_hashes": sorted(tally.prompt_hashes),
        "items": len(items),
        "judge_errors": tally.errors,
    }
    out |= _figures(metric, tally, items)
    out["per_item"] = tally.rows
    return out


def sample(items: list[CalibItem], limit: int | None, seed: int = 0) -> list[CalibItem]:
    """A seeded random subset (the files are not in random order), or all items."""
    if limit is None or limit >= len(items):
        return items
    rng = random.Random(seed)
    return sorted(rng.sample(items, limit), key=lambda it: items.index(it))
