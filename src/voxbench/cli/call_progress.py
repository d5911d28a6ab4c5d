"""What a person running `voxbench call` / `voxbench talk` sees: quiet logs, a line per turn.

Pipecat logs every frame link, every LLM request (the caller's whole prompt included) at
DEBUG on stderr; a person watching a call wants who said what. So the full log goes to
``call.log`` in the record directory (nothing is lost; ``-v`` also shows it on stderr), and
the terminal gets one line per caller line, agent turn and tool call, read from
``events.jsonl`` as the recorder writes it: the record contract, nothing of the live half.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import traceback
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from voxbench.records.events import (
    ConnectionEvent,
    EndEvent,
    Event,
    ToolCall,
    ToolResult,
    TTSText,
    Utterance,
    parse_event,
)

LOG_FILE = "call.log"
T = TypeVar("T")


def quiet_stderr(verbose: bool) -> None:
    """stderr gets errors only, or everything with -v. Call before anything imports pipecat,
    so its start-up banner follows the same rule (and a bad argument fails in one line)."""
    from loguru import logger

    logger.remove()
    # whatever sys.stderr is when a line is logged (a test's capture may replace it)
    logger.add(_to_stderr, level="DEBUG" if verbose else "ERROR", filter=None if verbose else _not_asyncio)
    asyncio_log = logging.getLogger("asyncio")
    asyncio_log.handlers = [_AsyncioToLoguru()]
    asyncio_log.propagate = False


def _to_stderr(message: Any) -> None:
    sys.stderr.write(message)


def _not_asyncio(record: Any) -> bool:
    return ASYNCIO_KEY not in record["extra"]


ASYNCIO_KEY = "asyncio"


class _AsyncioToLoguru(logging.Handler):
    """asyncio's own log lines into the call's log (``call.log``), on stderr only with -v.

    At the loop's shutdown asyncio finalises the async generators an interrupted LLM reply
    left behind inside the OpenAI SDK and httpx (nested generators that closing the outer
    one does not close), and its handler printed "an error occurred during closing of
    asynchronous generator ... aclose(): asynchronous generator is already running" with a
    traceback after every call that had an interrupted reply: library teardown detail, not
    an error of the call, which has ended and been written by then. Kept in the log."""

    def emit(self, record: logging.LogRecord) -> None:
        from loguru import logger

        text = record.getMessage()
        if record.exc_info:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        logger.bind(**{ASYNCIO_KEY: True}).log(record.levelname, text)


@contextlib.contextmanager
def log_to_record(out_dir: Path) -> Iterator[Path]:
    """Everything, DEBUG included, to ``out_dir/call.log`` while the call runs."""
    from loguru import logger

    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / LOG_FILE
    handler = logger.add(path, level="DEBUG", mode="w")
    try:
        yield path
    finally:
        logger.remove(handler)


async def run_with_progress(
    run: Awaitable[T], events_path: Path, write: Callable[[str], None] | None = None
) -> T:
    """Await ``run`` (a call) while :class:`CallProgress` prints its turns."""
    progress = CallProgress(events_path, write)
    task = asyncio.create_task(progress.run())
    try:
        return await run
    finally:
        progress.done = True
        await task
        progress.poll_final()


class CallProgress:
    """Tails ``events.jsonl`` and writes one line per turn until ``done`` is set."""

    def __init__(self, events_path: Path, write: Callable[[str], None] | None = None):
        self.path = events_path
        self._write = write or (lambda s: print(s, flush=True))
        self._offset = 0
        self._inode: int | None = None
        self._partial = ""
        self._agent: list[str] = []
        self._agent_t = 0.0
        self._calls: dict[str, ToolCall] = {}
        self._seen: set[str] = set()
        self.done = False

    async def run(self, interval_s: float = 0.5) -> None:
        while not self.done:
            self.poll()
            await asyncio.sleep(interval_s)

    def poll(self) -> None:
        """Feed the complete lines not seen yet. The recorder rewrites the file sorted at the
        end of the call (a new inode): then it is read again from the start, and the lines
        already seen (the same JSON, byte for byte) are skipped."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return
        if st.st_ino != self._inode:
            self._inode, self._offset, self._partial = st.st_ino, 0, ""
        with self.path.open("r", encoding="utf-8") as f:
            f.seek(self._offset)
            chunk = f.read()
            self._offset = f.tell()
        lines = (self._partial + chunk).split("\n")
        self._partial = lines.pop()
        for line in lines:
            if line.strip() and line not in self._seen:
                self._seen.add(line)
                self.feed(parse_event(line))

    def poll_final(self) -> None:
        """After the call: whatever is left, and the agent's last turn."""
        self.poll()
        self.flush()

    def feed(self, ev: Event) -> None:
        if isinstance(ev, TTSText) and ev.channel == "agent":
            if not self._agent:
                self._agent_t = ev.t
            self._agent.append(ev.text.strip())
            return
        line = self._line(ev)
        if line is not None:
            self.flush()
            self._write(line)

    def flush(self) -> None:
        """The agent's turn so far, as one line (its sentences arrive one by one)."""
        if self._agent:
            self._write(_fmt(self._agent_t, "agent", " ".join(t for t in self._agent if t)))
            self._agent = []

    def _line(self, ev: Event) -> str | None:
        if isinstance(ev, Utterance) and ev.channel == "user":
            return _fmt(ev.t, "caller", ev.text)
        if isinstance(ev, ToolCall):
            self._calls[ev.call_id] = ev
            return None
        if isinstance(ev, ToolResult):
            return _fmt(ev.t, "tool", f"{_call_text(self._calls.get(ev.call_id), ev.name)} -> {ev.status}")
        if isinstance(ev, ConnectionEvent) and ev.side == "user" and ev.state == "connected":
            return _fmt(ev.t, "call", "connected: the caller is on the line")
        if isinstance(ev, EndEvent):
            return _fmt(ev.t, "end", ev.reason)
        return None


def _call_text(call: ToolCall | None, name: str) -> str:
    if call is None or not isinstance(call.arguments, dict):
        return f"{name}(…)"
    args = ", ".join(f"{k}={v}" for k, v in call.arguments.items())
    return f"{name}({args})"


def _fmt(t: float, who: str, text: str) -> str:
    text = " ".join(text.split())
    if len(text) > 160:
        text = text[:157] + "..."
    return f"{t:7.1f}s  {who:<6} {text}"
