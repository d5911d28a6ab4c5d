"""What a person sees while `voxbench call` / `talk` / `run` work: a line per turn, quiet logs,
and a line per change of a run's counters when stderr is not a terminal."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from loguru import logger

from voxbench.cli.call_progress import CallProgress, log_to_record, quiet_stderr
from voxbench.orchestrator.progress import LineProgress, RunStats
from voxbench.records import EventWriter
from voxbench.records.events import (
    ConnectionEvent,
    EndEvent,
    ToolCall,
    ToolResult,
    TTSText,
    Utterance,
    VADEvent,
)

EVENTS = [
    ConnectionEvent(t=0.1, side="user", state="connected"),
    TTSText(t=0.5, side="agent", channel="agent", text="Hello!"),
    TTSText(t=0.9, side="agent", channel="agent", text="How can I help?"),
    VADEvent(t=2.0, side="agent", channel="user", state="start"),
    Utterance(t=2.0, side="user", channel="user", text="Cancel order ORD-4821, please."),
    ToolCall(t=6.0, side="agent", call_id="c1", name="find_order", arguments={"order_id": "ORD-4821"}),
    ToolResult(t=6.1, side="agent", call_id="c1", name="find_order", status="success", result={}),
    TTSText(t=6.5, side="agent", channel="agent", text="Found it."),
]


def test_one_line_per_turn_while_the_file_grows_and_none_twice_after_the_rewrite(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    lines: list[str] = []
    progress = CallProgress(path, lines.append)
    progress.poll()  # no file yet: nothing, no error
    writer = EventWriter(path)
    for ev in EVENTS[:5]:
        writer.write(ev)
    progress.poll()
    # the agent's two sentences are one line, written when the caller's line arrives
    assert [ln.split(None, 2)[1:] for ln in lines] == [
        ["call", "connected: the caller is on the line"],
        ["agent", "Hello! How can I help?"],
        ["caller", "Cancel order ORD-4821, please."],
    ]
    for ev in [*EVENTS[5:], EndEvent(t=9.0, reason="trace_finished")]:
        writer.write(ev)
    writer.close()  # rewritten sorted: a new file, the same lines
    progress.poll_final()
    assert [ln.split(None, 2)[1:] for ln in lines[3:]] == [
        ["tool", "find_order(order_id=ORD-4821) -> success"],
        ["agent", "Found it."],
        ["end", "trace_finished"],
    ]
    assert lines[0].startswith("    0.1s")


def test_a_torn_last_line_waits_for_its_end(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    line = Utterance(t=1.0, side="user", channel="user", text="Hi.").model_dump_json()
    path.write_text(line[:10])
    out: list[str] = []
    progress = CallProgress(path, out.append)
    progress.poll()
    assert out == []
    with path.open("a") as f:
        f.write(line[10:] + "\n")
    progress.poll()
    assert len(out) == 1 and out[0].endswith("caller Hi.")


def test_quiet_stderr_shows_errors_only_and_the_record_log_keeps_everything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quiet_stderr(verbose=False)
    with log_to_record(tmp_path) as log:
        logger.debug("frame linked")
        logger.error("agent pipeline failed")
    logger.debug("after the call")
    err = capsys.readouterr().err
    assert "agent pipeline failed" in err and "frame linked" not in err
    text = log.read_text()
    assert "frame linked" in text and "agent pipeline failed" in text and "after the call" not in text
    quiet_stderr(verbose=True)
    logger.debug("now shown")
    assert "now shown" in capsys.readouterr().err


def test_asyncio_teardown_errors_go_to_the_record_log_not_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """asyncio's "error occurred during closing of asynchronous generator" after an
    interrupted LLM reply: kept in call.log, shown on stderr only with -v."""
    asyncio_log = logging.getLogger("asyncio")
    saved = (list(asyncio_log.handlers), asyncio_log.propagate)
    try:
        quiet_stderr(verbose=False)
        with log_to_record(tmp_path) as log:
            try:
                raise RuntimeError("aclose(): asynchronous generator is already running")
            except RuntimeError:
                asyncio_log.error("an error occurred during closing of asynchronous generator", exc_info=True)
        assert "closing of asynchronous generator" not in capsys.readouterr().err
        text = log.read_text()
        assert "closing of asynchronous generator" in text and "already running" in text
        quiet_stderr(verbose=True)
        asyncio_log.error("shown with -v")
        assert "shown with -v" in capsys.readouterr().err
    finally:
        asyncio_log.handlers, asyncio_log.propagate = saved


def test_line_progress_writes_a_line_only_when_a_counter_changes() -> None:
    out: list[str] = []
    p = LineProgress("r1", out.append)
    p.start()
    s = RunStats(planned=3, running=2)
    p.update(s)
    p.update(s)
    s.running, s.completed = 1, 1
    p.update(s)
    assert out[0] == "voxbench run r1: starting"
    assert out[1].startswith("0/3 done (0 completed, 0 invalid, 0 infra-failed), 2 running, ETA")
    assert out[2].startswith("1/3 done (1 completed") and len(out) == 3
