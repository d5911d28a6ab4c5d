"""Small models for 1-3 ratings over named features: an ordinal model (a weighted sum and two
cut points) and a two-step logistic model (P(rating 1), P(rating <= 2)).

Why this model: it explains itself (each rating comes with the features that pushed it, in
the rating's own units), it fits in a few constants shipped in `params.json`, it needs only
numpy, and it is fitted in milliseconds, so calibration can refit it per cross-validation
fold and report figures on labels the fit has not seen.

Cumulative logit (proportional odds): with `s = w · z` (z the standardised features),
P(rating <= 1) = σ(c1 - s) and P(rating <= 2) = σ(c2 - s). Higher `s` means a higher (better)
rating. Fitted by full-batch gradient ascent on the L2-penalised log-likelihood from a fixed
start, so a refit on the same rows gives the same constants.

Sign constraints: a feature named in `penalising` counts something that can only make the
rating worse (a stall, a repeated sentence, a word more). The fit keeps its weight on the
penalising side (projected gradient ascent: after each step the weight is clamped, so a
feature whose unconstrained weight would have the wrong sign ends at 0). Without it, a count
that happens to co-occur with good ratings in a small labelled set gets a rewarding weight,
and out of that set the model rates an agent stuck in a loop better the longer it loops.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
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

    def explain(self, feats: dict[str, float]) -> tuple[int, str, dict[str, float]]:
        """(rating, the rule applied in words, each feature's contribution: negative pulls down)."""
        s, contrib = self.score(feats)
        r = self.rate(feats)
        return r, f"score {s:.2f} vs cut points {self.cuts[0]:.2f}/{self.cuts[1]:.2f} -> {r}", contrib

    def to_json(self) -> dict[str, Any]:
        return {"kind": "ordinal", **asdict(self)}

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


def _mask(features: Sequence[str], penalising: Collection[str]) -> np.ndarray:
    unknown = set(penalising) - set(features)
    if unknown:
        raise ValueError(f"penalising features not among the features: {sorted(unknown)}")
    return np.array([f in penalising for f in features], dtype=bool)


def _standardised(
    rows: Sequence[dict[str, float]], features: Sequence[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The feature means, scales (1 for a constant feature) and standardised rows: both
    fits start from these, and the models keep the means and scales to rate new rows."""
    X = np.array([[float(r[f]) for f in features] for r in rows], dtype=float)
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd[sd < 1e-9] = 1.0
    return mu, sd, (X - mu) / sd


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
    penalising: Collection[str] = (),
) -> OrdinalModel:
    """Fit the cumulative-logit model on (features, 1-3 label) rows; the weights of the
    `penalising` features are kept <= 0 (more of them can only lower the rating)."""
    mu, sd, Z = _standardised(rows, features)
    y = np.asarray(labels, dtype=int)
    w = np.zeros(Z.shape[1])
    down = _mask(features, penalising)
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
        w[down] = np.minimum(w[down], 0.0)
        cuts = np.sort(cuts + lr * g_c / n)
    return OrdinalModel(
        features=tuple(features),
        mean=tuple(round(float(x), 6) for x in mu),
        scale=tuple(round(float(x), 6) for x in sd),
        weights=tuple(round(float(x), 6) for x in w),
        cuts=(round(float(cuts[0]), 6), round(float(cuts[1]), 6)),
        n_train=n,
    )


@dataclass(frozen=True)
class TwoStepModel:
    """Two logistic regressions over the same standardised features: P(rating = 1) and
    P(rating <= 2). Rating 1 if the first is above one half, else 2 if the second is, else 3.
    Unlike the proportional-odds model, what makes a turn a 1 (sheer length) may weigh
    differently from what makes it a 2 (a dense sentence, an unrequested explanation)."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    low: tuple[float, ...]  # weights of P(rating = 1), bias last
    mid: tuple[float, ...]  # weights of P(rating <= 2), bias last
    n_train: int = 0

    def _z(self, feats: dict[str, float]) -> list[float]:
        return [
            (float(feats[f]) - m) / s for f, m, s in zip(self.features, self.mean, self.scale, strict=True)
        ]

    def _p(self, w: tuple[float, ...], z: list[float]) -> float:
        return float(_sig(np.array(sum(a * b for a, b in zip(w[:-1], z, strict=True)) + w[-1])))

    def rate(self, feats: dict[str, float]) -> int:
        z = self._z(feats)
        return 1 if self._p(self.low, z) > 0.5 else 2 if self._p(self.mid, z) > 0.5 else 3

    def explain(self, feats: dict[str, float]) -> tuple[int, str, dict[str, float]]:
        z = self._z(feats)
        p1, p2 = self._p(self.low, z), self._p(self.mid, z)
        r = 1 if p1 > 0.5 else 2 if p2 > 0.5 else 3
        w = self.low if r == 1 else self.mid
        contrib = {f: round(-wi * zi, 4) for f, wi, zi in zip(self.features, w, z, strict=False)}
        return r, f"P(rating 1) {p1:.2f}, P(rating <= 2) {p2:.2f} -> {r}", contrib

    def to_json(self) -> dict[str, Any]:
        return {"kind": "two_step", **asdict(self)}


def _logit(Z: np.ndarray, y: np.ndarray, l2: float, iters: int, lr: float, up: np.ndarray) -> np.ndarray:
    """Logistic weights (bias last); the weights flagged in `up` are kept >= 0."""
    Z1 = np.c_[Z, np.ones(len(Z))]
    w = np.zeros(Z1.shape[1])
    up1 = np.r_[up, False]
    for _ in range(iters):
        p = _sig(Z1 @ w)
        w += lr * (Z1.T @ (y - p) / len(y) - l2 * np.r_[w[:-1], 0.0])
        w[up1] = np.maximum(w[up1], 0.0)
    return w


def fit_two_step(
    rows: Sequence[dict[str, float]],
    labels: Sequence[int],
    features: Sequence[str],
    *,
    l2: float = 0.01,
    iters: int = 3000,
    lr: float = 0.1,
    penalising: Collection[str] = (),
) -> TwoStepModel:
    """Fit both logistic steps (L2-penalised, full-batch gradient ascent from zero); the
    `penalising` features may only raise P(rating 1) and P(rating <= 2)."""
    mu, sd, Z = _standardised(rows, features)
    y = np.asarray(labels, dtype=int)
    up = _mask(features, penalising)
    low = _logit(Z, (y == 1).astype(float), l2, iters, lr, up)
    mid = _logit(Z, (y <= 2).astype(float), l2, iters, lr, up)
    return TwoStepModel(
        features=tuple(features),
        mean=tuple(round(float(x), 6) for x in mu),
        scale=tuple(round(float(x), 6) for x in sd),
        low=tuple(round(float(x), 6) for x in low),
        mid=tuple(round(float(x), 6) for x in mid),
        n_train=len(y),
    )


Model = OrdinalModel | TwoStepModel


def model_from_json(d: dict[str, Any]) -> Model:
    if d.get("kind") == "two_step":
        return TwoStepModel(
            features=tuple(d["features"]),
            mean=tuple(d["mean"]),
            scale=tuple(d["scale"]),
            low=tuple(d["low"]),
            mid=tuple(d["mid"]),
            n_train=int(d.get("n_train", 0)),
        )
    return OrdinalModel.from_json(d)


def load_params(path: Path = PARAMS_FILE) -> dict[str, Any]:
    """The shipped fitted constants (written by scripts/fit_offline_judges.py)."""
    if not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def shipped_model(metric: str, path: Path = PARAMS_FILE) -> Model:
    """The model fitted for `metric` on the visible human labels."""
    entry = load_params(path).get(metric)
    if not entry:
        raise FileNotFoundError(f"no fitted parameters for {metric} in {path}")
    return model_from_json(entry["model"])


def assign_folds(keys: Sequence[str], k: int, seed: int = 0) -> dict[str, int]:
    """Balanced, stable fold of each item: items ordered by a hash of (seed, id), then dealt
    round-robin, so neither file order nor item content decides the split."""
    import hashlib

    order = sorted(set(keys), key=lambda key: hashlib.sha256(f"{seed}:{key}".encode()).hexdigest())
    return {key: i % k for i, key in enumerate(order)}
