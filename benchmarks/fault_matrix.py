"""Faults at scale: a 16-call run under every fault a benchmark meets, one row per fault.

Sixteen live calls (the reference agent and the trace caller, both with the model-free tone
voice, on the virtual clock: ``conversation_fn: live_virtual``): 8 on the toy scenarios (local
backend, concurrency 4, the orchestrator killed with SIGKILL mid-run and resumed) and 8 on the
built-in airline scenarios (Ray if installed, else local; concurrency 8; the backend's ports
taken by another program). A schedule seeded by ``--seed`` puts each fault on its own
conversation; the same 16 calls run once without faults (the same seed) for the scores. Two
small scripted (no-audio) runs add what needs no live audio: a dropped socket and a full disk
(a 1 MB tmpfs when ``mount`` is allowed, else the ENOSPC write hook), and a scenario with an
invalid field is run on a copy of the toy data.

Each row: the fault, where injected, its class and cause as the run recorded them, the
attempts retried, conversations lost (planned without a final record), redone needlessly (a
committed call rewritten, or an agent error retried), and whether the final scores (eval's
code metrics) equal the fault-free run's where the fault should not change them.

    nice -n 10 python benchmarks/fault_matrix.py --seed 7 [--calls 4] [--no-ray]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from voxbench.eval.from_record import load_context
from voxbench.eval.runner import metrics_json, score_context
from voxbench.eval.types import REGISTRY, EvalConfig
from voxbench.orchestrator import RunConfig, run_benchmark
from voxbench.pipelines.call.selftest import selftest_call_config
from voxbench.records.io import read_record
from voxbench.records.stage import CALL_STAGE, read_stage
from voxbench.scenarios.loader import toy_dataset_dir

REPO = Path(__file__).resolve().parents[1]
LIVE_FAULTS = [
    "crash",
    "exception",
    "hang",
    "tool_bad_json",
    "tool_unknown",
    "tool_wrong_type",
    "tool_raises",
]
RETRIED = {"crash", "tts_fail", "worker_kill", "bad_record"}  # faults whose redo must score the same
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
        return {c: _ident(p) for c, p in finals(self.out).items()}

    def resume(self) -> int:
        return subprocess.run(self.cmd(), env=env(), capture_output=True, timeout=1800).returncode


def _ident(p: Path) -> tuple[int, int]:
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


class Matrix:
    """The schedule, the runs and the rows."""

    def __init__(self, args: argparse.Namespace):
        self.args, self.root = args, Path(args.out)
        self.trials = max(1, args.calls // 4)
        self.rng = random.Random(args.seed)
        self.toy = [("ty.1", t) for t in range(self.trials)] + [("ty.2", t) for t in range(self.trials)]
        self.air = [("bb.1", t) for t in range(self.trials)] + [("bb.2", t) for t in range(self.trials)]
        self.rows: list[dict[str, Any]] = []
        self.plan: dict[str, tuple[str, str, int]] = {}  # fault -> (set, scenario, trial)

    def schedule(self) -> None:
        """Each fault on its own conversation; one per set stays unaffected."""
        toy, air = (
            self.rng.sample(self.toy, len(self.toy))[:-1],
            self.rng.sample(self.air, len(self.air))[:-1],
        )
        toy = toy[: max(0, len(toy) - 2)]  # two committed toy calls get torn / damaged at the kill
        if toy:
            self.plan["worker_kill"] = ("toy", *toy.pop(0))
        faults = [*LIVE_FAULTS, "tts_fail"]
        self.rng.shuffle(faults)
        for i, f in enumerate(faults):
            pool = (air, toy) if i % 2 == 0 else (toy, air)
            src = pool[0] if pool[0] else pool[1]
            if src:
                self.plan[f] = ("toy" if src is toy else "air", *src.pop(0))

    @staticmethod
    def cid(sset: str, sid: str, trial: int) -> str:
        return f"{'toy' if sset == 'toy' else 'airline'}__{sid}__t{trial}__clean"

    def config(self, sset: str, out: Path, faulted: bool) -> dict[str, Any]:
        sids = sorted({s for s, _ in (self.toy if sset == "toy" else self.air)})
        cfg = live_config(
            out, str(toy_dataset_dir()) if sset == "toy" else None, sids, self.trials, seed=self.args.seed
        )
        if sset == "air" and faulted:
            cfg.update(
                concurrency=8, backend="ray" if self.args.ray else "local", base_port=self.args.base_port
            )
        for f, (fset, sid, trial) in self.plan.items() if faulted else ():
            if fset != sset or f not in [*LIVE_FAULTS, "tts_fail"]:
                continue
            entry: dict[str, Any] = {"scenario_id": sid, "trial": trial, "fault": f}
            if f in RETRIED:
                entry["attempt"] = 0
            cfg["simulator" if f == "tts_fail" else "agent"]["faults"].append(entry)
        return cfg

    def run_all(self) -> None:
        self.schedule()
        base = {s: self.root / f"base_{s}" for s in ("toy", "air")}
        for s, out in base.items():
            run_benchmark(RunConfig.model_validate(self.config(s, out, faulted=False)))
        self.base_scores = {c: code_scores(p) for out in base.values() for c, p in finals(out).items()}
        self.run_air()
        self.run_toy()

    def run_air(self) -> None:
        out = self.root / "air"
        held = hold_ports(self.args.base_port, 16)
        try:
            run_benchmark(RunConfig.model_validate(self.config("air", out, faulted=True)))
        finally:
            for s in held:
                s.close()
        self.outs = {"air": out}
        self.port_row(out, len(held))

    def run_toy(self) -> None:
        out = self.root / "toy"
        cfg_path = self.root / "toy.yaml"
        cfg_path.write_text(yaml.safe_dump(self.config("toy", out, faulted=True)), encoding="utf-8")
        target = self.cid(*self.plan["worker_kill"]) if "worker_kill" in self.plan else "-"
        faulted = {self.cid(*v) for v in self.plan.values()}
        h = Harness(cfg_path, out, target, {self.cid("toy", *x) for x in self.toy} - faulted)
        before = h.run_killed()
        free = sorted(c for c in before if c not in faulted)
        picks = self.rng.sample(free, min(2, len(free)))
        if picks:
            tear_events(finals(out)[picks[0]])
            self.plan["torn_events"] = ("toy", *_coords(picks[0]))
        if len(picks) > 1:
            damage_record(finals(out)[picks[1]])
            self.plan["bad_record"] = ("toy", *_coords(picks[1]))
        code = h.resume()
        self.outs["toy"] = out
        after = {c: _ident(p) for c, p in finals(out).items()}
        rewritten = [c for c in before if after.get(c) != before[c] and c not in picks[1:]]
        planned = len(self.toy)
        self.rows.append(
            {
                "fault": "orchestrator SIGKILL + resume",
                "where": f"toy run, after {len(before)} committed",
                "injected": "yes",
                "class": f"resume exit {code}",
                "retried": "-",
                "lost": planned - len(after),
                "needless": len(rewritten),
                "scores": self.same([c for c in before if c not in faulted], out),
            }
        )

    def same(self, cids: list[str], out: Path) -> str:
        fin = finals(out)
        ok = sum(1 for c in cids if c in fin and code_scores(fin[c]) == self.base_scores.get(c))
        return f"{ok}/{len(cids)} equal"

    def port_row(self, out: Path, n_held: int) -> None:
        s = summary(out)
        self.rows.append(
            {
                "fault": "port already taken",
                "where": f"{n_held} of the backend's ports held",
                "injected": "yes" if n_held else "no",
                "class": "none needed (pool skips held ports)",
                "retried": "-",
                "lost": s["not_run"],
                "needless": "-",
                "scores": "-",
            }
        )

    def fault_rows(self) -> None:
        for f, (sset, sid, trial) in self.plan.items():
            out, cid = self.outs[sset], self.cid(sset, sid, trial)
            entries = [x for x in summary(out)["faults"] if x["conversation_id"] == cid]
            cls = "; ".join(f"{x['class']}/{x['source']}: {(x['cause'] or '')[:70]}" for x in entries[:1])
            if f == "torn_events" and cid in finals(out):
                torn = read_record(finals(out)[cid]).torn_logs
                cls = f"none needed: the reader drops the torn line ({', '.join(torn) or 'not seen'})"
            retried = kept_failed(out, cid)
            should_retry = f in RETRIED
            self.rows.append(
                {
                    "fault": f,
                    "where": cid,
                    "injected": "yes",
                    "class": cls or "none recorded",
                    "retried": retried,
                    "lost": 0 if cid in finals(out) else 1,
                    "needless": 0 if should_retry or f == "torn_events" else retried,
                    "scores": self.same([cid], out)
                    if (should_retry or f == "torn_events")
                    else "changes (agent's fault)",
                }
            )
        unaffected = [
            self.cid(s, sid, t)
            for s, slots in (("toy", self.toy), ("air", self.air))
            for sid, t in slots
            if self.cid(s, sid, t) not in {self.cid(*v) for v in self.plan.values()}
        ]
        toy_u = [c for c in unaffected if c.startswith("toy")]
        air_u = [c for c in unaffected if not c.startswith("toy")]
        self.rows.append(
            {
                "fault": "none (unaffected calls)",
                "where": f"{len(unaffected)} conversations",
                "injected": "-",
                "class": "-",
                "retried": sum(kept_failed(self.outs["toy"], c) for c in toy_u)
                + sum(kept_failed(self.outs["air"], c) for c in air_u),
                "lost": sum(c not in finals(self.outs["toy"]) for c in toy_u)
                + sum(c not in finals(self.outs["air"]) for c in air_u),
                "needless": "-",
                "scores": _sum_equal(
                    [self.same(toy_u, self.outs["toy"]), self.same(air_u, self.outs["air"])]
                ),
            }
        )


def _coords(cid: str) -> tuple[str, int]:
    _dom, sid, t, _cond = cid.split("__")
    return sid, int(t[1:])


def _sum_equal(parts: list[str]) -> str:
    ok = sum(int(p.split("/")[0]) for p in parts)
    n = sum(int(p.split("/")[1].split()[0]) for p in parts)
    return f"{ok}/{n} equal"


def scripted_config(out: Path, seed: int, agent_faults: list[Any], sim_faults: list[Any]) -> dict[str, Any]:
    return {
        "out": str(out),
        "trials": 1,
        "seed": seed,
        "concurrency": 4,
        "score": False,
        "time_limit_s": 30,
        "hang_grace_s": 30,
        "max_infra_retries": 1,
        "validation": {"validator": "builtin"},
        "agent": {"profile": "scripted", "faults": agent_faults},
        "simulator": {"faults": sim_faults},
    }


def scripted_rows(root: Path, seed: int) -> list[dict[str, Any]]:
    """A dropped socket and the disk full at the worker's record write (ENOSPC write hook),
    on the no-audio scripted agent: the built-in airline calls, one fault each."""
    base, out = root / "scripted_base", root / "scripted"
    run_benchmark(RunConfig.model_validate(scripted_config(base, seed, [], [])))
    faults = {"socket_drop": "bb.1", "disk_full": "bb.2"}
    cfg = scripted_config(
        out,
        seed,
        [{"scenario_id": faults["disk_full"], "attempt": 0, "fault": "disk_full"}],
        [{"scenario_id": faults["socket_drop"], "attempt": 0, "fault": "socket_drop"}],
    )
    run_benchmark(RunConfig.model_validate(cfg))
    s, fin, bfin = summary(out), finals(out), finals(base)
    rows = []
    for f, sid in faults.items():
        cid = f"airline__{sid}__t0__clean"
        entries = [x for x in s["faults"] if x["conversation_id"] == cid]
        same = cid in fin and code_scores(fin[cid]) == code_scores(bfin[cid])
        rows.append(
            {
                "fault": f + (" (write hook)" if f == "disk_full" else ""),
                "where": f"scripted, {cid}",
                "injected": "yes",
                "class": "; ".join(
                    f"{x['class']}/{x['source']}: {(x['cause'] or '')[:70]}" for x in entries[:1]
                ),
                "retried": kept_failed(out, cid),
                "lost": 0 if cid in fin else 1,
                "needless": 0,
                "scores": "1/1 equal" if same else "0/1 equal",
            }
        )
    return rows


def tmpfs_disk_full_row(root: Path, seed: int) -> dict[str, Any]:
    """The run folder on a 1 MB tmpfs filled by the calls: the run must stop naming the full
    disk, keep what it committed, and resume to the end once there is room."""
    mnt = root / "tmpfs"
    mnt.mkdir(parents=True, exist_ok=True)
    if subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)], capture_output=True
    ).returncode:
        return {"fault": "disk full (tmpfs)", "where": "-", "injected": "no: mount not allowed here",
                "class": "-", "retried": "-", "lost": "-", "needless": "-", "scores": "-"}  # fmt: skip
    try:
        out = mnt / "run"
        size_k = max(
            64, 2 * sum(f.stat().st_size for f in (root / "scripted_base").rglob("*") if f.is_file()) // 1024
        )
        subprocess.run(["mount", "-o", f"remount,size={size_k}k", str(mnt)], check=True)
        cfg = scripted_config(out, seed, [], [])
        cfg.update(trials=4)
        path = root / "tmpfs.yaml"
        path.write_text(yaml.safe_dump(cfg), encoding="utf-8")
        cmd = [sys.executable, "-m", "voxbench.cli.main", "run", "--config", str(path), "--no-progress"]
        first = subprocess.run(cmd, env=env(), capture_output=True, text=True, timeout=600)
        before = {c: _ident(p) for c, p in finals(out).items()}
        err = (first.stderr.strip().splitlines() or ["(no error)"])[-1]
        subprocess.run(["mount", "-o", "remount,size=64m", str(mnt)], check=True)
        second = subprocess.run(cmd, env=env(), capture_output=True, text=True, timeout=600)
        after = {c: _ident(p) for c, p in finals(out).items()}
        s = summary(out)
        return {
            "fault": f"disk full ({size_k} KB tmpfs)",
            "where": f"scripted run, {len(before)}/{s['planned']} committed when full",
            "injected": "yes" if first.returncode else "no: the run fit",
            "class": f"exit {first.returncode}: {err[:90]}",
            "retried": f"resume exit {second.returncode}",
            "lost": s["not_run"],
            "needless": sum(after.get(c) != v for c, v in before.items()),
            "scores": "-",
        }
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def scenario_error_row(root: Path, seed: int) -> dict[str, Any]:
    """A scenario with an invalid field (a copy of the toy data): refused before any call."""
    data = root / "bad_toy"
    shutil.copytree(toy_dataset_dir(), data, dirs_exist_ok=True)
    ds = data / "data" / "toy_dataset.json"
    rows = json.loads(ds.read_text(encoding="utf-8"))
    rows[-1]["current_date_time"] = "next tuesday"
    ds.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    cfg = live_config(root / "bad_run", str(data), [], 1, seed=seed)
    path = root / "bad.yaml"
    path.write_text(yaml.safe_dump(cfg), encoding="utf-8")
    cmd = [sys.executable, "-m", "voxbench.cli.main", "run", "--config", str(path), "--no-progress"]
    res = subprocess.run(cmd, env=env(), capture_output=True, text=True, timeout=600)
    err = (res.stderr.strip().splitlines() or ["(none)"])[-1]
    ran = list((root / "bad_run" / "records").glob("*/record.json")) if (root / "bad_run").exists() else []
    return {
        "fault": "scenario with an invalid field",
        "where": "toy copy, last scenario's current_date_time",
        "injected": "yes",
        "class": f"scenario_error (exit {res.returncode}): {err[:110]}",
        "retried": 0,
        "lost": "0 (refused before any call)" if not ran else f"{len(ran)} ran",
        "needless": 0,
        "scores": "-",
    }


COLS = ("fault", "where", "injected", "class", "retried", "lost", "needless", "scores")


def print_table(rows: list[dict[str, Any]]) -> None:
    print("| " + " | ".join(COLS) + " |")
    print("|" + "---|" * len(COLS))
    for r in rows:
        print("| " + " | ".join(str(r.get(c, "")).replace("|", "/") for c in COLS) + " |")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--calls", type=int, default=16, help="live calls (a multiple of 4)")
    p.add_argument("--out", default=None, help="work folder (default: a temporary one)")
    p.add_argument("--no-ray", dest="ray", action="store_false")
    p.add_argument("--base-port", type=int, default=47100)
    p.add_argument("--json", default=None, help="also write the rows here")
    args = p.parse_args(argv)
    if args.ray:
        try:
            import ray  # noqa: F401
        except ImportError:
            args.ray = False
    args.out = args.out or tempfile.mkdtemp(prefix="fault_matrix_")
    t0 = time.monotonic()
    m = Matrix(args)
    m.run_all()
    m.fault_rows()
    rows = m.rows + scripted_rows(m.root, args.seed)
    rows.append(tmpfs_disk_full_row(m.root, args.seed))
    rows.append(scenario_error_row(m.root, args.seed))
    wall = time.monotonic() - t0
    print(
        f"fault matrix: {args.calls} live calls, seed {args.seed}, ray {args.ray}, wall {wall:.0f} s, in {m.root}"
    )
    print_table(rows)
    if args.json:
        Path(args.json).write_text(json.dumps({"wall_s": wall, "rows": rows}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
