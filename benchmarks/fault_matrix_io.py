"""The fault matrix's plumbing: run configs, the scores compared, the run folder read back,
and the harness that kills a worker and the orchestrator (``benchmarks/fault_matrix.py``)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from voxbench.eval.from_record import load_context
from voxbench.eval.metrics_doc import metrics_json
from voxbench.eval.runner import score_context
from voxbench.eval.types import REGISTRY, EvalConfig
from voxbench.pipelines.call.selftest import selftest_call_config
from voxbench.records.stage import CALL_STAGE, read_stage

REPO = Path(__file__).resolve().parents[1]
LIVE_FAULTS = [
    "crash",
    "exception",
    "hang",
    "socket_drop",
    "tool_bad_json",
    "tool_unknown",
    "tool_wrong_type",
    "tool_raises",
]
RETRIED = {
    "crash",
    "socket_drop",
    "tts_fail",
    "worker_kill",
    "bad_record",
}  # faults whose redo must score the same
HARNESS = ["worker_kill", "torn_events", "bad_record"]


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith("VOXBENCH_")}
    e["PYTHONPATH"] = str(REPO / "src")
    return e


def live_config(out: Path, dataset: str | None, sids: list[str], trials: int, **over: Any) -> dict[str, Any]:
    cfg: dict[str, Any] = {
        "out": str(out),
        "dataset": dataset,
        "scenarios": sids,
        "trials": trials,
        "seed": over.pop("seed"),
        "concurrency": 4,
        "score": False,
        "time_limit_s": 120,
        "hang_grace_s": 120,
        "max_infra_retries": 2,
        "validation": {"validator": "builtin"},
        "conversation_fn": "live_virtual",
        "call": selftest_call_config("tone", 120).model_dump(mode="json"),
        "agent": {"profile": "reference", "voice": "tone", "faults": []},
        "simulator": {"kind": "trace", "voice": "tone", "faults": []},
    }
    cfg.update(over)
    return cfg


def code_scores(record_dir: Path) -> dict[str, Any]:
    """Every judge-free metric's score of one record (deterministic); details are evidence,
    not scores (a torn log line is named in them)."""
    ctx = load_context(record_dir)
    names = [n for n, spec in REGISTRY.items() if not spec.needs_judge]
    doc = metrics_json(score_context(ctx, EvalConfig(), names), ctx)
    keys = ("score", "normalized_score", "error", "skipped")
    return {n: {k: m.get(k) for k in keys} for n, m in json.loads(json.dumps(doc["metrics"])).items()}


def finals(out: Path) -> dict[str, Path]:
    rec = out / "records"
    if not rec.is_dir():
        return {}
    return {
        p.name: p
        for p in rec.iterdir()
        if not p.name.startswith(".") and "_failed_attempt_" not in p.name and (p / "record.json").is_file()
    }


def kept_failed(out: Path, cid: str) -> int:
    return len(list((out / "records").glob(f"{cid}_failed_attempt_*")))


def summary(out: Path) -> dict[str, Any]:
    return dict(json.loads((out / "run_summary.json").read_text(encoding="utf-8")))


class Harness:
    """Runs the faulted toy set through the CLI: kills one worker mid-call, then the
    orchestrator, damages two committed records, and resumes."""

    def __init__(self, cfg_path: Path, out: Path, worker_target: str, free: set[str]):
        self.cfg_path, self.out = cfg_path, out
        self.worker_target, self.free = worker_target, free
        self.worker_killed = False

    def ready_to_kill(self) -> bool:
        """The worker's kill is on record (its failed attempt kept, or already redone) and
        two unfaulted calls are committed (to tear and damage before the resume)."""
        done = finals(self.out)
        target = self.worker_target
        recorded = target == "-" or target in done or kept_failed(self.out, target) > 0
        return recorded and len(self.free & set(done)) >= min(2, len(self.free))

    def cmd(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "voxbench.cli.main",
            "run",
            "--config",
            str(self.cfg_path),
            "--no-progress",
        ]

    def _kill_worker(self) -> None:
        for stage in (self.out / "records" / ".staging").glob(f"{self.worker_target}.a0.*"):
            pid_file = stage / "worker.pid"
            if pid_file.is_file() and (read_stage(stage) or "").startswith(CALL_STAGE):
                try:
                    os.killpg(int(pid_file.read_text()), signal.SIGKILL)
                    self.worker_killed = True
                except (OSError, ValueError):
                    pass

    def run_killed(self, timeout_s: float = 1200) -> dict[str, tuple[int, int]]:
        """Start, kill the worker and then the orchestrator; the finals (inode, mtime) then."""
        proc = subprocess.Popen(self.cmd(), env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t0 = time.monotonic()
        while proc.poll() is None and time.monotonic() - t0 < timeout_s:
            if not self.worker_killed:
                self._kill_worker()
            if self.ready_to_kill():
                proc.send_signal(signal.SIGKILL)
                break
            time.sleep(0.2)
        proc.wait()
        return {c: record_ident(p) for c, p in finals(self.out).items()}

    def resume(self) -> int:
        return subprocess.run(self.cmd(), env=env(), capture_output=True, timeout=1800).returncode


def record_ident(p: Path) -> tuple[int, int]:
    st = (p / "record.json").stat()
    return st.st_ino, st.st_mtime_ns


def tear_events(record_dir: Path) -> None:
    with (record_dir / "events.jsonl").open("a", encoding="utf-8") as f:
        f.write('{"type": "utterance", "t": 9')  # a writer killed mid-line


def damage_record(record_dir: Path) -> None:
    p = record_dir / "record.json"
    p.write_bytes(p.read_bytes()[:40])  # truncated


def hold_ports(base: int, n: int) -> list[socket.socket]:
    """Another program on the backend's port range (what it must skip, not fail on)."""
    held = []
    for port in range(base, base + n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(("127.0.0.1", port))
            s.listen()
            held.append(s)
        except OSError:
            s.close()
    return held
