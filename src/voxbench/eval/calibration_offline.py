"""Calibration of the offline judge methods: which method rated, the figures on the fixed
development/test split of the labels, k-fold cross-validated figures for methods fitted on
human labels, and the low-confidence mark.

Rules written by reading labels are fitted too (by a person, not an optimiser), so every
method is measured on the test half of the shipped split (`voxbench.eval.label_split`): rules
as they are, fitted methods refitted on the development half only. That test-half figure is
the one eval's summary and the report print (`measured_agreement`).

A fitted method's agreement measured on the labels it was fitted on overstates how it does on
labels it has not seen (EVA holds part of its labels back). So for every method declared with
`voxbench.eval.offline.fitted_method`, calibration also refits it k times, each time without
one fold of items, rates that held-out fold, and reports the pooled held-out agreement.
"""

from __future__ import annotations

from typing import Any

from voxbench.eval.calibration_items import CalibItem
from voxbench.eval.calibration_score import score_items
from voxbench.eval.types import EvalConfig, MetricResult

LOW_CONFIDENCE_KAPPA = 0.4
"""An offline method whose (cross-validated, when fitted) Cohen's kappa is below this is marked
low-confidence: it tells raters apart only weakly, whatever its accuracy on a skewed set."""


def cross_validate(
    metric: str, items: list[CalibItem], folds: int = 5, seed: int = 0
) -> dict[str, Any] | None:
    """k-fold figures for a fitted offline method: refit on k-1 folds, rate the held-out fold,
    pool the held-out ratings and compare them with the labels. None if the method is not fitted."""
    from voxbench.eval.offline import FITTERS, load_all
    from voxbench.eval.offline._ordinal import assign_folds

    load_all()
    fitter = FITTERS.get(metric)
    if fitter is None or len(items) < folds:
        return None
    fold = assign_folds([it.item_id for it in items], folds, seed)
    held_out: dict[int, MetricResult] = {}
    for f in range(folds):
        model = fitter.fit([(it.ctx, it.human) for it in items if fold[it.item_id] != f])
        for it in items:
            if fold[it.item_id] == f:
                held_out[id(it)] = fitter.rate_with(it.ctx, model)
    res = score_items(metric, items, EvalConfig(judge_mode="offline"), rater=lambda it: held_out[id(it)])
    out = {"folds": folds, "seed": seed, "agreement": res["agreement"]}
    for k in ("conversation_score_mae", "entity_extraction", "turn_score_mae"):
        if k in res:
            out[k] = res[k]
    return out


SPLIT_EXTRAS = ("dimensions", "conversation_score_mae", "entity_extraction", "turn_score_mae")


def split_figures(
    stem: str, sha256: str | None, metric: str, items: list[CalibItem]
) -> dict[str, Any] | None:
    """Agreement on each half of the shipped split: rules as they are; a fitted method fitted
    on the dev half (so its test figure is on labels neither its features nor its constants
    saw). None when the split does not cover this set (or this file: `sha256`)."""
    from voxbench.eval.label_split import HALVES, halves_of, load_split
    from voxbench.eval.offline import FITTERS, load_all

    load_all()
    split = load_split()
    halves = halves_of(stem, items, split, sha256)
    if halves is None or not halves["test"]:
        return None
    fitter = FITTERS.get(metric)
    if (
        fitter is not None
        and len({it.human if isinstance(it.human, int) else id(it) for it in halves["dev"]}) < 2
    ):
        return None  # nothing to fit on (a small --limit sample)
    rater = None
    if fitter is not None:
        model = fitter.fit([(it.ctx, it.human) for it in halves["dev"]])
        rater = lambda it: fitter.rate_with(it.ctx, model)  # noqa: E731
    spec = load_all().get(metric)
    seen = (split.get("seen_test_half") or {}).get(metric) or {}
    out: dict[str, Any] = {
        "seed": split.get("seed"),
        "fitted_on": "dev" if fitter else None,
        # this method version was developed reading the test half too (before the split existed)
        "test_seen_in_development": seen.get(f"{spec.method} {spec.version}") if spec else None,
    }
    for h in HALVES:
        res = score_items(metric, halves[h], EvalConfig(judge_mode="offline"), rater=rater)
        out[h] = {"items": len(halves[h]), "agreement": res["agreement"]}
        out[h] |= {k: res[k] for k in SPLIT_EXTRAS if k in res}
    return out


def offline_block(
    metric: str,
    items: list[CalibItem],
    res: dict[str, Any],
    folds: int,
    seed: int,
    stem: str = "",
    sha256: str | None = None,
) -> dict[str, Any]:
    """The offline method's name and version, its figures on the split's halves, k-fold figures
    if it is fitted, and whether it is low-confidence (kappa below LOW_CONFIDENCE_KAPPA on the
    test half; else cross-validated; else in-sample)."""
    from voxbench.eval.offline import FITTERS, load_all

    spec = load_all().get(metric)
    out: dict[str, Any] = {
        "method": f"offline:{spec.method}" if spec else None,
        "method_version": spec.version if spec else None,
        "fitted_on_labels": metric in FITTERS,
    }
    cv = cross_validate(metric, items, folds, seed) if metric in FITTERS else None
    if cv is not None:
        out["cross_validation"] = cv
    split = split_figures(stem or metric, sha256, metric, items) if spec is not None else None
    if split is not None:
        out["split"] = split
    kappa = ((split or {}).get("test") or cv or res).get("agreement", {}).get("cohen_kappa")
    out["low_confidence"] = spec is None or kappa is None or kappa < LOW_CONFIDENCE_KAPPA
    return out
