"""The run folder on disk, and the rules that make resume safe.

::

    <out>/run.json                         provenance (RunManifest), written once
    <out>/state.json                       small progress state, rewritten atomically
    <out>/run_summary.json                 counts; metrics_summary.json if eval scored
    <out>/records/<conv>/                  the final attempt: record.json with a final status
    <out>/records/<conv>_failed_attempt_<n>/   earlier attempts, kept for diagnosis
    <out>/records/.staging/<conv>.a<n>.<token>/  attempts in flight

A conversation is finished iff ``records/<conv>/record.json`` exists: only the
orchestrator creates that folder, by renaming a staged attempt after classifying it,
so it never holds a half-written or unvalidated attempt. Anything in ``.staging`` after
a crash is partial and is deleted; failed-attempt folders are kept and counted.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from voxbench.records import ConversationRecord, atomic_write_json

FAILED_RE = re.compile(r"^(?P<conv>.+)_failed_attempt_(?P<n>\d+)$")
FINAL_STATUSES = frozenset({"completed", "invalid", "infra_failure"})


@dataclass
class ConversationState:
    """What the disk says about one conversation."""

    final_status: str | None = None
    failed: dict[int, str] = field(default_factory=dict)  # attempt -> status

    @property
    def done(self) -> bool:
        return self.final_status is not None

    @property
    def next_attempt(self) -> int:
        return max(self.failed, default=-1) + 1

    def count(self, status: str) -> int:
        return sum(1 for s in self.failed.values() if s == status)


class RunLayout:
    """Paths and atomic moves inside one run folder."""

    def __init__(self, root: str | Path):
        self.root = Path(root)
        self.records = self.root / "records"
        self.staging = self.records / ".staging"
        self.run_json = self.root / "run.json"
        self.state_json = self.root / "state.json"
        self.summary_json = self.root / "run_summary.json"
        self.lock_path = self.root / ".orchestrator.lock"

    def ensure(self) -> None:
        self.staging.mkdir(parents=True, exist_ok=True)

    def final_dir(self, conv: str) -> Path:
        return self.records / conv

    def failed_dir(self, conv: str, attempt: int) -> Path:
        return self.records / f"{conv}_failed_attempt_{attempt}"

    def new_stage(self, conv: str, attempt: int) -> Path:
        """A unique folder per try, so an orphaned writer can never touch a redo."""
        return self.staging / f"{conv}.a{attempt}.{uuid.uuid4().hex[:8]}"

    def clean_staging(self) -> int:
        """Delete partial attempts left by a killed run; returns how many.

        A worker orphaned by a ``kill -9`` of the orchestrator exits on its own within a
        fraction of a second, but it could still recreate its folder meanwhile; so its
        process group is killed first (by the pid it left, checked against its command
        line so a recycled pid is never touched).
        """
        if not self.staging.is_dir():
            return 0
        n = 0
        for p in self.staging.iterdir():
            _kill_orphan(p)
            shutil.rmtree(p, ignore_errors=True)
            n += 1
        return n

    def scan(self) -> dict[str, ConversationState]:
        """Read every conversation's state from the records folder."""
        states: dict[str, ConversationState] = {}
        if not self.records.is_dir():
            return states
        damaged: list[Path] = []
        for p in self.records.iterdir():
            if not p.is_dir() or p.name.startswith("."):
                continue
            status = _read_status(p)
            m = FAILED_RE.match(p.name)
            if m:
                st = states.setdefault(m["conv"], ConversationState())
                st.failed[int(m["n"])] = status or "infra_failure"
            elif status in FINAL_STATUSES:
                states.setdefault(p.name, ConversationState()).final_status = status
            elif (p / "job.json").is_file() or (p / "record.json").exists():
                damaged.append(p)  # ours, damaged after its commit (disk, a person, a tool)
            else:
                shutil.rmtree(p, ignore_errors=True)  # not an attempt folder of ours
        for p in damaged:
            st = states.setdefault(p.name, ConversationState())
            n = st.next_attempt
            self._set_aside(p, n)
            st.failed[n] = "infra_failure"
        return states

    def _set_aside(self, final: Path, attempt: int) -> None:
        """Keep a committed attempt whose record.json is unreadable as a failed attempt that
        says so (the damaged file kept beside it), so the redo is counted and named."""
        path = final / "record.json"
        why = _unreadable(path)
        if path.exists():
            os.replace(path, final / "record.json.damaged")
        fields = _fields_from_job(final, final.name, attempt)
        rec = ConversationRecord(
            **fields,
            status="infra_failure",
            error=f"record.json unreadable at resume ({why}); the conversation is redone",
            error_source="resume",
        )
        atomic_write_json(path, rec)
        att = _json_or_empty(final / "attempt.json")
        att.update(status="infra_failure", cause=rec.error)
        att["fault"] = {"class": "infrastructure", "meaning": "record found damaged at resume",
                        "cause": rec.error, "source": "resume"}  # fmt: skip
        atomic_write_json(final / "attempt.json", att)
        os.replace(final, self.failed_dir(final.name, attempt))

    def commit(self, stage: Path, conv: str) -> Path:
        """Make `stage` the conversation's final attempt (one rename: all or nothing)."""
        dest = self.final_dir(conv)
        if dest.exists():
            shutil.rmtree(dest)
        os.replace(stage, dest)
        return dest

    def archive(self, stage: Path, conv: str, attempt: int) -> Path:
        dest = self.failed_dir(conv, attempt)
        if dest.exists():
            shutil.rmtree(dest)
        os.replace(stage, dest)
        return dest


def _kill_orphan(stage: Path) -> None:
    try:
        pid = int((stage / "worker.pid").read_text(encoding="utf-8"))
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return  # no pid, already gone, or not on this machine
    if str(stage).encode() in cmdline:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)


def _read_status(p: Path) -> str | None:
    try:
        raw = json.loads((p / "record.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    status = raw.get("status")
    return status if isinstance(status, str) else None


def mark_record(
    stage: Path, job_fields: dict[str, Any], status: str, error: str | None, error_source: str | None
) -> None:
    """Set the outcome on an attempt's record.json, writing a minimal one if the fn died first.

    Every kept attempt then says why it failed, in the same schema eval reads.
    """
    path = stage / "record.json"
    rec: ConversationRecord | None = None
    if path.is_file():
        try:
            rec = ConversationRecord.model_validate_json(path.read_text(encoding="utf-8"))
        except ValueError:
            rec = None
    if rec is None:
        rec = ConversationRecord(**job_fields)
    update: dict[str, Any] = {"status": status}
    if error is not None:
        update.update(error=error, error_source=error_source)
    atomic_write_json(path, rec.model_copy(update=update))


def _unreadable(path: Path) -> str:
    try:
        ConversationRecord.model_validate_json(path.read_bytes())
    except OSError as exc:
        return f"{type(exc).__name__}: {exc.strerror or exc}"
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ())) or "record"
        return f"not a record: {where}: {err.get('msg', '')}"[:200]
    except ValueError as exc:
        return f"not a record: {str(exc).splitlines()[0][:160]}"
    return "no final status"


def _fields_from_job(folder: Path, conv: str, attempt: int) -> dict[str, Any]:
    """The coordinates of an attempt folder, from its job.json (or its folder name)."""
    try:
        ref = json.loads((folder / "job.json").read_text(encoding="utf-8"))["spec"]["conversation"]
        keys = ("domain", "scenario_id", "trial", "condition", "lang")
        return {"conversation_id": conv, "attempt": attempt, **{k: ref[k] for k in keys if k in ref}}
    except (OSError, ValueError, KeyError, TypeError):
        parts = conv.split("__")
        domain, sid = [*parts, "", ""][:2]
        return {"conversation_id": conv, "domain": domain, "scenario_id": sid, "attempt": attempt}


def _json_or_empty(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
