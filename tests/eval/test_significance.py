"""Paired sign-flip permutation test and Holm correction."""

from __future__ import annotations

import itertools

import pytest

from voxbench.eval.significance import holm, paired_permutation_test


def test_exact_enumeration_matches_hand_count() -> None:
    # 3 pairs all positive: only the all-same-sign flips reach |mean| -> p = 2/8
    assert paired_permutation_test([0.1, 0.2, 0.3]) == pytest.approx(0.25)
    # brute force over every flip for a mixed sample
    d = [0.5, -0.1, 0.3, 0.2, -0.4, 0.05]
    obs = abs(sum(d)) / len(d)
    flips = list(itertools.product((1, -1), repeat=len(d)))
    expected = sum(abs(sum(s * x for s, x in zip(f, d, strict=True))) / len(d) >= obs - 1e-12 for f in flips)
    assert paired_permutation_test(d) == pytest.approx(expected / len(flips))


def test_edge_cases() -> None:
    assert paired_permutation_test([]) is None
    assert paired_permutation_test([0.0, 0.0, 0.0]) == 1.0
    assert paired_permutation_test([1.0]) == 1.0  # one pair can never be significant


def test_monte_carlo_for_many_pairs_is_seeded_and_small_for_a_real_shift() -> None:
    d = [0.1 + 0.01 * i for i in range(30)]
    p1 = paired_permutation_test(d, n_resamples=4000, seed=1)
    assert p1 == paired_permutation_test(d, n_resamples=4000, seed=1)
    assert p1 is not None and 0 < p1 < 0.001  # +1 correction: never exactly 0
    null = [(-1) ** i * 0.1 for i in range(30)]
    p_null = paired_permutation_test(null, n_resamples=4000, seed=1)
    assert p_null is not None and p_null > 0.5


def test_holm_step_down_monotone_and_capped() -> None:
    adj = holm({"a": 0.01, "b": 0.04, "c": 0.03, "d": None})
    # sorted 0.01, 0.03, 0.04 with multipliers 3, 2, 1 -> 0.03, 0.06, max(0.06, 0.04)
    assert adj["a"] == pytest.approx(0.03)
    assert adj["c"] == pytest.approx(0.06)
    assert adj["b"] == pytest.approx(0.06)  # monotone: never below an earlier step
    assert adj["d"] is None
    assert holm({"x": 0.6, "y": 0.7}) == {"x": 1.0, "y": 1.0}
    assert holm({}) == {}
