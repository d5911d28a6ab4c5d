"""What a running conversation is preparing or doing now, for a progress display outside it.

A live attempt spends minutes before its first word (a worker process imports the live
stack, starts a local LLM, loads STT and TTS, warms the LLM on the agent's policy); the
orchestrator only sees a running process. The call notes each step in ``stage.txt`` in its
output folder and the run's progress shows it, so a run piped into a log never sits silent
for minutes. Not part of the record: best effort, overwritten, never read by scoring.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from voxbench.records.io import atomic_write_bytes

STAGE_FILE = "stage.txt"
CALL_STAGE = "in the call"
"""The step noted when the call itself starts: the orchestrator counts the time limit from it."""


def note_stage(out_dir: str | Path | None, text: str) -> None:
    """Say what this conversation does next (a display hint: a failed write is ignored)."""
    if out_dir is None:
        return
    with contextlib.suppress(OSError):
        atomic_write_bytes(Path(out_dir) / STAGE_FILE, text.encode("utf-8"), durable=False)


def read_stage(out_dir: str | Path) -> str | None:
    """The last step noted in ``out_dir``, or None before the first one."""
    try:
        return (Path(out_dir) / STAGE_FILE).read_text(encoding="utf-8").strip() or None
    except OSError:
        return None
