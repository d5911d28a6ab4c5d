"""Scoring a run's records in several processes (`voxbench eval --workers N`).

Why: scoring is CPU-bound Python, one record at a time; a run of thousands of records
uses one core. Workers are forked (they inherit the loaded modules and the run's shared
inputs, e.g. the EVA dataset, without pickling them), each scores consecutive chunks of
records and writes their metrics.json, and the parent collects the results in discovery
order, so the summary and every file are the same as scoring in one process.

Only runs without a judge use this: judges hold HTTP clients, caches and usage counters
that belong to one process.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Sequence
from typing import Any

_TASK: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def fork_available() -> bool:
    return "fork" in mp.get_all_start_methods()


def _run_chunk(bounds: tuple[int, int]) -> list[Any]:
    assert _TASK is not None, "worker started without a task (not forked from map_in_processes)"
    fn, items = _TASK
    return [fn(x) for x in items[bounds[0] : bounds[1]]]


def chunks(n: int, workers: int) -> list[tuple[int, int]]:
    """Consecutive index ranges, about four per worker (balances uneven records), at most 64."""
    size = max(1, min(64, n // (workers * 4) or 1))
    return [(i, min(n, i + size)) for i in range(0, n, size)]


def map_in_processes(
    fn: Callable[[Any], Any],
    items: Sequence[Any],
    workers: int,
    after_chunk: Callable[[], None] | None = None,
) -> list[Any]:
    """`[fn(x) for x in items]`, computed by `workers` forked processes, in order;
    `after_chunk()` runs in this process after each chunk of results is kept."""
    global _TASK
    _TASK = (fn, items)
    try:
        with mp.get_context("fork").Pool(workers) as pool:
            out: list[Any] = []
            for part in pool.imap(_run_chunk, chunks(len(items), workers)):
                out.extend(part)
                if after_chunk is not None:
                    after_chunk()
        return out
    finally:
        _TASK = None
