"""Writing a record's metrics.json: atomically, with as few system calls as it takes.

Why: scoring writes one small file per record, and creating it was about a tenth of
scoring a synthetic record. `atomic_write_bytes` (records) makes its temp file with
`tempfile.mkstemp` (a random name, retried on collision) and goes through a Python file
object; here the temp file is named after this process and thread
(`.metrics.json.<pid>.<thread>.tmp`: no other live writer uses that name),
written with `os.write` and renamed over the target, as before: a reader sees the old
file or the new one, never half of one. No fsync, as before: a rerun rewrites the file.
The file mode is mkstemp's (0600), so the files are the same as before.

A background writer thread was tried and measured (issue 18): with the scoring thread
CPU-bound, the writer waited for the GIL after each of its system calls, fell behind and
blocked the scorer, so it did not save wall time on this 2-core machine.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def write_now(path: Path, data: bytes) -> None:
    """Write `path` atomically (temp file beside it, then rename), creating its folder."""
    folder = os.fspath(path.parent)
    tmp = os.path.join(folder, f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        fd = os.open(tmp, _FLAGS, 0o600)
    except FileNotFoundError:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(tmp, _FLAGS, 0o600)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
