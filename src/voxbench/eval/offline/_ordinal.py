"""A small ordinal model for 1-3 ratings: a weighted sum of named features and two cut points.

Why this model: it explains itself (each rating comes with the features that pushed it, in
the rating's own units), it fits in a few constants shipped in `params.json`, it needs only
numpy, and it is fitted in milliseconds, so calibration can refit it per cross-validation
fold and report figures on labels the fit has not seen.

Cumulative logit (proportional odds): with `s = w · z` (z the standardised features),
P(rating <= 1) = σ(c1 - s) and P(rating <= 2) = σ(c2 - s). Higher `s` means a higher (better)
rating. Fitted by full-batch gradient ascent on the L2-penalised log-likelihood from a fixed
start, so a refit on the same rows gives the same constants.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

PARAMS_FILE = Path(__file__).with_name("params.json")


@dataclass(frozen=True)
class OrdinalModel:
    """Fitted constants: feature order, standardisation, weights and the two cut points."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    cuts: tuple[float, float]
    n_train: int = 0

    def score(self, feats: dict[str, float]) -> tuple[float, dict[str, float]]:
        """The latent score and each feature's contribution to it (negative pulls the rating down)."""
        contrib = {
            f: round(w * (float(feats[f]) - m) / s, 4)
            for f, m, s, w in zip(self.features, self.mean, self.scale, self.weights, strict=True)
        }
        return sum(contrib.values()), contrib

    def rate(self, feats: dict[str, float]) -> int:
        s, _ = self.score(feats)
        return 1 if s < self.cuts[0] else 2 if s < self.cuts[1] else 3

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> OrdinalModel:
        return cls(
            features=tuple(d["features"]),
            mean=tuple(d["mean"]),
            scale=tuple(d["scale"]),
            weights=tuple(d["weights"]),
            cuts=(float(d["cuts"][0]), float(d["cuts"][1])),
            n_train=int(d.get("n_train", 0)),
        )


def _sig(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def fit_ordinal(
    rows: Sequence[dict[str, float]],
    labels: Sequence[int],
    features: Sequence[str],
    *,
    l2: float = 0.1,
    iters: int = 3000,
    lr: float = 0.05,
) -> OrdinalModel:
    """Fit the cumulative-logit model on (features, 1-3 label) rows."""
    X = np.array([[float(r[f]) for f in features] for r in rows], dtype=float)
    y = np.asarray(labels, dtype=int)
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd[sd < 1e-9] = 1.0
    Z = (X - mu) / sd
    w = np.zeros(Z.shape[1])
    cuts = np.array([-1.0, 1.0])
    n = len(y)
    for _ in range(iters):
        s = Z @ w
        g_s = np.zeros(n)
        g_c = np.zeros(2)
        for label, lo, hi in ((1, None, 0), (2, 0, 1), (3, 1, None)):
            m = y == label
            if not m.any():
                continue
            p_lo = _sig(cuts[lo] - s[m]) if lo is not None else np.zeros(int(m.sum()))
            p_hi = _sig(cuts[hi] - s[m]) if hi is not None else np.ones(int(m.sum()))
            den = np.clip(p_hi - p_lo, 1e-9, None)
            d_lo, d_hi = p_lo * (1 - p_lo), p_hi * (1 - p_hi)
            g_s[m] += (d_lo - d_hi) / den
            if hi is not None:
                g_c[hi] += float((d_hi / den).sum())
            if lo is not None:
                g_c[lo] -= float((d_lo / den).sum())
        w += lr * (Z.T @ g_s / n - l2 * w)
        cuts = np.sort(cuts + lr * g_c / n)
    return OrdinalModel(
        features=tuple(features),
        mean=tuple(round(float(x), 6) for x in mu),
        scale=tuple(round(float(x), 6) for x in sd),
        weights=tuple(round(float(x), 6) for x in w),
        cuts=(round(float(cuts[0]), 6), round(float(cuts[1]), 6)),
        n_train=n,
    )


def load_params(path: Path = PARAMS_FILE) -> dict[str, Any]:
    """The shipped fitted constants (written by scripts/fit_offline_judges.py)."""
    if not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def shipped_model(metric: str, path: Path = PARAMS_FILE) -> OrdinalModel:
    """The model fitted for `metric` on the visible human labels."""
    entry = load_params(path).get(metric)
    if not entry:
        raise FileNotFoundError(f"no fitted parameters for {metric} in {path}")
    return OrdinalModel.from_json(entry["model"])


def assign_folds(keys: Sequence[str], k: int, seed: int = 0) -> dict[str, int]:
    """Balanced, stable fold of each item: items ordered by a hash of (seed, id), then dealt
    round-robin, so neither file order nor item content decides the split."""
    import hashlib

    order = sorted(set(keys), key=lambda key: hashlib.sha256(f"{seed}:{key}".encode()).hexdigest())
    return {key: i % k for i, key in enumerate(order)}
