"""`statistics.mean`, bit for bit, without its Fractions on float data.

Why: metrics and per-record composites take a handful of means per record, and
`statistics.mean` sums through `fractions.Fraction` (exact, then rounded once): ~14 % of
scoring a record went there. For finite floats the same exact rational is summed here
with integers (every float is an integer over a power of two), and one int division
rounds it correctly, as `float(Fraction)` does: the same float, always. Anything else
(ints, bools, Decimals, inf, nan, empty data) goes to `statistics.mean` itself.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from typing import Any


def mean(data: Iterable[Any]) -> Any:
    xs = list(data)
    if not xs or not all(type(x) is float for x in xs):
        return statistics.mean(xs)
    try:
        ratios = [x.as_integer_ratio() for x in xs]
    except (OverflowError, ValueError):  # inf, nan
        return statistics.mean(xs)
    den = max(d for _, d in ratios)  # powers of two: every other one divides it
    num = sum(n * (den // d) for n, d in ratios)
    return num / (den * len(xs))
