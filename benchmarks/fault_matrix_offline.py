"""The fault matrix's rows that need no live audio: scripted (no-audio) calls with a dropped
socket, a hanging process and ENOSPC at the record write; the run folder on a small tmpfs that
fills up; a scenario with an invalid field (``benchmarks/fault_matrix.py``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from fault_matrix_io import code_scores, env, finals, kept_failed, live_config, record_ident, summary

from voxbench.orchestrator import DiskFull, RunConfig, run_benchmark
from voxbench.scenarios.loader import toy_dataset_dir


def scripted_config(out: Path, seed: int, agent_faults: list[Any], sim_faults: list[Any]) -> dict[str, Any]:
    return {
        "out": str(out),
        "trials": 1,
        "seed": seed,
        "concurrency": 4,
        "score": False,
        "time_limit_s": 15,
        "hang_grace_s": 15,
        "max_infra_retries": 1,
        "validation": {"validator": "builtin"},
        "agent": {"profile": "scripted", "faults": agent_faults},
        "simulator": {"faults": sim_faults},
    }


def scripted_rows(root: Path, seed: int) -> list[dict[str, Any]]:
    """A dropped socket and a process that hangs (killed at its time limit + grace) on the
    no-audio scripted agent, one built-in airline call each; then the disk full at the
    worker's record write (the ENOSPC write hook) in a run of its own, resumed without it."""
    base, out = root / "scripted_base", root / "scripted"
    run_benchmark(RunConfig.model_validate(scripted_config(base, seed, [], [])))
    bfin = finals(base)
    faults = {"socket_drop": "bb.1", "hang": "bb.3"}
    cfg = scripted_config(
        out,
        seed,
        [{"scenario_id": faults["hang"], "attempt": 0, "fault": "hang"}],
        [{"scenario_id": faults["socket_drop"], "attempt": 0, "fault": "socket_drop"}],
    )
    run_benchmark(RunConfig.model_validate(cfg))
    s, fin = summary(out), finals(out)
    rows = []
    for f, sid in faults.items():
        cid = f"airline__{sid}__t0__clean"
        entries = [x for x in s["faults"] if x["conversation_id"] == cid]
        same = cid in fin and code_scores(fin[cid]) == code_scores(bfin[cid])
        rows.append(
            {
                "fault": f + (" (whole process)" if f == "hang" else " (scripted record)"),
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
    return [*rows, disk_hook_row(root, seed, bfin)]


def disk_hook_row(root: Path, seed: int, bfin: dict[str, Path]) -> dict[str, Any]:
    """ENOSPC at one worker's record write: the run stops naming it; resumed, nothing lost."""
    out, cid = root / "scripted_disk", "airline__bb.2__t0__clean"
    faulted = scripted_config(out, seed, [{"scenario_id": "bb.2", "fault": "disk_full"}], [])
    faulted["concurrency"] = 1
    try:
        run_benchmark(RunConfig.model_validate(faulted))
        err = "the run did not stop"
    except DiskFull as exc:
        err = f"DiskFull: {exc.strerror}"
    before = {c: record_ident(p) for c, p in finals(out).items()}
    run_benchmark(RunConfig.model_validate({**faulted, "agent": {"profile": "scripted", "faults": []}}))
    fin, s = finals(out), summary(out)
    return {
        "fault": "disk_full (write hook)",
        "where": f"scripted, {cid}",
        "injected": "yes",
        "class": f"infrastructure/disk_full, run stopped: {err[:110]}",
        "retried": f"0 (resumed: {s['completed']}/{s['planned']})",
        "lost": s["not_run"],
        "needless": sum(record_ident(fin[c]) != v for c, v in before.items()),
        "scores": "1/1 equal"
        if cid in fin and code_scores(fin[cid]) == code_scores(bfin[cid])
        else "0/1 equal",
    }


def tmpfs_size_k(base: Path) -> int:
    """Room for about 2.5 times the 3-call scripted run's blocks (files take whole 4 KB pages):
    a 12-call run with 4 in flight commits some calls, then fills it."""
    blocks = sum(-(-f.stat().st_size // 4096) for f in base.rglob("*") if f.is_file())
    return max(64, blocks * 4 * 5 // 2)


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
        size_k = tmpfs_size_k(root / "scripted_base")
        subprocess.run(["mount", "-o", f"remount,size={size_k}k", str(mnt)], check=True)
        cfg = scripted_config(out, seed, [], [])
        cfg.update(trials=4)
        path = root / "tmpfs.yaml"
        path.write_text(yaml.safe_dump(cfg), encoding="utf-8")
        cmd = [sys.executable, "-m", "voxbench.cli.main", "run", "--config", str(path), "--no-progress"]
        first = subprocess.run(cmd, env=env(), capture_output=True, text=True, timeout=600)
        before = {c: record_ident(p) for c, p in finals(out).items()}
        err = (first.stderr.strip().splitlines() or ["(no error)"])[-1]
        subprocess.run(["mount", "-o", "remount,size=64m", str(mnt)], check=True)
        second = subprocess.run(cmd, env=env(), capture_output=True, text=True, timeout=600)
        after = {c: record_ident(p) for c, p in finals(out).items()}
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
