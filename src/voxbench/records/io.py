"""Reading and writing record directories, atomically.

A conversation directory holds::

    record.json        ConversationRecord (schema_version first)
    events.jsonl       typed events, one per line, on one clock
    scenario.json      the culture-resolved scenario (goal, expected db, ...) so eval
                       needs nothing but this folder
    agent.json         the agent spec (policy, tool schemas) the agent ran with
    initial_db.json, final_db.json
    user.wav, agent.wav, mix.wav (stereo: left user, right agent)
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pydantic_core

from voxbench.records.events import Event, parse_event
from voxbench.records.models import ConversationRecord, check_schema_version
from voxbench.records.secrets import mask


def loads_json(text: str) -> Any:
    """`json.loads(text)`, parsed by pydantic-core's Rust parser (2-3x faster on large logs;
    the same values: a text it rejects, e.g. a lone surrogate escape, goes to json.loads,
    which then parses it or raises its own error)."""
    try:
        return pydantic_core.from_json(text)
    except ValueError:
        return json.loads(text)


def read_json(path: str | Path) -> Any:
    """`json.loads(path.read_text(encoding="utf-8"))`, without decoding the text first when
    the bytes parse (invalid UTF-8 or JSON goes the stdlib way and raises its error)."""
    return _parse_json(Path(path).read_bytes())


_TMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def atomic_write_bytes(path: str | Path, data: bytes, *, durable: bool = True) -> None:
    """Write to a temp file beside `path`, fsync, then rename: readers never see half a file.

    `durable=False` skips the fsync (still atomic for readers) for files derived from
    others that a rerun rewrites, e.g. eval's per-record metrics.json: the fsync was a
    large share of scoring a record. The temp file is named after this process and thread
    (`.<name>.<pid>.<thread>.tmp`: no other live writer uses that name) and written with
    `os.write`, not made by `tempfile.mkstemp` and written through a file object: that was
    about a tenth of scoring a synthetic record (issue 18). Mode 0600, as mkstemp's."""
    path = Path(path)
    folder = os.fspath(path.parent)
    tmp = os.path.join(folder, f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        fd = os.open(tmp, _TMP_FLAGS, 0o600)
    except FileNotFoundError:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(tmp, _TMP_FLAGS, 0o600)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_json(path: str | Path, obj: Any) -> None:
    """JSON with sorted keys off (schema_version stays first), UTF-8, atomically."""
    if hasattr(obj, "model_dump"):
        obj = obj.model_dump(mode="json")
    text = json.dumps(obj, indent=2, ensure_ascii=False, default=str)
    atomic_write_bytes(path, mask(text).encode("utf-8"))  # no secret read by this process


class EventWriter:
    """Appends events to `events.jsonl` as they happen (flushed per line).

    Written live, then atomically rewritten sorted by time at close, so a crash keeps
    everything up to the crash and a finished record is ordered.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._f: IO[str] | None = self.path.open("a", encoding="utf-8")
        self.events: list[Event] = []

    def write(self, event: Event) -> None:
        self.events.append(event)
        if self._f is not None:
            self._f.write(mask(event.model_dump_json()) + "\n")
            self._f.flush()

    def close(self) -> None:
        if self._f is None:
            return
        self._f.close()
        self._f = None
        ordered = sorted(self.events, key=lambda e: e.t)
        lines = "".join(e.model_dump_json() + "\n" for e in ordered)
        atomic_write_bytes(self.path, mask(lines).encode("utf-8"))


@dataclass
class JsonlLines:
    """The parsed lines of a JSONL log, and its torn last line if the writer was killed."""

    rows: list[Any]
    torn_tail: str | None = None


def read_jsonl(path: str | Path, parse: Any = loads_json) -> JsonlLines:
    """Parse every non-blank line with `parse`. A last line that does not parse is what a
    writer killed mid-line leaves: it is returned as `torn_tail` and the rest is kept. A bad
    line anywhere else is corruption, not a torn write, and raises with its line number."""
    return parse_jsonl(Path(path).read_text(encoding="utf-8"), path, parse)


def parse_jsonl(text: str, path: str | Path, parse: Any = loads_json) -> JsonlLines:
    """`read_jsonl` on the text of `path`, already read."""
    lines = [(n, ln) for n, ln in enumerate(text.splitlines(), 1) if ln.strip()]
    out: list[Any] = []
    for i, (n, line) in enumerate(lines):
        try:
            out.append(parse(line))
        except ValueError as exc:
            if i == len(lines) - 1:
                return JsonlLines(out, torn_tail=line)
            raise ValueError(f"{path}:{n}: bad line: {exc}") from exc
    return JsonlLines(out)


def read_events(path: str | Path) -> list[Event]:
    """The events of `events.jsonl`; a torn last line (killed writer) is dropped."""
    return list(read_jsonl(path, parse_event).rows)


@dataclass
class RecordBundle:
    """Everything eval reads from one conversation directory."""

    path: Path
    record: ConversationRecord
    events: list[Event]
    scenario: dict[str, Any] = field(default_factory=dict)
    agent: dict[str, Any] = field(default_factory=dict)
    initial_db: dict[str, Any] | None = None
    final_db: dict[str, Any] | None = None
    torn_logs: dict[str, str] = field(default_factory=dict)
    """Log file name -> its torn last line, dropped on reading (the writer was killed)."""

    def audio_path(self, which: str) -> Path | None:
        if self.record.audio is None:
            return None
        rel = getattr(self.record.audio, which, None)
        return self.path / rel if rel else None


def _read_opt(path: str) -> bytes | None:
    """The bytes of a file, None when there is no file there (`Path.is_file()` false)."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def _parse_json(data: bytes) -> Any:
    """`read_json` on bytes already read."""
    try:
        return pydantic_core.from_json(data)
    except ValueError:
        return json.loads(data.decode("utf-8"))


def _json_opt(path: str) -> Any:
    data = _read_opt(path)
    return None if data is None else _parse_json(data)


def read_record(path: str | Path) -> RecordBundle:
    """Load a conversation directory; unknown schema versions raise `UnknownSchemaVersion`.

    Each file is opened once (no `is_file()` check first) with string paths: reading the
    six small files of a record with pathlib cost about as much as parsing them."""
    path = Path(path)
    base = os.fspath(path) + os.sep
    data = _read_opt(base + "record.json")
    if data is None:
        raise FileNotFoundError(f"{path} is not a voxbench record (no record.json)")
    raw = _parse_json(data)
    check_schema_version(raw.get("schema_version"), base + "record.json")
    record = ConversationRecord.model_validate(raw)
    ev = _read_opt(base + "events.jsonl")
    lines = (
        parse_jsonl(ev.decode("utf-8"), base + "events.jsonl", parse_event)
        if ev is not None
        else JsonlLines([])
    )
    return RecordBundle(
        path=path,
        record=record,
        events=list(lines.rows),
        torn_logs={"events.jsonl": lines.torn_tail} if lines.torn_tail is not None else {},
        scenario=_json_opt(base + "scenario.json") or {},
        agent=_json_opt(base + "agent.json") or {},
        initial_db=_json_opt(base + "initial_db.json"),
        final_db=_json_opt(base + "final_db.json"),
    )


def write_record(
    path: str | Path,
    record: ConversationRecord,
    events: list[Event] | None = None,
    scenario: dict[str, Any] | None = None,
    agent: dict[str, Any] | None = None,
    initial_db: dict[str, Any] | None = None,
    final_db: dict[str, Any] | None = None,
) -> Path:
    """Write a whole record directory (files atomically; `record.json` last, as the commit mark)."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    if events is not None:
        ordered = sorted(events, key=lambda e: e.t)
        lines = "".join(e.model_dump_json() + "\n" for e in ordered)
        atomic_write_bytes(path / "events.jsonl", mask(lines).encode())
    for name, obj in (("scenario.json", scenario), ("agent.json", agent)):
        if obj is not None:
            atomic_write_json(path / name, obj)
    for name, db in (("initial_db.json", initial_db), ("final_db.json", final_db)):
        if db is not None:
            atomic_write_bytes(
                path / name, json.dumps(db, sort_keys=True, indent=2, ensure_ascii=False).encode()
            )
    atomic_write_json(path / "record.json", record)
    return path
