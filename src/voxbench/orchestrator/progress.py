"""Live counters and a rich display of them (done / running / failed / regenerated, ETA)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table


@dataclass(frozen=True)
class Stage:
    """A running conversation's current step and when (monotonic seconds) it began."""

    text: str
    since: float


@dataclass
class RunStats:
    """In-memory counters for display only; the summary is recomputed from disk."""

    planned: int = 0
    already_done: int = 0
    completed: int = 0
    validation_failed: int = 0
    infra_failed: int = 0
    running: int = 0
    regenerated: int = 0
    infra_retried: int = 0
    started: float = field(default_factory=time.monotonic)
    finished_this_session: int = 0
    #: conversation id -> what that running attempt is doing now (``orchestrator/stages.py``)
    stages: dict[str, Stage] = field(default_factory=dict)

    @property
    def done(self) -> int:
        return self.completed + self.validation_failed + self.infra_failed

    def eta_s(self) -> float | None:
        """Remaining conversations at this session's rate (None until one has finished)."""
        if self.finished_this_session == 0:
            return None
        rate = self.finished_this_session / max(1e-9, time.monotonic() - self.started)
        return (self.planned - self.done) / rate

    def as_dict(self) -> dict[str, Any]:
        return {
            "planned": self.planned,
            "done": self.done,
            "already_done": self.already_done,
            "completed": self.completed,
            "validation_failed": self.validation_failed,
            "infra_failed": self.infra_failed,
            "running": self.running,
            "regenerated": self.regenerated,
            "infra_retried": self.infra_retried,
        }


class ProgressSink(Protocol):
    def start(self) -> None: ...

    def update(self, stats: RunStats) -> None: ...

    def stop(self) -> None: ...


class NullProgress:
    def start(self) -> None:
        pass

    def update(self, stats: RunStats) -> None:
        pass

    def stop(self) -> None:
        pass


def _fmt_eta(s: float | None) -> str:
    if s is None:
        return "–"
    s = int(s)
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


class RichProgress:
    """A one-table live view; redraws at most 4x a second, whatever the event rate."""

    def __init__(self, run_id: str, console: Console | None = None):
        self.run_id = run_id
        self.console = console or Console(stderr=True)
        self._live = Live(console=self.console, refresh_per_second=4, transient=False)

    def _table(self, s: RunStats) -> Table:
        t = Table(title=f"voxbench run {self.run_id}", show_header=True, header_style="bold")
        for col in (
            "done",
            "running",
            "completed",
            "invalid",
            "infra failed",
            "regenerated",
            "infra retried",
            "valid",
            "ETA",
        ):
            t.add_column(col, justify="right")
        rate = f"{s.completed / s.done:.0%}" if s.done else "–"
        t.add_row(
            f"{s.done}/{s.planned}",
            str(s.running),
            str(s.completed),
            str(s.validation_failed),
            str(s.infra_failed),
            str(s.regenerated),
            str(s.infra_retried),
            rate,
            _fmt_eta(s.eta_s()),
        )
        return t

    def start(self) -> None:
        self._live.start()

    def update(self, stats: RunStats) -> None:
        now = time.monotonic()
        steps = [
            f"  {cid}: {st.text} ({_fmt_eta(now - st.since)})" for cid, st in sorted(stats.stages.items())
        ]
        self._live.update(Group(self._table(stats), *steps) if steps else self._table(stats))

    def stop(self) -> None:
        self._live.stop()


class LineProgress:
    """Plain lines for a log or a pipe (no TTY): one line whenever a counter changes, one
    whenever a running conversation starts a new step, and a "still" line when a step has
    printed nothing for ``heartbeat_s``.

    A live run spends minutes with nothing finished (each worker loads its models and warms
    its LLM before its call starts); saying which step each conversation is in keeps a piped
    `make run` from looking hung without redrawing anything.
    """

    def __init__(
        self,
        run_id: str,
        write: Callable[[str], None] | None = None,
        heartbeat_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.run_id = run_id
        self._write: Callable[[str], None] = write or _to_stderr
        self._last: tuple[int, ...] | None = None
        self._steps: dict[str, Stage] = {}
        self.heartbeat_s, self.clock = heartbeat_s, clock
        self._said = clock()

    def start(self) -> None:
        self._say(f"voxbench run {self.run_id}: starting")

    def _say(self, line: str) -> None:
        self._said = self.clock()
        self._write(line)

    def update(self, stats: RunStats) -> None:
        key = (stats.done, stats.running, stats.regenerated, stats.infra_retried, stats.planned)
        if key != self._last:
            self._last = key
            self._say(line_for(stats))
        for cid, st in sorted(stats.stages.items()):
            if self._steps.get(cid) != st:
                self._steps[cid] = st
                self._say(f"  {cid}: {st.text}")
        self._steps = {c: s for c, s in self._steps.items() if c in stats.stages}
        now = self.clock()
        if self._steps and now - self._said >= self.heartbeat_s:
            for cid, st in sorted(self._steps.items()):
                self._say(f"  {cid}: still {st.text} ({_fmt_eta(now - st.since)})")

    def stop(self) -> None:
        pass


def line_for(s: RunStats) -> str:
    """``2/6 done (2 completed, 0 invalid, 0 infra-failed), 2 running, ETA 4m10s``."""
    parts = [
        f"{s.done}/{s.planned} done ({s.completed} completed, {s.validation_failed} invalid, "
        f"{s.infra_failed} infra-failed)",
        f"{s.running} running",
    ]
    if s.regenerated or s.infra_retried:
        parts.append(f"{s.regenerated} regenerated, {s.infra_retried} infra retries")
    if s.done < s.planned:
        parts.append(f"ETA {_fmt_eta(s.eta_s())}")
    return ", ".join(parts)


class CountProgress:
    """Progress of a fixed number of items done one by one outside the orchestrator
    (`selftest`'s calls, `eval`'s records): a start line, then ``[done/total] <what>, ETA``.

    ``every``: write one line per that many items (and always the last), so a
    100,000-record scoring prints a few dozen lines, not one per record."""

    def __init__(
        self,
        label: str,
        total: int,
        write: Callable[[str], None] | None = None,
        every: int = 1,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.label, self.total, self.every, self.clock = label, total, max(1, every), clock
        self._write: Callable[[str], None] = write or _to_stderr
        self.done = 0
        self._t0 = clock()

    def start(self, what: str) -> None:
        self._t0 = self.clock()
        self._write(f"{self.label}: {self.total} {what}")

    def advance(self, n: int = 1, text: str = "") -> None:
        """``n`` more items done; ``text`` says what the last one was (may be empty)."""
        before, self.done = self.done, min(self.total, self.done + n)
        if self.done // self.every == before // self.every and self.done < self.total:
            return
        line = f"[{self.done}/{self.total}]" + (f" {text}" if text else "")
        if self.done < self.total:
            rate = self.done / max(1e-9, self.clock() - self._t0)
            line += f", ETA {_fmt_eta((self.total - self.done) / rate if rate > 0 else None)}"
        self._write(line)


class ScoringProgress:
    """Scoring's progress (``voxbench eval``, and `run`/`experiment` after their calls): a line
    saying how many records, then about ``lines`` ``[done/total] records scored, ETA`` lines.
    Runs under ``min_records`` say nothing (they score in seconds). Its ``found`` and
    ``scored`` are ``score_run``'s ``on_found`` / ``on_scored``."""

    def __init__(
        self,
        label: str,
        min_records: int = 1,
        lines: int = 20,
        write: Callable[[str], None] | None = None,
    ):
        self.label, self.min_records, self.lines, self.write = label, min_records, lines, write
        self.count: CountProgress | None = None

    def found(self, total: int) -> None:
        if total < self.min_records:
            return
        every = -(-total // self.lines)
        self.count = CountProgress(self.label, total, write=self.write, every=every)
        self.count.start("records to score")

    def scored(self, n: int) -> None:
        if self.count is not None:
            self.count.advance(n, "records scored")


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
