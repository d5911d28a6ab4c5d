"""Offline judges: the judge metrics rated from the record alone, with no model server.

Each offline method is a pure function `ConversationContext -> MetricResult` that rates
on the same scale as the LLM judge of the same metric (so EVA's thresholds and composites
hold), registered here with a method name and version. Every rating carries its evidence
(`details["evidence"]`: a list of {turn, claim, rule} items) so a reader can see why.

Methods live one metric (or one family) per module in this package and register with
`@offline_method(...)`; `load_all()` imports every module of the package, so adding a
file is enough to add a method. `voxbench.eval.metrics.judged` dispatches to them when no
judge endpoint is configured and the offline judge is in use.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from voxbench.eval.context import ConversationContext
    from voxbench.eval.types import MetricResult

OfflineRater = Callable[["ConversationContext"], "MetricResult"]


@dataclass(frozen=True)
class OfflineMethod:
    """One registered offline rater for one judge metric."""

    metric: str
    method: str
    version: str
    fn: OfflineRater
    description: str = ""


OFFLINE: dict[str, OfflineMethod] = {}


@dataclass(frozen=True)
class Fitter:
    """How to refit a method fitted on human labels, so calibration can cross-validate it:
    `fit(labelled)` takes (context, human label) pairs in the calibration format (an int for
    a whole-conversation rating, {turn_id: rating} for per-turn sets) and returns a model;
    `rate_with(ctx, model)` rates like the registered method but with that model."""

    metric: str
    fit: Callable[[list[tuple[ConversationContext, Any]]], Any]
    rate_with: Callable[[ConversationContext, Any], MetricResult]


FITTERS: dict[str, Fitter] = {}


def fitted_method(
    metric: str,
    *,
    fit: Callable[[list[tuple[ConversationContext, Any]]], Any],
    rate_with: Callable[[ConversationContext, Any], MetricResult],
) -> None:
    """Declare the offline method of `metric` as fitted on labels (see `Fitter`)."""
    FITTERS[metric] = Fitter(metric=metric, fit=fit, rate_with=rate_with)


def offline_method(metric: str, *, method: str, version: str) -> Callable[[OfflineRater], OfflineRater]:
    """Register `fn` as the offline rater of `metric` (decorator). The result it returns gets
    `params["method"] = "offline:<method>"` and `version` stamped on by `rate_offline`."""

    def deco(fn: OfflineRater) -> OfflineRater:
        if metric in OFFLINE and OFFLINE[metric].fn is not fn:
            raise ValueError(f"offline method for {metric!r} registered twice")
        doc = (fn.__doc__ or "").strip().split("\n")[0]
        OFFLINE[metric] = OfflineMethod(metric=metric, method=method, version=version, fn=fn, description=doc)
        return fn

    return deco


def load_all() -> dict[str, OfflineMethod]:
    """Import every module of this package (each registers its methods) and return the table."""
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
    return OFFLINE


def rate_offline(metric: str, ctx: ConversationContext) -> MetricResult | None:
    """Rate `metric` offline, or None when no offline method is registered for it."""
    spec = load_all().get(metric)
    if spec is None:
        return None
    res = spec.fn(ctx)
    res.params = {**res.params, "method": f"offline:{spec.method}", "offline_version": spec.version}
    return res
