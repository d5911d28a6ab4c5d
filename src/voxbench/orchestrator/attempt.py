"""Run one attempt in its own process and classify what happened.

Blocking on purpose: the local backend calls it from a thread per slot and the Ray
backend from inside a Ray task, so both backends detect crashes and hangs the same way.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from voxbench.orchestrator.classify import source_from_log
from voxbench.orchestrator.jobs import ConversationJob
from voxbench.orchestrator.worker import WORKER_INFO
from voxbench.records.stage import CALL_STAGE, read_stage

JOB_FILE = "job.json"
WORKER_LOG = "worker.log"
WORKER_PID = "worker.pid"

OutcomeKind = Literal["ran", "invalid", "infra", "cancelled"]


class AttemptOutcome(BaseModel):
    """What one attempt produced; ``ran`` still has to pass validation."""

    kind: OutcomeKind
    cause: str | None = None
    error_source: str | None = None
    exit_code: int | None = None
    process_s: float = 0.0
    fn_s: float | None = None


def free_port() -> int:
    """An ephemeral port the OS says is free (for backends without a port pool)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tail(path: Path, n: int = 1500) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-n:].strip()
    except OSError:
        return ""


_EXC_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Fault)\b.*")


def _why_it_died(tail: str, stage: str | None) -> str:
    """The exception a dead worker's log ends with (its last line that names one, not a
    library's debug line), and the step it was in."""
    exc = next((ln.strip() for ln in reversed(tail.splitlines()) if _EXC_LINE.match(ln.strip())), None)
    parts = ([exc] if exc else []) + ([f"while {stage}"] if stage else [])
    return f": {'; '.join(parts)}" if parts else ""


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with code {code}"


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait()


def _classify_record(out: Path) -> tuple[OutcomeKind, str | None, str | None]:
    rec_path = out / "record.json"
    if not rec_path.is_file():
        return "infra", "conversation process exited cleanly but wrote no record.json", "worker"
    try:
        raw = json.loads(rec_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return "infra", f"unreadable record.json: {exc}", "worker"
    status = raw.get("status")
    if status == "infra_failure":
        return (
            "infra",
            raw.get("error") or "conversation reported an infrastructure failure",
            raw.get("error_source"),
        )
    if status == "invalid":
        return "invalid", raw.get("error") or "conversation marked itself invalid", "simulation"
    return "ran", None, None


class _SetupWatch:
    """When the worker's call started: its set-up time, read from the stage file it keeps."""

    POLL_S = 0.5

    def __init__(self, out: Path, clock: Callable[[], float], t0: float) -> None:
        self.out, self.clock, self.t0 = out, clock, t0
        self.setup_s = 0.0  # 0 until the call starts (and for workers that run no live call)
        self._started = False
        self._next = t0

    def poll(self) -> float:
        """The set-up time so far excluded from the deadline (read at most every POLL_S)."""
        now = self.clock()
        if not self._started and now >= self._next:
            self._next = now + self.POLL_S
            text = read_stage(self.out)
            if text is not None and text.startswith(CALL_STAGE):
                self._started, self.setup_s = True, max(0.0, now - self.t0)
        return self.setup_s


def _hang_cause(deadline_s: float, setup_s: float, time_limit_s: float, grace_s: float) -> str:
    parts = f"time limit {time_limit_s:g} s + grace {grace_s:g} s"
    if setup_s > 0:
        parts = f"set-up {setup_s:.1f} s + {parts}"
    return f"hang: no result after {deadline_s:.1f} s ({parts})"


def run_attempt(
    job: ConversationJob,
    grace_s: float = 20.0,
    cancel: threading.Event | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> AttemptOutcome:
    """Spawn the worker for `job`, enforce time limit + grace, and classify the result.

    The worker runs in its own session so a hang is killed together with any bot
    processes it started. A live call's time limit counts from when the call starts (its
    "in the call" stage): the minutes a worker spends importing pipecat, starting and warming
    the local LLM do not eat the grace its call needs to end and write its record (a make run
    call ended by its time limit was killed as a hang while draining, 2026-12-04). ``clock`` measures the deadline and the process time (seconds;
    a test injects its own, so a hang is decided by what the worker did, not by how loaded
    the machine is).
    """
    out = Path(job.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    job_path = out / JOB_FILE
    job_path.write_text(job.model_dump_json(indent=2), encoding="utf-8")
    deadline_s = job.time_limit_s + grace_s
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    t0 = clock()
    with (out / WORKER_LOG).open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "voxbench.orchestrator.worker", str(job_path)],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            env=env,
        )
        (out / WORKER_PID).write_text(str(proc.pid), encoding="utf-8")
        code: int | None = None
        setup = _SetupWatch(out, clock, t0)
        while code is None:
            try:
                code = proc.wait(timeout=0.05)
            except subprocess.TimeoutExpired:
                if cancel is not None and cancel.is_set():
                    _kill_group(proc)
                    return AttemptOutcome(kind="cancelled", cause="run interrupted", process_s=clock() - t0)
                if (elapsed := clock() - t0) > deadline_s + setup.poll():
                    _kill_group(proc)
                    return AttemptOutcome(
                        kind="infra",
                        cause=_hang_cause(
                            deadline_s + setup.setup_s, setup.setup_s, job.time_limit_s, grace_s
                        ),
                        error_source="timeout",
                        process_s=elapsed,
                    )
    elapsed = clock() - t0
    fn_s = None
    info = out / WORKER_INFO
    if info.is_file():
        fn_s = float(json.loads(info.read_text(encoding="utf-8")).get("fn_s", 0.0))
    if code != 0:
        tail = _tail(out / WORKER_LOG)
        last = _why_it_died(tail, read_stage(out))
        return AttemptOutcome(
            kind="infra",
            cause=f"conversation process {_exit_text(code)}{last}",
            error_source=source_from_log(tail, "crash"),
            exit_code=code,
            process_s=elapsed,
        )
    kind, reason, source = _classify_record(out)
    return AttemptOutcome(
        kind=kind, cause=reason, error_source=source, exit_code=0, process_s=elapsed, fn_s=fn_s
    )
