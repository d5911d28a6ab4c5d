"""`voxbench selftest`: re-enact reference conversations live with the reference agent.

Prints one row per domain (calls, tasks completed, turn-taking, answer latency, pacing,
wall time and CPU per call) and every miss by name; exits 1 on any miss.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "selftest", help="re-enact every reference conversation live (reference agent + trace caller)"
    )
    p.add_argument("--data", required=True, help="EVA-format dataset folder (holds data/ and configs/)")
    p.add_argument("--domain", action="append", help="only this domain (repeatable)")
    p.add_argument("--scenarios", help="comma-separated scenario ids (or domain/id)")
    p.add_argument("--concurrency", type=int, default=1, help="calls at once (worker processes)")
    p.add_argument(
        "--voices",
        choices=("tone", "piper"),
        default="tone",
        help="tone: synthetic voices, energy VAD (fast); piper: Piper voices, Silero VAD + smart-turn",
    )
    p.add_argument("--out", default="runs/selftest", help="where the call records go")
    p.add_argument("--max-latency", type=float, help="seconds; an agent answer later than this is a miss")
    p.add_argument(
        "--max-late-fraction",
        type=float,
        help="late chunks + underruns per chunk, per side, above which pacing is a miss (default 0.01)",
    )
    p.add_argument(
        "--virtual-clock",
        action="store_true",
        help="run each call on a virtual clock (jumps over idle waits; --voices tone only)",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        help="seconds per call (default: twice what each reference conversation needs, at least 300)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="every call's debug log on stderr too")
    p.set_defaults(func=run_selftest_cmd)


def run_selftest_cmd(args: argparse.Namespace) -> int:
    from voxbench.cli.call_progress import quiet_stderr

    quiet_stderr(args.verbose)  # each call's full log is in its record folder (call.log)
    from voxbench.orchestrator.selftest import SelftestConfig, run_selftest
    from voxbench.orchestrator.selftest_checks import Bounds

    bounds = Bounds()
    if args.voices == "piper":
        bounds.max_latency_s = 4.0  # smart-turn + Piper's first audio on a loaded CPU
    if args.max_latency is not None:
        bounds.max_latency_s = args.max_latency
    if args.max_late_fraction is not None:
        bounds.max_late_fraction = args.max_late_fraction
    cfg = SelftestConfig(
        data=args.data,
        domains=args.domain or [],
        scenarios=[s.strip() for s in args.scenarios.split(",") if s.strip()] if args.scenarios else [],
        concurrency=args.concurrency,
        voices=args.voices,
        out=args.out,
        time_limit_s=args.time_limit,
        bounds=bounds,
        virtual_clock=args.virtual_clock,
    )
    progress = SelftestProgress(args.concurrency)
    result = run_selftest(cfg, progress.call_done, progress.planned)
    print_table(result)
    misses = result.misses
    for m in misses:
        print(f"MISS {m}")
    return 1 if misses else 0


class SelftestProgress:
    """`voxbench selftest`'s progress, as `run` shows it: how many calls at what concurrency,
    then ``[done/total] domain/id: 41s call, ok, ETA 1h02m`` as each call ends (stderr)."""

    def __init__(self, concurrency: int, write: Any = None) -> None:
        self.concurrency = concurrency
        self.write = write
        self.count: Any = None

    def planned(self, total: int) -> None:
        from voxbench.orchestrator.progress import CountProgress

        self.count = CountProgress("voxbench selftest", total, write=self.write)
        self.count.start(f"calls planned, {self.concurrency} at a time (a line as each call ends)")

    def call_done(self, c: Any) -> None:
        state = "ok" if c.ok else f"MISS ({'; '.join(c.misses)[:160]})"
        self.count.advance(1, f"{c.domain}/{c.scenario_id}: {c.duration_s:.0f}s call, {state}")


def _p(xs: list[float], q: float) -> str:
    if not xs:
        return "-"
    s = sorted(xs)
    return f"{s[min(len(s) - 1, int(q * len(s)))]:.2f}"


def print_table(result: Any) -> None:
    head = (
        f"{'domain':<11} {'calls':>5} {'tasks':>7} {'turns ok':>8} {'barge/yield':>11} "
        f"{'ans p50/p95/max s':>18} {'late':>5} {'under':>5} {'worst ms':>8} {'wall/call s':>11} {'cpu/call s':>10}"
    )
    print(head)
    by: dict[str, list[Any]] = {}
    for c in result.checks:
        by.setdefault(c.domain, []).append(c)
    for dom, cs in by.items():
        lat = [x for c in cs for x in c.latencies_s]
        turns_ok = sum(
            1
            for c in cs
            if not any(
                k in m
                for m in c.misses
                for k in ("responses", "response #", "tool calls", "caller spoke", "barge")
            )
        )
        lat_s = f"{_p(lat, 0.5)}/{_p(lat, 0.95)}/{max(lat) if lat else 0:.2f}"
        print(
            f"{dom:<11} {len(cs):>5} {sum(c.task_completed for c in cs):>3}/{len(cs):<3} "
            f"{turns_ok:>4}/{len(cs):<3} {sum(c.barge_ins for c in cs):>5}/{sum(c.yields for c in cs):<5} "
            f"{lat_s:>18} {sum(c.late_chunks for c in cs):>5} {sum(c.underruns for c in cs):>5} "
            f"{max(c.max_lateness_ms for c in cs):>8.0f} {statistics.mean(c.wall_s for c in cs):>11.1f} "
            f"{statistics.mean(c.cpu_s for c in cs):>10.1f}"
        )
    voices = sorted(
        {f"agent {c.voices.get('agent')}, caller {c.voices.get('caller')}" for c in result.checks}
    )
    la = result.load_avg
    print(
        f"{len(result.checks)} calls, {sum(c.ok for c in result.checks)} without a miss; voices: "
        f"{'; '.join(voices)}; wall {result.wall_s:.0f}s at concurrency {result.concurrency}; "
        f"load average {la[0]:.1f} {la[1]:.1f} {la[2]:.1f}"
    )
