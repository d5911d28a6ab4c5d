"""Faults at scale: a 16-call run under every fault a benchmark meets, one row per fault.

Sixteen live calls (the reference agent and the trace caller, both with the model-free tone
voice, on the virtual clock: ``conversation_fn: live_virtual``): 8 on the toy scenarios (local
backend, concurrency 4, the orchestrator killed with SIGKILL mid-run and resumed) and 8 on the
built-in airline scenarios (Ray if installed, else local; concurrency 8; the backend's ports
taken by another program). A schedule seeded by ``--seed`` puts each fault on its own
conversation; the same 16 calls run once without faults (the same seed) for the scores.
Scripted (no-audio) runs add what needs no live audio: a socket_drop record, a process that
hangs, the ENOSPC write hook at a worker's record write, and the run folder on a tmpfs too
small for it (when ``mount`` is allowed); a scenario with an invalid field is run on a copy
of the toy data.

Each row: the fault, where injected, its class and cause as the run recorded them, the
attempts retried, conversations lost (planned without a final record), redone needlessly (a
committed call rewritten, or an agent error retried), and whether the final scores (eval's
code metrics) equal the fault-free run's where the fault should not change them.

    nice -n 10 python benchmarks/fault_matrix.py --seed 7 [--calls 4] [--no-ray]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml
from fault_matrix_io import (
    LIVE_FAULTS,
    RETRIED,
    Harness,
    code_scores,
    damage_record,
    finals,
    hold_ports,
    kept_failed,
    live_config,
    record_ident,
    summary,
    tear_events,
)
from fault_matrix_offline import scenario_error_row, scripted_rows, tmpfs_disk_full_row

from voxbench.orchestrator import RunConfig, run_benchmark
from voxbench.records.io import read_record
from voxbench.scenarios.loader import toy_dataset_dir


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
        after = {c: record_ident(p) for c, p in finals(out).items()}
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
