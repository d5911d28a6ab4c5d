"""Timing accuracy of the live loop (prints tables; not a timed test).

Runs fake-service calls (scripted agent, trace-replay caller, synthetic voices) over the
real loopback WebSocket with `timing_probes.HopProbes` stamping every chunk of audio on
the conversation clock at each hop, both directions. It reports, against the issue-3
targets:

* **added latency** (<= 10 ms p95): from the sender's output mixer producing a chunk to
  the listener's pipeline having it (serialize, send, loopback, receive task, input
  queue), per chunk;
* **onset error** (<= 10 ms p95): the recorder's stamped speech onsets (the record's
  events) against the true onsets in the audio (first non-zero sample of each utterance
  in what the sender put on the wire, at its send time), per utterance; reported apart
  from the wire latency;
* the chunk quantization (TTS audio ready -> its first sample on the wire: up to one
  chunk, since speech can only start on a chunk boundary) separately: it delays when a
  voice starts, it is not a stamping error;
* the machine load (1/5/15 min load average over the 2 cores) around every run.

    .venv/bin/python benchmarks/live_call_timing.py [--runs 3] [--calls 2] [--chunk-ms 40]
        [--silero] [--max-load 1.0 --wait-s 900] [--data ../shared/eva-data]

Baseline, before commits ed376bc/5dc1e8f (same fake call, user onsets, 40 ms chunks): +23.8
ms p50 / 29.4 ms p95 at load 0.8 and 35.5 ms p95 at load ~10, although the wire itself took
0.8 ms p50 / 1.6 ms p95: the recorder laid chunks end to end from t=0 (first chunk snapped
up to 60 ms early) while pipecat's sleep-after-send pacing ran the stream a chunk ahead.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import tempfile
import time
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tests.fakes.services import FakeTTS
from tests.pipelines.test_call_fakes import agent_services, call_input, fast_config
from timing_probes import Direction, HopProbes, onset_errors_ms

from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.caller.trace_simulator import reference_user_lines
from voxbench.processors.clock import ConversationClock
from voxbench.records import Speech, read_record
from voxbench.transports.config import WireConfig

TARGET_MS = 10.0
SR = 16000


class StampedTTS(FakeTTS):
    """FakeTTS that notes (on the conversation clock) when each utterance's audio is ready."""

    def __init__(self, ready: Direction, clock: ConversationClock, **kw: Any):
        super().__init__(**kw)
        self._ready, self._clock = ready, clock

    async def run_tts(self, text: str, context_id: str) -> AsyncGenerator[Any, None]:
        async for frame in super().run_tts(text, context_id):
            if frame is not None and getattr(frame, "audio", None):
                self._ready.tts_ready.append(self._clock.now())
            yield frame


async def silero_in_loop(stop: asyncio.Event) -> None:
    """The agent's Silero VAD cost in the call's event loop: one 32 ms window per 32 ms.

    The fake call uses an energy VAD (Silero rightly ignores synthetic buzz); this puts the
    real model's per-window inference back on the loop the transports share.
    """
    from pipecat.audio.vad.silero import SileroVADAnalyzer

    vad = SileroVADAnalyzer(sample_rate=SR)
    vad.set_sample_rate(SR)
    n = vad.num_frames_required()
    rng = np.random.default_rng(0)
    window = (rng.standard_normal(n) * 3000).astype(np.int16).tobytes()
    while not stop.is_set():
        vad.voice_confidence(window)
        await asyncio.sleep(n / SR)


async def one_call(data: Path, out: Path, chunk_ms: int, silero: bool = False) -> dict[str, Any]:
    call = call_input(data)
    lines = reference_user_lines(call.scenario, call.resolver)
    clock = ConversationClock()
    probes = HopProbes(clock, SR)
    agent = agent_services(lines)
    agent.tts = StampedTTS(probes.agent, clock, f0=120.0)
    cfg = fast_config(wire=WireConfig(chunk_ms=chunk_ms))
    ru0, w0, load0 = resource.getrusage(resource.RUSAGE_SELF), time.monotonic(), os.getloadavg()
    stop = asyncio.Event()
    contention = asyncio.create_task(silero_in_loop(stop)) if silero else None
    with probes:
        await run_call(
            call,
            cfg,
            agent,
            SimulatorServices(tts=StampedTTS(probes.user, clock, f0=220.0)),
            out,
            clock=clock,
        )
    stop.set()
    if contention is not None:
        await contention
    wall, ru1 = time.monotonic() - w0, resource.getrusage(resource.RUSAGE_SELF)
    events = read_record(out).events
    stamped = {
        (ch, st): [e.t for e in events if isinstance(e, Speech) and e.channel == ch and e.state == st]
        for ch in ("user", "agent")
        for st in ("onset", "offset")
    }
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    return {
        "probes": probes,
        "stamped": stamped,
        "wall_s": wall,
        "cpu_pct": 100 * cpu / wall,
        "load": (load0, os.getloadavg()),
    }


def stats(xs: list[float]) -> str:
    if not xs:
        return "0 | - | - | - |"
    a = np.asarray(xs)
    return f"{a.size} | {np.percentile(a, 50):.2f} | {np.percentile(a, 95):.2f} | {a.max():.2f} |"


def verdict(xs: list[float]) -> str:
    if not xs:
        return "no data"
    p95 = float(np.percentile(np.asarray(xs), 95))
    return f"{p95 / TARGET_MS:.2f}x target: {'met' if p95 <= TARGET_MS else 'NOT met'}"


def report(calls: list[dict[str, Any]], chunk_ms: int) -> dict[str, list[float]]:
    """Print one run's table; returns the pooled series for the summary."""
    pooled: dict[str, list[float]] = {}
    for name in ("user", "agent"):
        for c in calls:
            d: Direction = getattr(c["probes"], name)
            for hop, xs in d.hops().items():
                pooled.setdefault(f"{name}.{hop}", []).extend(xs)
            pooled.setdefault(f"{name}.quant", []).extend(d.quantization_ms())
            errs, missed = onset_errors_ms(d.true_onsets, c["stamped"][name, "onset"])
            pooled.setdefault(f"{name}.onset", []).extend(errs)
            pooled.setdefault(f"{name}.abs_onset", []).extend(abs(e) for e in errs)
            pooled.setdefault(f"{name}.missed", []).append(missed)
            off, _ = onset_errors_ms(d.true_offsets, c["stamped"][name, "offset"])
            pooled.setdefault(f"{name}.offset", []).extend(off)
    print("| hop (per chunk unless noted) | direction | n | p50 ms | p95 ms | max ms | vs target |")
    print("|---|---|---|---|---|---|---|")
    rows = [
        ("send", "sender mixer -> socket send returned (serialize + send)", ""),
        ("wire", "socket send -> receiver's receive task (loopback)", ""),
        ("queue", "receive task -> listener pipeline (input queue)", ""),
        ("added", "**added latency**: mixer -> listener pipeline", "target"),
        ("placed", "recorder timeline - pipeline arrival (signed)", ""),
        ("quant", f"TTS audio ready -> first sample sent (per utterance; <= {chunk_ms} ms chunk)", ""),
        ("onset", "onset error, stamped - true (signed, per utterance)", ""),
        ("abs_onset", "**onset error** abs(stamped - true) (per utterance)", "target"),
        ("offset", "offset error, stamped - true (signed, per utterance; no target)", ""),
    ]
    for key, label, tgt in rows:
        for name, arrow in (("user", "caller -> agent"), ("agent", "agent -> caller")):
            xs = pooled[f"{name}.{key}"]
            print(f"| {label} | {arrow} | {stats(xs)} {verdict(xs) if tgt else ''} |")
    for name in ("user", "agent"):
        missed = sum(int(m) for m in pooled[f"{name}.missed"])
        if missed:
            print(f"{name}: {missed} true onsets had no stamped onset within 200 ms")
    return pooled


def load_label(load1: float) -> str:
    """The 1-min load average relative to the cores (the machine is shared)."""
    ncpu = os.cpu_count() or 2
    if load1 < ncpu / 2:
        return "low"
    if load1 < ncpu:
        return "moderate"
    return f"HIGH (more runnable threads than the {ncpu} cores: the machine is busy)"


def load_line(load: tuple[float, float, float]) -> str:
    return "/".join(f"{x:.2f}" for x in load)


async def wait_for_low_load(max_load: float, wait_s: float) -> bool:
    deadline = time.monotonic() + wait_s
    while os.getloadavg()[0] >= max_load:
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(20)
    return True


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--calls", type=int, default=2)
    ap.add_argument("--chunk-ms", type=int, default=WireConfig().chunk_ms)
    ap.add_argument("--silero", action="store_true", help="also run Silero VAD inference in the loop")
    ap.add_argument("--max-load", type=float, default=None, help="wait for the 1-min load to drop below this")
    ap.add_argument("--wait-s", type=float, default=600.0)
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "eva-data")
    a = ap.parse_args()
    summary = []
    for r in range(a.runs):
        low = await wait_for_low_load(a.max_load, a.wait_s) if a.max_load is not None else None
        with tempfile.TemporaryDirectory() as d:
            calls = [await one_call(a.data, Path(d) / f"c{i}", a.chunk_ms, a.silero) for i in range(a.calls)]
        l0, l1 = calls[0]["load"][0], calls[-1]["load"][1]
        busy = load_label(max(l0[0], l1[0]))
        print(
            f"\n## run {r + 1}: chunk {a.chunk_ms} ms, {a.calls} calls{', Silero VAD in the loop' if a.silero else ''}, "
            "load avg (1/5/15 min) "
            f"{load_line(l0)} before, {load_line(l1)} after on {os.cpu_count()} cores: {busy}"
            + ("" if low is None else f" (waited for load < {a.max_load}: {'yes' if low else 'timed out'})")
        )
        print(
            "process CPU per call: "
            + ", ".join(f"{c['cpu_pct']:.0f}% of a core over {c['wall_s']:.0f}s" for c in calls)
            + "\n"
        )
        pooled = report(calls, a.chunk_ms)
        summary.append((l0[0], l1[0], pooled))
    print("\n## summary (p95 ms per run; target <= 10)")
    print(
        "| run | load 1-min before/after | added user->agent | added agent->user | onset user | onset agent |"
    )
    print("|---|---|---|---|---|---|")
    keys = ("user.added", "agent.added", "user.abs_onset", "agent.abs_onset")

    def p95(xs: list[float]) -> str:
        return f"{np.percentile(np.asarray(xs), 95):.2f}" if xs else "-"

    for i, (b, e, p) in enumerate(summary):
        print(f"| {i + 1} | {b:.2f}/{e:.2f} | " + " | ".join(p95(p[k]) for k in keys) + " |")
    pooled_all = {k: [x for _, _, p in summary for x in p[k]] for k in keys}
    n_on = len(pooled_all["user.abs_onset"]) + len(pooled_all["agent.abs_onset"])
    print(f"| all ({n_on} onsets) | | " + " | ".join(p95(pooled_all[k]) for k in keys) + " |")


if __name__ == "__main__":
    asyncio.run(main())
