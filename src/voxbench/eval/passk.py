"""pass@1, pass@k and pass^k per scenario (EVA §4.3), plus averaging over scenarios."""

from __future__ import annotations

from math import comb


def _check(n: int, c: int, k: int) -> None:
    """Every estimator refuses impossible counts, as EVA's do: more passes than trials
    (c > n), more draws than trials (k > n), or a negative count."""
    if not 0 <= c <= n or not 0 <= k <= n:
        raise ValueError(f"need 0 <= c <= n and 0 <= k <= n, got n={n} c={c} k={k}")


def pass_at_1(n: int, c: int) -> float:
    _check(n, c, 0)
    if n == 0:
        raise ValueError("pass@1 needs at least one trial (n=0)")
    return c / n


def pass_at_k(n: int, c: int, k: int) -> float:
    """P(at least one of k draws without replacement passes) = 1 - C(n-c,k)/C(n,k).

    k = 0 draws is 1.0, as in EVA (nothing was required of the scenario)."""
    _check(n, c, k)
    if k == 0 or n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_power_k_observed(n: int, c: int, k: int) -> float:
    """P(all k draws without replacement pass) = C(c,k)/C(n,k); 1.0 for k = 0 (EVA)."""
    _check(n, c, k)
    if k == 0:
        return 1.0
    if c < k:
        return 0.0
    return comb(c, k) / comb(n, k)


def pass_power_k_theoretical(n: int, c: int, k: int) -> float:
    """(c/n)^k, the chance k independent trials all pass at the observed rate."""
    _check(n, c, k)
    return pass_at_1(n, c) ** k


def scenario_pass_k(outcomes: list[bool], num_draws: int) -> dict[str, float] | None:
    """All four quantities for one scenario's trials; None if fewer than `num_draws` trials."""
    n = len(outcomes)
    if n == 0 or n < num_draws:
        return None
    c = sum(outcomes)
    k = min(num_draws, n)
    return {
        "pass_at_1": pass_at_1(n, c),
        "pass_at_k": pass_at_k(n, c, k),
        "pass_power_k_observed": pass_power_k_observed(n, c, k),
        "pass_power_k_theoretical": pass_power_k_theoretical(n, c, k),
    }
