"""Agreement between human labels and a judge's: the statistics every calibration reports
(accuracy, Cohen's kappa, quadratic-weighted kappa and MAE for ordinal scales, macro F1,
distributions and confusion). Kept apart from the loading and scoring so the benchmarks that
compare candidate methods use the very same figures as `voxbench judges calibrate`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def cohen_kappa(
    pairs: Sequence[tuple[Any, Any]], labels: Sequence[Any], weights: str | None = None
) -> float | None:
    """Cohen's kappa of (human, judge) pairs over `labels`; `weights="quadratic"` for ordinal
    scales. None when undefined (no pairs, or chance agreement is already perfect)."""
    if not pairs:
        return None
    k = len(labels)
    idx = {lab: i for i, lab in enumerate(labels)}
    n = len(pairs)
    obs = [[0.0] * k for _ in range(k)]
    for h, j in pairs:
        obs[idx[h]][idx[j]] += 1.0 / n
    row = [sum(obs[i]) for i in range(k)]
    col = [sum(obs[i][j] for i in range(k)) for j in range(k)]

    def w(i: int, j: int) -> float:
        if weights == "quadratic":
            return ((i - j) / (k - 1)) ** 2 if k > 1 else 0.0
        return 0.0 if i == j else 1.0

    d_obs = sum(w(i, j) * obs[i][j] for i in range(k) for j in range(k))
    d_exp = sum(w(i, j) * row[i] * col[j] for i in range(k) for j in range(k))
    if d_exp == 0:
        return None
    return round(1.0 - d_obs / d_exp, 4) + 0.0  # no -0.0 in reports


def agreement(
    pairs: Sequence[tuple[Any, Any]], labels: Sequence[Any], ordinal: bool = False
) -> dict[str, Any]:
    """Accuracy, Cohen's kappa (and quadratic-weighted kappa and MAE for ordinal scales),
    macro F1, the label distributions and the confusion matrix (rows human, cols judge)."""
    n = len(pairs)
    out: dict[str, Any] = {"n": n, "labels": list(labels)}
    if not n:
        return out | {"accuracy": None, "cohen_kappa": None, "macro_f1": None}
    out["accuracy"] = round(sum(h == j for h, j in pairs) / n, 4)
    out["cohen_kappa"] = cohen_kappa(pairs, labels)
    if ordinal:
        out["weighted_kappa_quadratic"] = cohen_kappa(pairs, labels, "quadratic")
        out["mae"] = round(sum(abs(float(h) - float(j)) for h, j in pairs) / n, 4)
    f1s = []
    for lab in labels:
        tp = sum(h == lab and j == lab for h, j in pairs)
        fp = sum(h != lab and j == lab for h, j in pairs)
        fn = sum(h == lab and j != lab for h, j in pairs)
        if tp + fp + fn:
            f1s.append(2 * tp / (2 * tp + fp + fn))
    out["macro_f1"] = round(sum(f1s) / len(f1s), 4) if f1s else None
    out["human_distribution"] = {str(lab): sum(h == lab for h, _ in pairs) for lab in labels}
    out["judge_distribution"] = {str(lab): sum(j == lab for _, j in pairs) for lab in labels}
    out["confusion"] = [[sum(h == a and j == b for h, j in pairs) for b in labels] for a in labels]
    return out


def mae(pairs: Sequence[tuple[float, float]]) -> float | None:
    return round(sum(abs(h - j) for h, j in pairs) / len(pairs), 4) if pairs else None
