"""Eval throughput: code metrics over N synthetic records, and judge calls per conversation.

    .venv/bin/python benchmarks/eval_throughput.py [N]

Prints a table: records/s for reading + segmenting + every code metric (writing
metrics.json included), and the number of judge calls one conversation costs.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.eval.builders import Conv

from voxbench.eval.judges import JudgeReply
from voxbench.eval.runner import default_metrics, score_run
from voxbench.eval.types import REGISTRY, EvalConfig


def synthetic(rng: random.Random, i: int) -> Conv:
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


class CountingJudge:
    model = "counting"

    def __init__(self) -> None:
        self.calls = 0

    def complete(self, system: str, user: str, *, audio_wav: bytes | None = None) -> JudgeReply:
        self.calls += 1
        return JudgeReply(text='{"rating": 1}', model=self.model)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as d:
        run = Path(d) / "run"
        t0 = time.perf_counter()
        for i in range(n):
            synthetic(rng, i).write(run / "conversations" / f"r{i:05d}")
        build = time.perf_counter() - t0
        code = [m for m in default_metrics() if not REGISTRY[m].needs_judge]
        t0 = time.perf_counter()
        score_run(run, EvalConfig(), code)
        dt = time.perf_counter() - t0
        judge = CountingJudge()
        small = Path(d) / "one"
        synthetic(rng, 0).write(small / "conversations" / "r0")
        score_run(small, EvalConfig(judge=judge), default_metrics())
    print(
        f"{'records':>8} {'metrics':>8} {'build s':>8} {'score s':>8} {'records/s':>10} {'judge calls/conv':>17}"
    )
    print(f"{n:>8} {len(code):>8} {build:>8.2f} {dt:>8.2f} {n / dt:>10.1f} {judge.calls:>17}")


if __name__ == "__main__":
    main()
