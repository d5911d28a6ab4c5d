"""`map_in_processes`: this process and forked ones give `[fn(x) for x in items]`, in order."""

from __future__ import annotations

import os
import time

import pytest

from voxbench.eval.parallel import chunks, fork_available, map_in_processes

pytestmark = pytest.mark.skipif(not fork_available(), reason="needs the fork start method")


@pytest.mark.parametrize("n", [0, 1, 2, 7, 64, 65, 1000, 4321])
@pytest.mark.parametrize("workers", [2, 3, 8])
def test_chunks_cover_every_index_once_in_order_and_shrink(n: int, workers: int) -> None:
    bounds = chunks(n, workers)
    assert [i for lo, hi in bounds for i in range(lo, hi)] == list(range(n))
    sizes = [hi - lo for lo, hi in bounds]
    assert all(1 <= s <= 64 for s in sizes)
    assert sizes == sorted(sizes, reverse=True) or n < 2
    if n >= 2:
        assert sizes[-1] <= 2


def _square_and_pid(x: int) -> tuple[int, int]:
    time.sleep(0.001)  # long enough that no process takes every chunk before the others start
    return x * x, os.getpid()


@pytest.mark.parametrize("workers", [2, 3])
def test_results_are_the_plain_maps_in_order_and_the_work_is_shared(workers: int) -> None:
    items = list(range(400))
    got = map_in_processes(_square_and_pid, items, workers)
    assert [v for v, _ in got] == [x * x for x in items]
    pids = {p for _, p in got}
    assert os.getpid() in pids  # this process scored its share
    assert len(pids) >= 2  # and a forked one scored some: the work was shared


def test_after_chunk_runs_in_this_process() -> None:
    calls: list[int] = []
    map_in_processes(_square_and_pid, list(range(50)), 2, after_chunk=lambda: calls.append(os.getpid()))
    assert calls and set(calls) == {os.getpid()}


def _fails_in_a_child(x: int) -> int:
    if x == 377 or (x >= 300 and os.getpid() != _PARENT):
        raise ValueError(f"bad item {x}")
    return x


_PARENT = os.getpid()


def test_an_exception_in_either_process_is_raised_here() -> None:
    with pytest.raises(ValueError, match="bad item"):
        map_in_processes(_fails_in_a_child, list(range(400)), 2)


def test_default_workers_is_the_usable_cores_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    from voxbench.eval import parallel

    for cores, want in ((1, 1), (2, 2), (3, 3), (64, parallel.MAX_DEFAULT_WORKERS)):
        monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda _pid, n=cores: set(range(n)))
        assert parallel.default_workers() == want
