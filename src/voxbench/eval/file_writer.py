"""Writing a run's metrics.json files beside the scoring, on one background thread.

Why: creating, writing and renaming a small file is mostly kernel time (0.1-0.3 ms a file
on an ext4 disk, about a tenth of scoring a record), which the scoring thread used to wait
for. The system calls release the GIL, so a writer thread does them while the next record
is scored (issue 18).

Each file is still written atomically (temp file + rename, `atomic_write_bytes`), so a
reader sees the old file or the new one, never half of one. `close()` waits for every
queued write and raises the first error, so a run's summary is written only after all of
its records' files are complete, as before; a process killed mid-run may leave the last
few scored records without their metrics.json, as being killed before scoring them would.
At most `max_pending` files wait in memory.
"""

from __future__ import annotations

import contextlib
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from types import TracebackType

from voxbench.records import atomic_write_bytes


def write_now(path: Path, data: bytes) -> None:
    """The plain way: write `path` atomically (no fsync: a rerun rewrites it) and return."""
    atomic_write_bytes(path, data, durable=False)


class BackgroundWriter:
    """`write(path, data)` queues an atomic write; use as a context manager (see module doc)."""

    def __init__(self, max_pending: int = 64) -> None:
        self._max = max_pending
        self._pool: ThreadPoolExecutor | None = None
        self._pending: deque[Future[None]] = deque()

    def write(self, path: Path, data: bytes) -> None:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="metrics-writer")
        self._pending.append(self._pool.submit(write_now, path, data))
        while self._pending and (self._pending[0].done() or len(self._pending) > self._max):
            self._pending.popleft().result()  # a failed write raises here

    def close(self) -> None:
        """Wait for every queued write; raise the first error."""
        try:
            while self._pending:
                self._pending.popleft().result()
        finally:
            if self._pool is not None:
                self._pool.shutdown(wait=True)
                self._pool = None

    def __enter__(self) -> BackgroundWriter:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc is None:
            self.close()
            return
        with contextlib.suppress(Exception):  # scoring failed: let queued files land, raise its error
            self.close()
