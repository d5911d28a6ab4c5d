"""`voxbench eval` on a large run says how scoring goes, as `run` does: a start line, then
about 20 ``[done/total] records scored, ETA`` lines, in one process or several."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.eval.builders import small_conversation
from voxbench.cli.eval import PROGRESS_FROM, PROGRESS_LINES
from voxbench.cli.main import main
from voxbench.eval.parallel import fork_available
from voxbench.orchestrator.progress import CountProgress


def _run(root: Path, n: int) -> Path:
    run = root / "run"
    for i in range(n):
        conv = small_conversation()
        conv.scenario_id, conv.trial = f"1.1.{i}", 0
        conv.write(run / "conversations" / f"1.1.{i}" / "trial_0")
    return run


def _progress(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith(("voxbench eval:", "["))]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_large_run_prints_about_twenty_progress_lines(
    workers: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if workers == "2" and not fork_available():
        pytest.skip("no fork here: scoring stays in one process")
    n = 60
    run = _run(tmp_path, n)
    assert main(["eval", str(run), "--metrics", "conversation_valid_end", "--workers", workers]) == 0
    lines = _progress(capsys.readouterr().err)
    assert lines[0] == f"voxbench eval: {n} records to score"
    assert lines[-1] == f"[{n}/{n}] records scored"
    middle = lines[1:-1]
    assert 1 <= len(middle) < PROGRESS_LINES and all(", ETA " in line for line in middle), lines
    done = [int(line[1:].split("/")[0]) for line in lines[1:]]
    assert done == sorted(done) and len(set(done)) == len(done)


def test_a_small_run_or_no_progress_prints_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = _run(tmp_path, 3)
    assert PROGRESS_FROM > 3
    assert main(["eval", str(run), "--metrics", "conversation_valid_end"]) == 0
    assert _progress(capsys.readouterr().err) == []
    big = _run(tmp_path / "big", PROGRESS_FROM)
    assert main(["eval", str(big), "--metrics", "conversation_valid_end", "--no-progress"]) == 0
    assert _progress(capsys.readouterr().err) == []


def test_count_progress_writes_one_line_per_every_items_and_the_last() -> None:
    lines: list[str] = []
    ticks = iter(range(100))
    p = CountProgress("x", 10, write=lines.append, every=4, clock=lambda: float(next(ticks)))
    p.start("things")
    for _ in range(3):
        p.advance(1, "a")  # 1..3: nothing
    p.advance(3, "b")  # 6: crosses 4
    p.advance(4, "c")  # 10: the last, always
    assert lines[0] == "x: 10 things"
    assert lines[1].startswith("[6/10] b, ETA ") and lines[2] == "[10/10] c"
    assert len(lines) == 3
