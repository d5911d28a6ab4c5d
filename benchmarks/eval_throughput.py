"""Eval throughput: code metrics over many records, this tree against a baseline commit.

    .venv/bin/python benchmarks/eval_throughput.py [--records 1000] [--eva-copies 200,1000]
        [--baseline REF] [--repeat 1]

Workloads:
* `synthetic`: N synthetic voxbench records (tests/eval/builders), every default code
  metric (11), metrics.json written: issue 18's "records/s on the eval benchmark";
* `eva xN`: EVA's sample record (`../shared/eva-data/tests/artifacts/records/1.1.2`) copied
  N times into EVA's run folder layout (`records/1.1.2/trial_i/`, the run's config.json),
  scored with the dataset (`--eva-dataset`) and EVA's nine code metrics.

Each workload is scored in a fresh process by this tree's sources and by the baseline's
(`git archive REF src`), alternating, in the same run: the ratio is what is comparable on a
shared machine, the absolute figures move with its load (printed before and after).
Timing starts after imports ("after start-up"); CPU is the scoring process's own.
EVA's own metrics runner is not in ../shared/eva-data (data only) and is not on PyPI, so
it cannot run here: its ~51 ms/record after start-up (issue 18) is the reference.
Also prints how many judge calls one conversation costs with every metric on.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

EVA_DATA = Path(
    os.environ.get("VOXBENCH_EVA_DATA")
    # ../shared/eva-data from the main checkout, ../../shared/eva-data from a worktree
    or next((p / "shared" / "eva-data" for p in REPO.parents if (p / "shared" / "eva-data").is_dir()), "")
    or REPO.parent / "shared" / "eva-data"
)
EVA_SAMPLE = EVA_DATA / "tests" / "artifacts" / "records" / "1.1.2"
EVA_MS_PER_RECORD = 51.0  # EVA's metrics runner on the same copies, after start-up (issue 18)
EVA_CODE_METRICS = [
    "task_completion",
    "tool_call_validity",
    "authentication_success",
    "conversation_correctly_finished",
    "conversation_completed_on_time",
    "response_speed",
    "stt_wer",
    "turn_taking",
    "conversation_valid_end",
]
# main before the fifth scoring-throughput pass (2bc4fca: the fourth, fd1e690: the third,
# 10f36f0: the second, e0933a6: the first)
BASELINE = "9a141f8"


def synthetic(rng: random.Random, i: int):  # type: ignore[no-untyped-def]
    """The original synthetic record: 3-8 short turns from two templates, so ~40 distinct
    texts across any number of records (`--synthetic repetitive`; a normaliser cache would
    hit on nearly every text)."""
    from tests.eval.builders import Conv

    c = Conv(scenario_id=f"s{i % 50}", trial=i // 50)
    t = 0.5
    c.agent(t, t + 2.0, "Hello! How can I help you today?", heard="Hello, how can I help you today?")
    t += 2.0
    for k in range(rng.randint(3, 8)):
        t += rng.uniform(0.3, 1.5)
        dur = rng.uniform(1.0, 4.0)
        c.user(t, t + dur, f"My code is Z K {k} F F W and I fly on the {k + 3}rd.")
        t += dur
        if rng.random() < 0.4:
            c.tool(
                t + 0.2,
                "get_reservation",
                {"confirmation_number": f"ZK{k}FFW", "last_name": "x"},
                {"status": "success"},
            )
        t += rng.uniform(-0.3, 4.0)
        dur = rng.uniform(1.0, 5.0)
        c.agent(
            t, t + dur, f"Booking ZK{k}FFW is on flight SK{k}.", heard=f"Booking ZK{k}FFW is on flight SK{k}."
        )
        t += dur
    return c


def build_synthetic(root: Path, n: int, style: str = "varied") -> Path:
    run = root / f"synthetic-{style}{n}"
    rng = random.Random(0)
    from tests.eval.varied_records import varied

    make = varied if style == "varied" else synthetic
    for i in range(n):
        make(rng, i).write(run / "conversations" / f"r{i:05d}")
    return run


def build_eva_copies(root: Path, n: int) -> Path:
    """EVA's run layout: config.json, records/1.1.2/trial_i/ (files hard-linked: same bytes)."""
    run = root / f"eva{n}"
    (run / "records" / "1.1.2").mkdir(parents=True)
    shutil.copy(EVA_SAMPLE.parents[1] / "config.json", run / "config.json")
    for i in range(n):
        d = run / "records" / "1.1.2" / f"trial_{i}"
        d.mkdir()
        for f in EVA_SAMPLE.iterdir():
            try:
                os.link(f, d / f.name)
            except OSError:
                shutil.copy(f, d / f.name)
    return run


def score_once(run: Path, kind: str, workers: int, cache: bool = True) -> None:
    """The child: score `run` with whatever voxbench PYTHONPATH gives; print timings as JSON
    (CPU includes the worker processes'). `cache=False` turns the normaliser's memo off, so
    repeated texts are normalised again (as in a tree without it)."""
    import importlib

    from voxbench.eval.runner import default_metrics, score_run
    from voxbench.eval.types import REGISTRY, EvalConfig

    if not cache:
        with contextlib.suppress(ImportError, AttributeError):  # a tree without the memo
            importlib.import_module("voxbench.eval.wer_norm").set_cache_size(0)

    kw: dict[str, object] = {"workers": workers} if workers > 1 else {}
    if kind == "eva":
        kw["eva_dataset"] = EVA_DATA
        metrics = EVA_CODE_METRICS
    else:
        metrics = [m for m in default_metrics() if not REGISTRY[m].needs_judge]
    t0, c0 = time.perf_counter(), _cpu()
    scored, _ = score_run(run, EvalConfig(), metrics, **kw)  # type: ignore[arg-type]
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    print(json.dumps({"records": len(scored), "wall": wall, "cpu": cpu, "metrics": len(metrics)}))


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


@dataclass
class Timing:
    records: int
    wall: float
    cpu: float
    metrics: int


@dataclass
class Side:
    """One scorer: a source tree, its process count, and whether the text normaliser's
    memo is on (a tree without one ignores `cache=False`)."""

    src: Path
    workers: int = 1
    cache: bool = True


def run_child(side: Side, run: Path, kind: str) -> Timing:
    for p in run.rglob("metrics*.json"):
        p.unlink()
    env = {**os.environ, "PYTHONPATH": str(side.src)}
    cmd = [sys.executable, __file__, "--score", str(run), kind, "--workers", str(side.workers)]
    cmd += [] if side.cache else ["--no-cache"]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    d = json.loads(out.strip().splitlines()[-1])
    return Timing(d["records"], d["wall"], d["cpu"], d["metrics"])


def baseline_src(ref: str, root: Path) -> Path | None:
    """The baseline's sources, exported with `git archive` (None without git history)."""
    try:
        data = subprocess.run(
            ["git", "-C", str(REPO), "archive", ref, "src"], capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"baseline {ref}: not available ({exc}); measuring this tree only")
        return None
    dest = root / f"baseline-{ref}"
    dest.mkdir()
    tar = root / f"baseline-{ref}.tar"
    tar.write_bytes(data)
    with tarfile.open(tar) as t:
        t.extractall(dest, filter="data")
    return dest / "src"


def judge_calls_per_conversation(root: Path) -> int:
    from voxbench.eval.judges import JudgeReply
    from voxbench.eval.runner import default_metrics, score_run
    from voxbench.eval.types import EvalConfig

    class CountingJudge:
        model = "counting"
        calls = 0

        def complete(self, system: str, user: str, *, audio_wav: bytes | None = None) -> JudgeReply:
            self.calls += 1
            return JudgeReply(text='{"rating": 1}', model=self.model)

    judge = CountingJudge()
    one = root / "one"
    synthetic(random.Random(0), 0).write(one / "conversations" / "r0")
    score_run(one, EvalConfig(judge=judge), default_metrics())
    return judge.calls


def best(timings: list[Timing]) -> Timing:
    return min(timings, key=lambda t: t.wall)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=1000, help="synthetic records")
    ap.add_argument("--eva-copies", default="200,1000", help="copies of EVA's sample record ('' for none)")
    ap.add_argument(
        "--baseline",
        default=BASELINE,
        help="git ref(s) to compare with, comma-separated; the first is 'x base'",
    )
    ap.add_argument("--workers", type=int, default=2, help="also score this tree with N processes (1: not)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per side; the best is kept")
    ap.add_argument(
        "--synthetic",
        choices=["varied", "repetitive"],
        default="varied",
        help="synthetic records: EVA-like with values drawn per record, or the original two templates",
    )
    ap.add_argument("--score", nargs=2, metavar=("RUN", "KIND"), help=argparse.SUPPRESS)
    ap.add_argument("--no-cache", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.score:
        score_once(Path(args.score[0]), args.score[1], args.workers, cache=not args.no_cache)
        return
    load_before = load_average()
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        workloads = [("synthetic", "syn", build_synthetic(root, args.records, args.synthetic))]
        copies = [int(x) for x in args.eva_copies.split(",") if x.strip()]
        if copies and not EVA_SAMPLE.is_dir():
            print(f"EVA sample record not found at {EVA_SAMPLE}: EVA workloads skipped")
            copies = []
        workloads += [(f"eva x{n}", "eva", build_eva_copies(root, n)) for n in copies]
        sides: dict[str, Side] = {}
        for ref in [r.strip() for r in args.baseline.split(",") if r.strip()]:
            if (base := baseline_src(ref, root)) is not None:
                sides[f"baseline {ref}"] = Side(base)
                if args.workers > 1:
                    sides[f"baseline {ref}, {args.workers} proc"] = Side(base, args.workers)
        sides["this tree"] = Side(REPO / "src")
        sides["this tree, no memo"] = Side(REPO / "src", cache=False)
        if args.workers > 1:
            sides[f"this tree, {args.workers} proc"] = Side(REPO / "src", args.workers)
        results: dict[tuple[str, str], list[Timing]] = {}
        for name, kind, run in workloads:
            for _ in range(args.repeat):
                for label, side in sides.items():  # alternating: all sides see the same load
                    results.setdefault((name, label), []).append(run_child(side, run, kind))
        calls = judge_calls_per_conversation(root)
    print_table(workloads, sides, results)
    print(f"load average before: {load_before}   after: {load_average()}   (cores: {os.cpu_count()})")
    print(f"judge calls per conversation with every metric on: {calls}")
    if copies:
        print(
            f"EVA's runner cannot run here (not in ../shared/eva-data, not on PyPI): "
            f"'vs EVA' uses its {EVA_MS_PER_RECORD:.0f} ms/record after start-up from issue 18."
        )


def print_table(
    workloads: list[tuple[str, str, Path]],
    sides: dict[str, Side],
    results: dict[tuple[str, str], list[Timing]],
) -> None:
    """rec/s and ms/rec are wall clock; 'x base' is the speed-up over the first baseline
    with the same process count by wall clock and by CPU time (all processes; the steadier
    one on a loaded machine); 'vs EVA' is EVA's ms/record over ours (above 1: faster than
    EVA)."""
    head = (
        f"{'workload':<11} {'side':<25} {'records':>7} {'metrics':>7} {'wall s':>7} {'cpu s':>7} "
        f"{'rec/s':>7} {'ms/rec':>7} {'x base':>7} {'x cpu':>7} {'vs EVA':>7}"
    )
    print(head)
    print("-" * len(head))
    first = next(iter(sides.values()))
    for name, kind, _ in workloads:
        for side, spec in sides.items():
            base = next(
                (k for k, v in sides.items() if v.src == first.src and v.workers == spec.workers), None
            )
            b = best(results[(name, base or next(iter(sides)))])
            t = best(results[(name, side)])
            ms = t.wall / t.records * 1000
            vs_eva = f"{EVA_MS_PER_RECORD / ms:.2f}x" if kind == "eva" else ""
            print(
                f"{name:<11} {side:<25} {t.records:>7} {t.metrics:>7} {t.wall:>7.2f} {t.cpu:>7.2f} "
                f"{t.records / t.wall:>7.0f} {ms:>7.2f} {b.wall / t.wall:>6.2f}x {b.cpu / t.cpu:>6.2f}x {vs_eva:>7}"
            )


if __name__ == "__main__":
    main()
