"""One slip between two spellings of a value: a character changed, added or dropped.

A recogniser's slip on a code, a name or a label is usually one character: "Wexner" heard
"Wexler", "role" heard "roll", a digit of a ten-digit number missed. The caller reads such a
near miss as the value it holds misheard, not as another value (:mod:`..pipelines.caller.goal`'s
read-backs and sound-alike labels); which characters may change or drop is the reader's to say.
"""

from __future__ import annotations

from collections.abc import Callable


def one_changed(a: str, b: str, swap: Callable[[str, str], bool] | None = None) -> bool:
    """Same length, exactly one character different (and that pair allowed by ``swap``)."""
    if len(a) != len(b):
        return False
    diff = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    return len(diff) == 1 and (swap is None or swap(*diff[0]))


def one_dropped(long_: str, short: str, drop: Callable[[str], bool] | None = None) -> bool:
    """``short`` is ``long_`` with one character left out (one ``drop`` allows)."""
    return len(long_) - len(short) == 1 and any(
        long_[:i] + long_[i + 1 :] == short and (drop is None or drop(long_[i])) for i in range(len(long_))
    )


def one_edit(
    a: str, b: str, swap: Callable[[str, str], bool] | None = None, drop: Callable[[str], bool] | None = None
) -> bool:
    """One character changed, added or dropped (not equal: no edit is no slip)."""
    if len(a) == len(b):
        return one_changed(a, b, swap)
    short, long_ = sorted((a, b), key=len)
    return one_dropped(long_, short, drop)
