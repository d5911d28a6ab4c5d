"""Helpers for orchestrator tests: a run config with injected faults, and a CLI runner."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]


def fault_config(out: Path, count_file: Path, duration_s: float = 0.3, **over: Any) -> dict[str, Any]:
    """Built-in data (3 scenarios) x k=3, one invalid simulation and one agent crash injected."""
    cfg: dict[str, Any] = {
        "out": str(out),
        "trials": 3,
        "concurrency": 2,
        "time_limit_s": 30,
        "hang_grace_s": 5,
        "score": False,
        "validation": {"validator": "builtin"},
        "agent": {
            "profile": "scripted",
            "duration_s": duration_s,
            "count_file": str(count_file),
            "faults": [{"scenario_id": "bb.3", "trial": 2, "attempt": 0, "fault": "crash"}],
        },
        "simulator": {
            "faults": [{"scenario_id": "bb.2", "trial": 1, "attempt": 0, "fault": "invalid"}],
        },
    }
    cfg.update(over)
    return cfg


def write_config(path: Path, cfg: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(cfg), encoding="utf-8")
    return path


def cli(config: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "voxbench.cli.main",
        "run",
        "--config",
        str(config),
        "--no-progress",
        *extra,
    ]


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith("VOXBENCH_") or k == "VOXBENCH_EVA_DATA"}
    e["PYTHONPATH"] = str(REPO / "src")
    # The Ray tests start their own loopback head. Ray >= 2.5x turns token auth on when a
    # ~/.ray/auth_token exists (any local ray.init() on the machine writes one), and the
    # test's head and its clients would then disagree on it.
    e.setdefault("RAY_AUTH_MODE", "disabled")
    return e


def final_dirs(out: Path) -> list[Path]:
    rec = out / "records"
    if not rec.is_dir():
        return []
    return [
        p
        for p in rec.iterdir()
        if not p.name.startswith(".") and "_failed_attempt_" not in p.name and (p / "record.json").is_file()
    ]


def run_to_end(cmd: list[str], timeout_s: float = 300.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, env=env(), capture_output=True, text=True, timeout=timeout_s)


def check_done_when(out: Path, count_file: Path, before: dict[str, float]) -> dict[str, Any]:
    """The issue's acceptance checks on a finished run folder; returns the summary."""
    import json
    from collections import Counter

    summary = json.loads((out / "run_summary.json").read_text())
    assert summary["planned"] == 9
    assert summary["completed"] == 9, summary
    assert summary["not_run"] == 0
    assert summary["regenerated"] == 1  # the injected invalid simulation
    assert summary["conversations_regenerated"] == 1
    assert summary["validation_failures"] == 1
    assert summary["validation_failed"] == 0
    assert summary["infra_retried"] == 1  # the injected agent crash
    assert summary["infra_failures"] == 1
    assert summary["infra_failed"] == 0
    assert summary["attempts"] == 11
    assert summary["infra_failure_causes"] == {"crash": 1}
    (detail,) = summary["infra_failure_details"]
    assert detail["conversation_id"] == "airline__bb.3__t2__clean"
    assert "SIGKILL" in detail["error"]
    rec = out / "records"
    assert (rec / "airline__bb.2__t1__clean_failed_attempt_0").is_dir()
    assert (rec / "airline__bb.3__t2__clean_failed_attempt_0").is_dir()
    assert not list((rec / ".staging").iterdir())
    # Nothing finished before the kill was redone: same record.json, and one run each.
    runs = Counter(line.split()[0] for line in count_file.read_text().splitlines())
    for cid, mtime in before.items():
        assert (rec / cid / "record.json").stat().st_mtime == mtime, f"{cid} was rewritten"
        attempts = 1 + len(list(rec.glob(f"{cid}_failed_attempt_*")))
        assert runs[cid] == attempts, f"{cid} ran {runs[cid]} times for {attempts} attempts"
    return summary


def final_mtimes(out: Path) -> dict[str, float]:
    return {p.name: (p / "record.json").stat().st_mtime for p in final_dirs(out)}


def kill9_after(cmd: list[str], out: Path, n_final: int, timeout_s: float = 120.0) -> None:
    """Start the orchestrator, SIGKILL it once `n_final` conversations are final (mid-run)."""
    proc = subprocess.Popen(cmd, env=env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    t0 = time.monotonic()
    try:
        while len(final_dirs(out)) < n_final:
            if proc.poll() is not None:
                pytest.fail(
                    f"orchestrator ended before the kill: {proc.stdout.read().decode() if proc.stdout else ''}"
                )
            if time.monotonic() - t0 > timeout_s:
                pytest.fail("orchestrator made no progress")
            time.sleep(0.05)
        proc.kill()  # SIGKILL: no cleanup handlers run
    finally:
        proc.wait()
        if proc.stdout:
            proc.stdout.close()
    assert proc.returncode == -9
