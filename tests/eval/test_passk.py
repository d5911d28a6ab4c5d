"""pass@k math: closed forms against brute-force enumeration over every small case."""

from __future__ import annotations

import itertools
import random

import pytest

from voxbench.eval.passk import (
    pass_at_1,
    pass_at_k,
    pass_power_k_observed,
    pass_power_k_theoretical,
    scenario_pass_k,
)


def brute(n: int, c: int, k: int) -> tuple[float, float]:
    trials = [True] * c + [False] * (n - c)
    draws = list(itertools.combinations(range(n), k))
    any_ = sum(any(trials[i] for i in d) for d in draws) / len(draws)
    all_ = sum(all(trials[i] for i in d) for d in draws) / len(draws)
    return any_, all_


@pytest.mark.parametrize("n", range(1, 8))
def test_closed_forms_match_enumeration(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            any_, all_ = brute(n, c, k)
            assert pass_at_k(n, c, k) == pytest.approx(any_)
            assert pass_power_k_observed(n, c, k) == pytest.approx(all_)


def test_properties_random() -> None:
    rng = random.Random(7)
    for _ in range(500):
        n = rng.randint(1, 40)
        c = rng.randint(0, n)
        k = rng.randint(1, n)
        at_k, pow_k, p1 = pass_at_k(n, c, k), pass_power_k_observed(n, c, k), pass_at_1(n, c)
        eps = 1e-12
        assert 0.0 <= pow_k <= p1 + eps and p1 <= at_k + eps and at_k <= 1.0
        if k > 1 and k < n:
            assert pass_at_k(n, c, k + 1) >= at_k - 1e-12
            assert pass_power_k_observed(n, c, k + 1) <= pow_k + 1e-12
        assert pass_at_k(n, c, 1) == pytest.approx(p1)
        assert pass_power_k_theoretical(n, c, k) == pytest.approx((c / n) ** k)


def test_edges() -> None:
    assert pass_at_k(3, 1, 3) == 1.0  # n - c < k
    assert pass_power_k_observed(3, 2, 3) == 0.0  # c < k
    assert pass_power_k_observed(3, 3, 3) == 1.0  # n = k: only if all pass
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
    assert scenario_pass_k([True, False], 3) is None  # fewer trials than draws
    r = scenario_pass_k([True, False, True], 3)
    assert r == {
        "pass_at_1": pytest.approx(2 / 3),
        "pass_at_k": 1.0,
        "pass_power_k_observed": 0.0,
        "pass_power_k_theoretical": pytest.approx(8 / 27),
    }
