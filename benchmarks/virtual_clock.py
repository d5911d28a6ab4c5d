"""Reference re-enactments on the real clock vs the virtual clock: wall time, speed-up, timing.

    PYTHONPATH=src .venv/bin/python benchmarks/virtual_clock.py [--data /work/shared/eva-data]
        [--domain airline] [--scenarios 1.1.2,1.1.3] [--out /tmp/vclock_bench]

Each scenario is re-enacted as `voxbench selftest --voices tone` does it (trace caller +
reference agent over the loopback WebSocket, fake services), once in real time (on the
real-time `LogicalClockLoop`, `transports/logical_loop.py`, as every selftest and
orchestrated live call) and twice on the virtual clock (`transports/virtual_loop.py`).
Printed per scenario: the call's conversation length, wall time of the call in real time
and on the virtual clock, the speed-up, and two timing differences over the events matched
by kind and occurrence:

- virtual vs virtual: the virtual clock's reproducibility (0 means every event stamped alike);
- virtual vs real time: how far the real-time run's stamps stray from the virtual timeline.
  On the logical-clock loop a real-time callback reads when its cause was due (a timer's
  due time, an audio chunk's send slot), not when the loop got round to it, so with fake
  services the two agree exactly while the real-time loop keeps within its tolerated lag
  (0.1 s); the real-time run's own lateness (late chunks, worst ms: real clock) is printed
  next to it. Then max and p95 per event kind over all scenarios.

Not a test: wall times depend on the machine's load, printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from voxbench.orchestrator.selftest import SelftestConfig, plan, run_job


def _events(out_dir: str) -> list[dict]:
    return [json.loads(line) for line in Path(out_dir, "events.jsonl").read_text().splitlines() if line]


def event_diffs_ms(a: list[dict], b: list[dict]) -> tuple[dict[str, list[float]], int]:
    """|t_a - t_b| in ms per event kind (type, side, channel, state), events matched by kind and
    occurrence; and the number left unmatched.

    Matched per kind, not by position: two events at the same instant may be written in
    either order."""
    groups: dict[str, tuple[list[float], list[float]]] = {}
    for events, k in ((a, 0), (b, 1)):
        for e in events:
            key = "/".join(str(e[f]) for f in ("type", "side", "channel", "state") if e.get(f) is not None)
            groups.setdefault(key, ([], []))[k].append(e["t"])
    diffs: dict[str, list[float]] = {}
    unmatched = 0
    for key, (ta, tb) in groups.items():
        unmatched += abs(len(ta) - len(tb))
        diffs[key] = [abs(x - y) * 1000.0 for x, y in zip(ta, tb, strict=False)]
    return diffs, unmatched


def max_event_diff_ms(a: list[dict], b: list[dict]) -> tuple[float, int]:
    """Largest |t_a - t_b| over all matched events; and the unmatched count."""
    diffs, unmatched = event_diffs_ms(a, b)
    return max((d for ds in diffs.values() for d in ds), default=0.0), unmatched


def p95(values: list[float]) -> float:
    xs = sorted(values)
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))] if xs else 0.0


def _pacing(events: list[dict]) -> str:
    """The real-time run's own lateness, per side (pacing events: late chunks, worst ms)."""
    return ", ".join(
        f"{e['side']} {e['late_chunks']} late / {e['max_lateness_ms']:.0f} ms"
        for e in events
        if e["type"] == "pacing"
    )


def _timed(job, out: str, virtual: bool) -> tuple[float, list[dict], bool]:
    j = job.model_copy(update={"out_dir": out, "virtual_clock": virtual})
    t0 = time.monotonic()
    check = run_job(j)
    return time.monotonic() - t0, _events(out), check.ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="/work/shared/eva-data")
    ap.add_argument("--domain", default="airline")
    ap.add_argument("--scenarios", default="1.1.2")
    ap.add_argument("--out", default="/tmp/vclock_bench")
    args = ap.parse_args()
    cfg = SelftestConfig(
        data=args.data, domains=[args.domain], scenarios=args.scenarios.split(","), out=args.out
    )
    print(
        f"{'scenario':<10} {'call s':>7} {'real wall s':>11} {'virtual wall s':>14} {'speed-up':>8} "
        f"{'vc-vc ms':>8} {'vc-rt ms':>8} {'ok rt/vc':>8}"
    )
    per_kind: dict[str, list[float]] = {}
    for job in plan(cfg):
        base = Path(args.out) / f"{job.domain}-{job.scenario_id}"
        rt_s, rt_ev, rt_ok = _timed(job, str(base / "rt"), virtual=False)
        vc_s, vc_ev, vc_ok = _timed(job, str(base / "vc1"), virtual=True)
        _, vc2_ev, _ = _timed(job, str(base / "vc2"), virtual=True)
        call_s = vc_ev[-1]["t"]
        same, un_same = max_event_diff_ms(vc_ev, vc2_ev)
        diffs, un_rt = event_diffs_ms(vc_ev, rt_ev)
        vs_rt = max((d for ds in diffs.values() for d in ds), default=0.0)
        for key, ds in diffs.items():
            per_kind.setdefault(key, []).extend(ds)
        print(
            f"{job.scenario_id:<10} {call_s:>7.1f} {rt_s:>11.1f} {vc_s:>14.2f} {rt_s / vc_s:>7.1f}x "
            f"{same:>8.3f} {vs_rt:>8.3f} {str(rt_ok)[0]}/{str(vc_ok)[0]:>6}"
            + (f"  unmatched events: vc-vc {un_same}, vc-rt {un_rt}" if un_same or un_rt else "")
            + f"  (real-time pacing: {_pacing(rt_ev)})"
        )
    print(f"\nvirtual vs real time per event kind, ms ({sum(map(len, per_kind.values()))} events):")
    for key, ds in sorted(per_kind.items()):
        print(f"  {key:<36} n={len(ds):<4} max={max(ds, default=0.0):8.3f} p95={p95(ds):8.3f}")
    la = os.getloadavg()
    print(f"load average {la[0]:.1f} {la[1]:.1f} {la[2]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
