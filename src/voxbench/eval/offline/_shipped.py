"""What a run's summary and report say about the offline judges: method, version and the
agreement with human labels measured by `scripts/calibrate_offline_judges.py` (the
`calibration.json` shipped next to this file)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from voxbench.eval.offline import load_all

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")
AGREEMENT_KEYS = ("n", "accuracy", "cohen_kappa", "weighted_kappa_quadratic", "macro_f1")


def shipped_calibration(path: Path = CALIBRATION_FILE) -> dict[str, Any]:
    if not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _short(block: dict[str, Any] | None) -> dict[str, Any] | None:
    if not isinstance(block, dict):
        return None
    return {k: block.get(k) for k in AGREEMENT_KEYS if k in block}


def measured_agreement(metric: str, calibration: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """{unit, n, accuracy, kappa... (all visible labels), test: {...} (the split's test half:
    the figure to print), cv: {...}} for `metric`, or None if it was not calibrated."""
    cal = shipped_calibration() if calibration is None else calibration
    m = (cal.get("metrics") or {}).get(metric)
    if not isinstance(m, dict):
        return None
    out: dict[str, Any] = {"unit": m.get("unit"), **(_short(m.get("agreement")) or {})}
    cv = m.get("cross_validation")
    if isinstance(cv, dict):
        out["cv"] = {"folds": cv.get("folds"), **(_short(cv.get("agreement")) or {})}
    test = (m.get("split") or {}).get("test")
    if isinstance(test, dict):
        out["test"] = _short(test.get("agreement")) or {}
        seen = (m.get("split") or {}).get("test_seen_in_development")
        if seen:
            out["test"]["seen_in_development"] = seen
    out["fitted_on_labels"] = bool(m.get("fitted_on_labels"))
    if m.get("low_confidence"):
        out["low_confidence"] = True
    return out


def honest_figure(a: dict[str, Any] | None) -> tuple[dict[str, Any], str]:
    """The figure to print beside an offline-judged number and what it is: the split's test
    half ('test half'), else k-fold CV for a fitted method ('CV'), else the figure on every
    visible label ('in-sample': rules written on those labels, expect less elsewhere). A test
    half the method's version was developed on (before the split existed) says so: 'test half
    (read when written)' is no more honest than in-sample."""
    a = a or {}
    for key, tag in (("test", "test half"), ("cv", "CV")):
        block = a.get(key)
        if isinstance(block, dict) and block.get("accuracy") is not None:
            return block, tag + (" (read when written)" if block.get("seen_in_development") else "")
    return a, "in-sample"


def offline_provenance(metrics: Iterable[str]) -> dict[str, Any]:
    """{metric: {method, version, description, agreement, expected_agreement}} for the metrics
    rated offline (`expected_agreement`: the honest figure and what it is).

    Pass the judge metrics only: only they are ever rated offline (`judged.py`). Without
    any, the offline modules are not imported (that import was ~0.15 s of every
    code-metrics run)."""
    metrics = list(metrics)
    if not metrics:
        return {}
    table = load_all()
    cal = shipped_calibration()
    out: dict[str, Any] = {}
    for m in metrics:
        spec = table.get(m)
        if spec is None:
            continue
        agreement = measured_agreement(m, cal)
        figure, how = honest_figure(agreement)
        out[m] = {
            "method": f"offline:{spec.method}",
            "version": spec.version,
            "description": spec.description,
            "agreement": agreement,  # top-level figures: in-sample, on every visible label
            # the one to quote: test half, else CV, else in-sample (named in "how")
            "expected_agreement": {"how": how, **figure} if agreement else None,
        }
    return out
