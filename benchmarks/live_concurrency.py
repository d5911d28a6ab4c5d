"""How many real pipecat calls one machine carries at once (prints tables; not a timed test).

    .venv/bin/python benchmarks/live_concurrency.py [--n 1,4,8,16,24,32] [--voices tone,piper]
        [--data DIR --scenario ID] [--max-load 1.5 --wait-s 600]

For each N it starts N live calls at the same moment, each in its own worker process (as
``voxbench run`` and ``voxbench selftest`` do: one GIL per call): the reference agent and
the trace caller re-enacting one reference conversation (``--scenario``, default the toy
domain's ``ty.1``) over the real loopback WebSocket, with

* ``tone``: synthetic voices and an energy VAD (fake services: the live loop's own cost), or
* ``piper``: the local Piper voices, Silero VAD and smart-turn v3 on the agent (the offline
  default agent's audio stack without its LLM).

Every call carries `timing_probes.HopProbes`, so per N it reports

* **late chunks**: chunks sent more than 10 ms after their slot on the sender's sample
  clock, as a share of the chunks sent (both directions; the record's ``pacing`` events),
  and **underruns** (holes the listener's track had to fill);
* **onset error** p95: abs(the recorder's stamped speech onset - the true onset), the true
  onset being the send time of the first sample at the recorder's detection threshold after
  >= 0.3 s below it, in what the sender put on the wire;
* calls that ended as re-enacted (trace finished), CPU per call, the load average.

The figure is the largest N with <= 1 % late chunks, <= 1 % underruns and onset error <= 10
ms p95 (and every call finished), printed with the load average: other processes on the
machine count against it, so read it next to the load.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import resource
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing_probes import HopProbes, onset_errors_ms

from voxbench.scenarios.loader import toy_dataset_dir

LATE_MAX = 0.01
ONSET_P95_MAX_MS = 10.0
_barrier: Any = None


def _init(barrier: Any) -> None:
    """Worker start-up: the heavy imports happen here, before the common start."""
    global _barrier
    _barrier = barrier
    import voxbench.pipelines.call.runner
    import voxbench.pipelines.call.selftest
    import voxbench.pipelines.call.session  # noqa: F401


def _call(data: str, domain: str, scenario: str, voices: str, out: str) -> dict[str, Any]:
    """One re-enacted call with probes; waits for every other call of this N to be ready."""
    from voxbench.pipelines.call.selftest import selftest_spec
    from voxbench.pipelines.call.session import CallSession
    from voxbench.pipelines.call.spec import ConversationRef
    from voxbench.processors.clock import ConversationClock
    from voxbench.records import PacingEvent, Speech, read_record

    conv = ConversationRef(
        conversation_id=f"{domain}-{scenario}-t0", dataset=data, domain=domain, scenario_id=scenario
    )
    spec = selftest_spec(conv, voices, 300.0)  # type: ignore[arg-type]
    cfg = spec.call
    session = CallSession(spec, Path(out))
    call = session.scenario()  # loaded before the common start, like the services below
    agent, sim = session.build_services(call)
    clock = ConversationClock()
    probes = HopProbes(clock, cfg.wire.sample_rate, threshold_db=cfg.onset.threshold_db)
    _barrier.wait(timeout=600)
    ru0, w0 = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    with probes:
        rec = asyncio.run(session.run(agent, sim, call, clock=clock))
    ru1 = resource.getrusage(resource.RUSAGE_SELF)
    events = read_record(out).events
    res: dict[str, Any] = {
        "finished": rec.end_reason in ("trace_finished", "transfer"),
        "end": rec.end_reason,
        "wall_s": time.monotonic() - w0,
        "cpu_s": (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime),
        "late": sum(e.late_chunks for e in events if isinstance(e, PacingEvent)),
        "underruns": sum(e.underruns for e in events if isinstance(e, PacingEvent)),
        "worst_ms": max((e.max_lateness_ms for e in events if isinstance(e, PacingEvent)), default=0.0),
        "chunks": len(probes.user.sent) + len(probes.agent.sent),
        "onset_ms": [],
        "missed": 0,
    }
    for side in ("user", "agent"):
        stamped = [e.t for e in events if isinstance(e, Speech) and e.channel == side and e.state == "onset"]
        errs, missed = onset_errors_ms(getattr(probes, side).true_onsets, stamped)
        res["onset_ms"] += [abs(x) for x in errs]
        res["missed"] += missed
    return res


def run_n(n: int, voices: str, data: str, domain: str, scenario: str) -> dict[str, Any]:
    """N calls at once; the pooled figures and the load around them."""
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(n)
    load0 = os.getloadavg()
    with tempfile.TemporaryDirectory() as d, ProcessPoolExecutor(n, ctx, _init, (barrier,)) as pool:
        futs = [pool.submit(_call, data, domain, scenario, voices, f"{d}/c{i}") for i in range(n)]
        calls = [f.result() for f in futs]
    chunks = sum(c["chunks"] for c in calls) or 1
    onsets = [x for c in calls for x in c["onset_ms"]]
    row = {
        "n": n,
        "finished": sum(c["finished"] for c in calls),
        "late_pct": 100 * sum(c["late"] for c in calls) / chunks,
        "under_pct": 100 * sum(c["underruns"] for c in calls) / chunks,
        "worst_ms": max(c["worst_ms"] for c in calls),
        "onsets": len(onsets),
        "missed": sum(c["missed"] for c in calls),
        "onset_p50": float(np.percentile(onsets, 50)) if onsets else float("nan"),
        "onset_p95": float(np.percentile(onsets, 95)) if onsets else float("nan"),
        "cpu_s": float(np.mean([c["cpu_s"] for c in calls])),
        "wall_s": float(np.mean([c["wall_s"] for c in calls])),
        "load": (load0, os.getloadavg()),
    }
    row["healthy"] = (
        row["finished"] == n
        and row["late_pct"] <= 100 * LATE_MAX
        and row["under_pct"] <= 100 * LATE_MAX
        and row["onset_p95"] <= ONSET_P95_MAX_MS
    )
    return row


def _load(x: tuple[float, float, float]) -> str:
    return "/".join(f"{v:.1f}" for v in x)


def print_rows(voices: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n## {voices} voices ({os.cpu_count()} cores)")
    print(
        "| N | finished | late chunks % | underruns % | worst late ms | onset err p50/p95 ms (n, missed) "
        "| CPU s/call | wall s/call | load 1/5/15 before -> after | healthy |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['n']} | {r['finished']}/{r['n']} | {r['late_pct']:.2f} | {r['under_pct']:.2f} "
            f"| {r['worst_ms']:.0f} | {r['onset_p50']:.1f}/{r['onset_p95']:.1f} ({r['onsets']}, {r['missed']}) "
            f"| {r['cpu_s']:.1f} | {r['wall_s']:.0f} | {_load(r['load'][0])} -> {_load(r['load'][1])} "
            f"| {'yes' if r['healthy'] else 'no'} |"
        )
    ok = [r["n"] for r in rows if r["healthy"]]
    top = max(ok) if ok else 0
    la = rows[-1]["load"][1] if rows else os.getloadavg()
    print(
        f"\n**{voices}: {top} calls at once** (largest N with <= {100 * LATE_MAX:.0f} % late chunks and "
        f"underruns, onset error <= {ONSET_P95_MAX_MS:.0f} ms p95, every call finished); "
        f"load average {_load(la)} at the end on {os.cpu_count()} cores"
    )


def wait_for_load(max_load: float | None, wait_s: float) -> None:
    deadline = time.monotonic() + wait_s
    while max_load is not None and os.getloadavg()[0] >= max_load and time.monotonic() < deadline:
        time.sleep(15)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", default="1,4,8,16,24,32", help="comma-separated concurrencies")
    ap.add_argument("--voices", default="tone,piper", help="tone, piper or both")
    ap.add_argument("--data", default=str(toy_dataset_dir()))
    ap.add_argument("--domain", default="toy")
    ap.add_argument("--scenario", default="ty.1")
    ap.add_argument(
        "--stop-after-unhealthy", type=int, default=2, help="skip larger N after this many misses"
    )
    ap.add_argument(
        "--max-load", type=float, help="before each N, wait for the 1-min load to drop below this"
    )
    ap.add_argument("--wait-s", type=float, default=300.0)
    a = ap.parse_args()
    ns = [int(x) for x in a.n.split(",")]
    for voices in a.voices.split(","):
        rows: list[dict[str, Any]] = []
        bad = 0
        for n in ns:
            wait_for_load(a.max_load, a.wait_s)
            rows.append(run_n(n, voices, a.data, a.domain, a.scenario))
            r = rows[-1]
            print(
                f"  {voices} N={n}: late {r['late_pct']:.2f} %, onset p95 {r['onset_p95']:.1f} ms, "
                f"load {_load(r['load'][1])}",
                flush=True,
            )
            bad = 0 if r["healthy"] else bad + 1
            if bad >= a.stop_after_unhealthy:
                break
        print_rows(voices, rows)


if __name__ == "__main__":
    main()
