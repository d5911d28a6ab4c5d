"""Paired significance for condition comparisons: sign-flip permutation test and Holm.

Pure stdlib. The unit of pairing is the scenario: each scenario's mean over trials under a
condition is paired with its mean under the baseline, so trial-to-trial noise is averaged
before testing and scenarios of different difficulty do not inflate the variance.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence

EXACT_MAX_N = 16


def paired_permutation_test(
    diffs: Sequence[float], *, n_resamples: int = 20000, seed: int = 0
) -> float | None:
    """Two-sided p-value of H0 "the paired differences are symmetric about 0".

    The statistic is |mean(diffs)|; under H0 every sign flip of the differences is equally
    likely. With n <= 16 pairs all 2^n flips are enumerated (exact); beyond that a seeded
    Monte Carlo sample is used with the +1 correction ((k + 1) / (m + 1)), so p is never 0.
    None when there are no pairs. All-zero differences give p = 1.
    """
    d = [float(x) for x in diffs]
    n = len(d)
    if n == 0:
        return None
    observed = abs(sum(d)) / n
    tol = 1e-12 * max(1.0, observed)
    if n <= EXACT_MAX_N:
        hits = sum(
            1
            for signs in itertools.product((1.0, -1.0), repeat=n)
            if abs(sum(s * x for s, x in zip(signs, d, strict=True))) / n >= observed - tol
        )
        return hits / 2**n
    rng = random.Random(seed)
    hits = 0
    for _ in range(n_resamples):
        stat = abs(sum(x if rng.random() < 0.5 else -x for x in d)) / n
        hits += stat >= observed - tol
    return (hits + 1) / (n_resamples + 1)


def holm(pvalues: Mapping[str, float | None]) -> dict[str, float | None]:
    """Holm-Bonferroni adjusted p-values (step-down, made monotone, capped at 1).

    Missing p-values (None) stay None and do not count towards the number of tests.
    Reject H_i at level alpha iff adjusted p_i <= alpha; this controls the family-wise error.
    """
    present = sorted(((p, k) for k, p in pvalues.items() if p is not None), key=lambda x: x[0])
    m = len(present)
    out: dict[str, float | None] = {k: None for k in pvalues}
    running = 0.0
    for i, (p, k) in enumerate(present):
        running = max(running, min(1.0, (m - i) * p))
        out[k] = running
    return out


def mean(xs: Sequence[float]) -> float | None:
    return math.fsum(xs) / len(xs) if xs else None
