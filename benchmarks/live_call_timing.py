"""Timing accuracy of the live loop (prints a table; not a timed test).

Runs fake-service calls over the real loopback WebSocket. Ground truth for each user
speech onset is stamped where the audio leaves the caller (the output mixer sees every
chunk at send time, on the conversation clock); the recorder stamps the same onset
from the audio the agent receives. The difference is the latency the framework adds
to the audio path plus the stamping error.

    .venv/bin/python benchmarks/live_call_timing.py [--calls 3] [--data ../shared/eva-data]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fakes.services import FakeTTS
from tests.pipelines.test_call_fakes import agent_services, call_input, fast_config

from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.runner import run_call
from voxbench.pipelines.trace_simulator import reference_user_lines
from voxbench.processors.clock import ConversationClock
from voxbench.processors.speech_onset import EnergyOnsetDetector
from voxbench.records import Speech, read_record


class SendStamper:
    """Mixer transform: stamps onsets of outgoing audio at send time."""

    def __init__(self, clock: ConversationClock, sr: int = 16000):
        self.clock = clock
        self.det = EnergyOnsetDetector(sr)
        self.sr = sr
        self.onsets: list[float] = []

    def __call__(self, pcm: np.ndarray) -> np.ndarray:
        t = self.clock.now()
        self.onsets += [m.t for m in self.det.feed(pcm, t) if m.state == "onset"]
        return pcm


def pct(xs: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(xs), q)) if xs else float("nan")


async def one_call(data: Path, out: Path) -> tuple[list[float], dict[str, float]]:
    call = call_input(data)
    lines = reference_user_lines(call.scenario, call.resolver)
    clock = ConversationClock()
    stamper = SendStamper(clock)
    ru0 = resource.getrusage(resource.RUSAGE_SELF)
    w0 = time.monotonic()
    await run_call(
        call,
        fast_config(),
        agent_services(lines),
        SimulatorServices(tts=FakeTTS(f0=220.0)),
        out,
        sim_audio_transform=stamper,
        clock=clock,
    )
    wall = time.monotonic() - w0
    ru1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    b = read_record(out)
    rec_on = [e.t for e in b.events if isinstance(e, Speech) and e.channel == "user" and e.state == "onset"]
    errs = [r - s for s, r in zip(stamper.onsets, rec_on, strict=False)]
    return errs, {"wall_s": wall, "cpu_s": cpu, "cpu_pct": 100 * cpu / wall}


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=2)
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "eva-data")
    a = ap.parse_args()
    errs: list[float] = []
    stats = []
    with tempfile.TemporaryDirectory() as d:
        for i in range(a.calls):
            e, s = await one_call(a.data, Path(d) / f"c{i}")
            errs += e
            stats.append(s)
    ms = [1000 * x for x in errs]
    print("| measure | n | p50 ms | p95 ms | max ms |")
    print("|---|---|---|---|---|")
    print(
        f"| user onset: sent -> stamped at agent | {len(ms)} | {pct(ms, 50):.1f} | {pct(ms, 95):.1f} | {max(ms):.1f} |"
    )
    for i, s in enumerate(stats):
        print(
            f"call {i}: wall {s['wall_s']:.1f}s, process CPU {s['cpu_s']:.1f}s ({s['cpu_pct']:.0f}% of one core)"
        )


if __name__ == "__main__":
    asyncio.run(main())
