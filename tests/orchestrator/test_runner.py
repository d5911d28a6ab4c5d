"""The attempt loop in process: budgets, final statuses, provenance, lock, Ctrl-C, CLI gates."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.orchestrator.conftest import cli, env, final_dirs, write_config
from voxbench.orchestrator import RunConfig, RunLocked, run_benchmark
from voxbench.orchestrator.backends import LocalBackend
from voxbench.orchestrator.runner import run_lock


def _cfg(tmp_path: Path, **over: Any) -> RunConfig:
    base: dict[str, Any] = {
        "out": str(tmp_path / "run"),
        "scenarios": ["bb.1"],
        "concurrency": 2,
        "score": False,
        "time_limit_s": 30,
        "hang_grace_s": 5,
        "validation": {"validator": "builtin", "max_attempts": 2},
        "max_infra_retries": 1,
    }
    base.update(over)
    return RunConfig.model_validate(base)


def test_clean_run_and_provenance(tmp_path: Path) -> None:
    res = run_benchmark(_cfg(tmp_path, scenarios=[], trials=2))
    s = res.summary
    assert (s["planned"], s["completed"], s["attempts"], s["regenerated"]) == (6, 6, 6, 0)
    manifest = json.loads((res.run_dir / "run.json").read_text())
    assert next(iter(manifest)) == "schema_version"
    assert manifest["voxbench_version"] and manifest["machine"]["cpu_count"]
    assert len(manifest["dataset"]["sha256"]) == 64 and manifest["dataset"]["builtin"] is True
    assert manifest["config"]["trials"] == 2
    assert len(manifest["seeds"]["conversations"]) == 6
    state = json.loads((res.run_dir / "state.json").read_text())
    assert state["status"] == "finished" and state["done"] == 6
    rec = json.loads((res.run_dir / "records" / "airline__bb.1__t1__clean" / "record.json").read_text())
    assert rec["seeds"]["conversation"] == manifest["seeds"]["conversations"]["airline__bb.1__t1__clean"]


def test_always_invalid_gives_up_after_max_attempts(tmp_path: Path) -> None:
    sim = {"faults": [{"scenario_id": "bb.1", "fault": "invalid"}]}
    s = run_benchmark(_cfg(tmp_path, simulator=sim)).summary
    assert (s["completed"], s["validation_failed"], s["regenerated"], s["validation_failures"]) == (
        0,
        1,
        1,
        2,
    )
    final = json.loads((tmp_path / "run/records/airline__bb.1__t0__clean/record.json").read_text())
    assert final["status"] == "invalid" and final["error_source"] == "validation"
    assert final["attempt"] == 1
    # Finished (with a failing status): a rerun does not redo it.
    again = run_benchmark(_cfg(tmp_path, simulator=sim)).summary
    assert again["attempts"] == 2 and again["session"]["attempts"] == 0


def test_always_crashing_is_an_infra_failure_not_an_agent_failure(tmp_path: Path) -> None:
    agent = {"profile": "scripted", "faults": [{"scenario_id": "bb.1", "fault": "crash"}]}
    s = run_benchmark(_cfg(tmp_path, agent=agent)).summary
    assert (s["completed"], s["infra_failed"], s["infra_retried"], s["validation_failures"]) == (0, 1, 1, 0)
    assert s["infra_failure_causes"] == {"crash": 2}
    final = json.loads((tmp_path / "run/records/airline__bb.1__t0__clean/record.json").read_text())
    assert final["status"] == "infra_failure" and "SIGKILL" in final["error"]


class HangClock:
    """The attempts' deadline clock, moved by what the workers did instead of by the machine.

    It reads 0 until attempt 0 has written its line to the count file (the scripted agent
    does that just before the injected hang, so the worker is then in its endless sleep) and
    an hour from then on: attempt 0 is killed at the first poll after it hung, attempt 1
    starts after the jump and sees no time pass however long a loaded machine takes to
    start it. No deadline races the machine's load.
    """

    JUMP_S = 3600.0

    def __init__(self, count_file: Path) -> None:
        self.count_file = count_file

    def __call__(self) -> float:
        lines = self.count_file.read_text().splitlines() if self.count_file.is_file() else []
        return self.JUMP_S if any(line.split()[1] == "0" for line in lines) else 0.0


def test_hang_then_recover(tmp_path: Path) -> None:
    count = tmp_path / "count.txt"
    fault = {"scenario_id": "bb.1", "attempt": 0, "fault": "hang"}
    cfg = _cfg(tmp_path, agent={"profile": "scripted", "count_file": str(count), "faults": [fault]})
    s = run_benchmark(cfg, backend=LocalBackend(cfg, clock=HangClock(count))).summary
    assert (s["completed"], s["infra_retried"], s["infra_failure_causes"]) == (1, 1, {"timeout": 1})
    hung = json.loads(
        (tmp_path / "run/records/airline__bb.1__t0__clean_failed_attempt_0/attempt.json").read_text()
    )
    assert hung["outcome"]["cause"] == "hang: no result after 35.0 s (time limit 30 s + grace 5 s)"
    assert (hung["outcome"]["error_source"], hung["outcome"]["process_s"]) == ("timeout", HangClock.JUMP_S)
    lines = [line.split() for line in count.read_text().splitlines()]
    assert [attempt for _, attempt, _ in lines] == ["0", "1"]
    hung_pid = int(lines[0][2])
    with pytest.raises(ProcessLookupError):  # killed with its process group, not left sleeping
        os.kill(hung_pid, 0)


def test_lock_refuses_a_second_orchestrator(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path)
    (tmp_path / "run").mkdir()
    with run_lock(tmp_path / "run" / ".orchestrator.lock"), pytest.raises(RunLocked):
        run_benchmark(cfg)


def test_ctrl_c_stops_cleanly_then_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cfg = write_config(
        tmp_path / "c.yaml",
        {
            "out": str(out),
            "trials": 3,
            "concurrency": 2,
            "score": False,
            "agent": {"profile": "scripted", "duration_s": 0.5},
        },
    )
    proc = subprocess.Popen(cli(cfg), env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.monotonic()
    while not final_dirs(out):
        assert proc.poll() is None and time.monotonic() - t0 < 60
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "resume" in err
    assert json.loads((out / "state.json").read_text())["status"] == "interrupted"
    assert not list((out / "records" / ".staging").iterdir())
    n_before = len(final_dirs(out))
    assert 1 <= n_before < 9
    done = subprocess.run(cli(cfg), env=env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "run_summary.json").read_text())["completed"] == 9


def test_cli_fail_under_sets_exit_code(tmp_path: Path) -> None:
    cfg = write_config(
        tmp_path / "c.yaml", {"out": str(tmp_path / "run"), "scenarios": ["bb.1"], "score": False}
    )
    ok = subprocess.run(
        cli(cfg, "--fail-under", "completed_rate=1"), env=env(), capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run(
        cli(cfg, "--fail-under", "infra_failures=1"), env=env(), capture_output=True, text=True
    )
    assert bad.returncode == 1 and "infra_failures=0 < 1" in bad.stderr
    typo = subprocess.run(
        cli(cfg, "--fail-under", "EVA-A_pass@1=0.5"), env=env(), capture_output=True, text=True
    )
    assert typo.returncode == 1 and "not in the summary" in typo.stderr


def test_eval_gate_regenerates_and_scoring_writes_metrics_summary(tmp_path: Path) -> None:
    pytest.importorskip("voxbench.eval.runner", reason="voxbench.eval is not installed")
    sim = {"faults": [{"scenario_id": "bb.1", "attempt": 0, "fault": "invalid"}]}
    res = run_benchmark(_cfg(tmp_path, simulator=sim, validation={"validator": "eval"}, score=True))
    s = res.summary
    assert s["validator"] == "eval"
    assert (s["completed"], s["regenerated"]) == (1, 1)
    assert (res.run_dir / "metrics_summary.json").is_file()
    assert s["metrics"]["total_records"] == 1  # the archived attempt is not scored
    failed = json.loads(
        (res.run_dir / "records/airline__bb.1__t0__clean_failed_attempt_0/record.json").read_text()
    )
    assert failed["status"] == "invalid" and failed["error"].startswith("not_finished")
