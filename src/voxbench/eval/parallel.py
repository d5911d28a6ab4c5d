"""Scoring a run's records in several processes (`voxbench eval --workers N`).

Why: scoring is CPU-bound Python, one record at a time; a run of thousands of records
uses one core. With N workers this process and N - 1 forked ones score the records: the
children inherit the loaded modules and the run's shared inputs (e.g. the EVA dataset)
without pickling them, and this process scores its share itself instead of waiting, so
only the children's results are pickled and sent back (the transfer was about a fifth of
all the CPU a run with two workers took: issue 18). Chunks of consecutive records are
claimed from a shared counter, largest first and shrinking towards the end, so the
processes finish together; results are put back in discovery order, so the summary and
every file are the same as scoring in one process.

Only runs without a judge use this: judges hold HTTP clients, caches and usage counters
that belong to one process.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import pickle
import threading
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any, Protocol


class _Counter(Protocol):
    """`multiprocessing.Value('i')`: a shared int and its lock."""

    value: int

    def get_lock(self) -> Any: ...


def fork_available() -> bool:
    return "fork" in mp.get_all_start_methods()


MAX_DEFAULT_WORKERS = 4


def default_workers() -> int:
    """`voxbench eval`'s default: one process per usable core, at most 4.

    Why both cores by default: code-metric scoring is CPU-bound and this process scores
    its share too, so on 2 cores two processes scored 1,000 synthetic records 1.55x and
    EVA's record x1,000 1.7x sooner than one, with identical files (eval_throughput,
    2026-12-04, load 1.3-1.4); a run too small to gain (fewer than 4 records per
    process) or one with a judge stays in one process anyway.
    Why at most 4: only 2 cores were measured, and this process unpickles every child's
    results and writes the summary alone, so its share of the work grows with the count."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_DEFAULT_WORKERS, cores))


def chunks(n: int, workers: int) -> list[tuple[int, int]]:
    """Consecutive index ranges in claim order: a share of what is left each (about an
    eighth of a process's share at first, at most 64 records), shrinking to 2 records at
    the end, so the process that claims the last chunk finishes soon after the others."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < n:
        size = max(2, min(64, (n - i) // (workers * 8)))
        out.append((i, min(n, i + size)))
        i += size
    return out


def _claim(counter: _Counter, limit: int) -> int:
    """The next unclaimed chunk index (>= limit: none left)."""
    with counter.get_lock():
        i = counter.value
        if i < limit:
            counter.value = i + 1
        return i


def _child(
    fn: Callable[[Any], Any],
    items: Sequence[Any],
    bounds: list[tuple[int, int]],
    counter: _Counter,
    conn: Connection,
) -> None:
    """A forked worker: claim chunks, score them, send each (index, results) pickled; an
    exception is sent as (index, None, exception) and ends the worker."""
    gc.freeze()  # the inherited objects: no collection walks (and copies) their pages
    try:
        while (i := _claim(counter, len(bounds))) < len(bounds):
            lo, hi = bounds[i]
            try:
                out = [fn(x) for x in items[lo:hi]]
            except BaseException as exc:  # handed to the parent, which raises it
                conn.send_bytes(pickle.dumps((i, None, exc), pickle.HIGHEST_PROTOCOL))
                return
            conn.send_bytes(pickle.dumps((i, out, None), pickle.HIGHEST_PROTOCOL))
            del out
    finally:
        conn.close()


class _Inbox:
    """Receives the children's pickled chunks on a thread (a child never blocks on a
    full pipe while this process scores); they are unpickled by `take()`, between this
    process's own chunks."""

    def __init__(self, conns: list[Connection]) -> None:
        self._lock = threading.Lock()
        self._got: list[bytes] = []
        self._threads = [threading.Thread(target=self._read, args=(c,), daemon=True) for c in conns]
        for t in self._threads:
            t.start()

    def _read(self, conn: Connection) -> None:
        with conn:
            while True:
                try:
                    data = conn.recv_bytes()
                except (EOFError, OSError):
                    return
                with self._lock:
                    self._got.append(data)

    def take(self) -> list[tuple[int, list[Any] | None, BaseException | None]]:
        with self._lock:
            got, self._got = self._got, []
        return [pickle.loads(d) for d in got]

    def wait(self) -> None:
        for t in self._threads:
            t.join()


def map_in_processes(
    fn: Callable[[Any], Any],
    items: Sequence[Any],
    workers: int,
    after_chunk: Callable[[], None] | None = None,
    on_kept: Callable[[int], None] | None = None,
) -> list[Any]:
    """`[fn(x) for x in items]`, computed by this process and `workers - 1` forked ones,
    in order; `after_chunk()` runs in this process after each chunk of results is kept, and
    `on_kept(n)` hears how many more items are done (progress)."""
    ctx = mp.get_context("fork")
    bounds = chunks(len(items), workers)
    counter: _Counter = ctx.Value("i", 0)
    results: list[list[Any] | None] = [None] * len(bounds)
    procs, conns = [], []
    for _ in range(max(0, workers - 1)):
        recv, send = ctx.Pipe(duplex=False)
        p = ctx.Process(target=_child, args=(fn, items, bounds, counter, send), daemon=True)
        p.start()
        send.close()
        procs.append(p)
        conns.append(recv)
    inbox = _Inbox(conns)
    kept = 0

    def report() -> None:
        nonlocal kept
        now = sum(len(r) for r in results if r is not None)
        if on_kept is not None and now > kept:
            on_kept(now - kept)
        kept = now

    try:
        while (i := _claim(counter, len(bounds))) < len(bounds):
            lo, hi = bounds[i]
            results[i] = [fn(x) for x in items[lo:hi]]
            _keep(inbox.take(), results)
            report()
            if after_chunk is not None:
                after_chunk()
        inbox.wait()
        _keep(inbox.take(), results)
        report()
    except BaseException:
        for p in procs:  # no use scoring the rest: stop the children
            p.terminate()
        raise
    finally:
        for p in procs:
            p.join()
    missing = [i for i, r in enumerate(results) if r is None]
    if missing:
        codes = [p.exitcode for p in procs]
        raise RuntimeError(f"worker processes ended without scoring chunks {missing} (exit codes {codes})")
    if after_chunk is not None:
        after_chunk()
    return [x for part in results if part is not None for x in part]


def _keep(got: list[tuple[int, list[Any] | None, BaseException | None]], results: list[Any]) -> None:
    for i, out, exc in got:
        if exc is not None:
            raise exc
        results[i] = out
