"""A run says what each running conversation is preparing, on a TTY and in a pipe alike.

A live attempt loads models and warms its LLM for minutes before its call; these tests check
that the step a worker notes reaches the run's display, that a piped display prints it once
and then a "still" line per heartbeat (a fake clock, no timing window), and that the hint
file does not stay in the committed record.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from tests.orchestrator.staged_scripted import STEP
from voxbench.cli.run import time_by_step_line
from voxbench.orchestrator import RunConfig, run_benchmark
from voxbench.orchestrator.progress import LineProgress, NullProgress, RichProgress, RunStats
from voxbench.orchestrator.stages import StageWatch
from voxbench.records.stage import STAGE_FILE, note_stage, read_stage


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_a_piped_run_prints_each_step_once_then_a_heartbeat(tmp_path: Path) -> None:
    clock, lines = FakeClock(), []
    stats = RunStats(planned=2, running=1)
    progress = LineProgress("r", lines.append, heartbeat_s=60.0, clock=clock)
    watch = StageWatch(stats, progress, clock)
    stage_dir = tmp_path / "a0"
    watch.begin("airline__bb.1__t0__clean", stage_dir)
    progress.start()
    assert not watch.poll()  # nothing noted yet
    note_stage(stage_dir, "starting the agent's local LLM (qwen2.5-coder-1.5b, llama.cpp)")
    assert watch.poll()
    progress.update(stats)
    clock.t += 30.0
    assert not watch.poll()
    progress.update(stats)  # same step, 30 s: no new line
    assert lines == [
        "voxbench run r: starting",
        "0/2 done (0 completed, 0 invalid, 0 infra-failed), 1 running, ETA –",
        "  airline__bb.1__t0__clean: starting the agent's local LLM (qwen2.5-coder-1.5b, llama.cpp)",
    ]
    clock.t += 31.0
    progress.update(stats)
    assert lines[-1] == (
        "  airline__bb.1__t0__clean: still starting the agent's local LLM "
        "(qwen2.5-coder-1.5b, llama.cpp) (1m01s)"
    )
    note_stage(stage_dir, "warming the agent's LLM on its policy and tools")
    watch.poll()
    progress.update(stats)
    assert lines[-1] == "  airline__bb.1__t0__clean: warming the agent's LLM on its policy and tools"
    watch.end("airline__bb.1__t0__clean")
    assert read_stage(stage_dir) is None and stats.stages == {}
    n = len(lines)
    clock.t += 600.0
    progress.update(stats)  # nothing running: no heartbeat
    assert len(lines) == n


def test_the_terminal_table_lists_each_running_step(tmp_path: Path) -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=False, width=120)
    stats = RunStats(planned=1, running=1)
    watch = StageWatch(stats, NullProgress())
    watch.begin("toy__t.1__t0__clean", tmp_path)
    note_stage(tmp_path, "loading the caller's models (trace caller)")
    watch.poll()
    rich = RichProgress("r", console)
    rich.start()
    rich.update(stats)
    rich.stop()
    assert "toy__t.1__t0__clean: loading the caller's models (trace caller)" in buf.getvalue()


class SeenSink(NullProgress):
    """Marks each conversation whose worker's step reached the display (the worker waits for it)."""

    def __init__(self, seen_dir: Path) -> None:
        self.seen_dir, self.steps = seen_dir, set()

    def update(self, stats: RunStats) -> None:
        for cid, st in stats.stages.items():
            self.steps.add((cid, st.text))
            if st.text == STEP:
                (self.seen_dir / f"{cid}.seen").touch()


def test_a_worker_step_reaches_the_run_display_and_its_summary_and_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VOXBENCH_TEST_SEEN_DIR", str(tmp_path))
    cfg = RunConfig.model_validate(
        {
            "out": str(tmp_path / "run"),
            "scenarios": ["bb.1"],
            "score": False,
            "time_limit_s": 60,
            "validation": {"validator": "builtin"},
            "conversation_fn": "tests.orchestrator.staged_scripted:staged_scripted",
        }
    )
    sink = SeenSink(tmp_path)
    res = run_benchmark(cfg, progress=sink)
    assert res.summary["completed"] == 1
    assert ("airline__bb.1__t0__clean", STEP) in sink.steps
    assert not list((res.run_dir / "records").rglob(STAGE_FILE))
    assert list(res.summary["session"]["time_by_step_s"]) == [STEP]  # where the time went


def test_time_by_step_sums_each_step_over_attempts_and_the_run_prints_it(tmp_path: Path) -> None:
    clock = FakeClock()
    stats = RunStats(planned=2, running=2)
    watch = StageWatch(stats, NullProgress(), clock)
    for cid in ("a", "b"):
        watch.begin(cid, tmp_path / cid)
        note_stage(tmp_path / cid, "starting the agent's local LLM (qwen2.5-coder-1.5b, llama.cpp)")
    watch.poll()
    clock.t += 10.0
    for cid in ("a", "b"):
        note_stage(tmp_path / cid, "warming the agent's LLM on its policy and tools")
    watch.poll()
    clock.t += 40.0
    note_stage(tmp_path / "a", "in the call")
    watch.poll()
    clock.t += 60.0
    watch.end("a")
    watch.end("b")
    assert watch.spent == {
        "starting the agent's local LLM": 20.0,
        "warming the agent's LLM on its policy and tools": 140.0,
        "in the call": 60.0,
    }
    line = time_by_step_line({"attempts": 2, "time_by_step_s": watch.spent})
    assert line == (
        "time by step (2 attempts): warming the agent's LLM on its policy and tools 140 s (64%), "
        "in the call 60 s (27%), starting the agent's local LLM 20 s (9%)"
    )
    assert time_by_step_line({"attempts": 1, "time_by_step_s": {}}) is None
