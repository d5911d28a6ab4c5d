"""Keeping a run's scored records out of the cyclic garbage collector's way while scoring.

Why: a run keeps every record's results (metric models, details, analyses: about 300
objects a record) until its summary is written. Python's collector walks the objects it
tracks again whenever allocations pile up, so with thousands of records kept the same
results were walked over and over: about 0.8 ms of the 1.1 ms it took the parent of
`--workers N` to unpickle one record's results came from the collector (issue 18).

`settled_heap()` yields a `settle()` to call after each record (or chunk of records) is
kept: `gc.freeze()` moves every object the collector tracks so far into its permanent
generation, where it is no longer walked, in constant time. On leaving, `gc.unfreeze()`
hands them all back, so a reference cycle that became garbage while frozen is collected
afterwards as usual. Nothing is frozen when some other code has already frozen objects
(`gc.get_freeze_count()`): unfreezing would undo its freeze too. The results are the same
objects either way; only when the collector looks at them changes.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager


def _nothing() -> None:
    return None


@contextmanager
def settled_heap() -> Iterator[Callable[[], None]]:
    """Yields `settle()` (see module doc); a no-op when the freeze is someone else's."""
    if gc.get_freeze_count() or not gc.isenabled():
        yield _nothing
        return
    try:
        yield gc.freeze
    finally:
        gc.unfreeze()
