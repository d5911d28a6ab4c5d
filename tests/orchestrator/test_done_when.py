"""Issue 5's acceptance test on the local backend: faults, kill -9, resume, right counts."""

from __future__ import annotations

from pathlib import Path

from tests.orchestrator.conftest import (
    check_done_when,
    cli,
    fault_config,
    final_mtimes,
    kill9_after,
    run_to_end,
    write_config,
)


def test_faults_kill9_and_resume_count_right(tmp_path: Path) -> None:
    out, count = tmp_path / "run", tmp_path / "calls.log"
    cfg = write_config(tmp_path / "run.yaml", fault_config(out, count))
    kill9_after(cli(cfg), out, n_final=3)
    before = final_mtimes(out)
    assert 3 <= len(before) < 9, "the kill must land mid-run"
    done = run_to_end(cli(cfg))
    assert done.returncode == 0, done.stdout + done.stderr
    check_done_when(out, count, before)
    # A third invocation finds everything finished and runs nothing.
    lines = count.read_text().count("\n")
    again = run_to_end(cli(cfg))
    assert again.returncode == 0
    assert count.read_text().count("\n") == lines
