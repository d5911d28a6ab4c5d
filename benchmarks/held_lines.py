"""How many of a live caller's lines the agent's voice preceded, read from recorded calls.

The caller's driver holds a line unsaid when the agent's voice starts (the caller's ear's VAD)
after the line was decided and before its first audio (``caller/driver.py``). This reads calls
recorded before or after that rule and counts, per dev/test half of the scenarios (the split
fixed in advance: sha256("domain/id")[:8] even = dev), the goal caller's lines with words whose
first audio (the caller's ``audio_segment`` start) came after such a VAD start: the lines the
rule holds (a goodbye is counted apart: the rule lets it be), and the ``withdrawn`` acts of
records made with it. The stamps are the record's, not the driver's own clock reads, so a line
whose audio and the VAD start came within a few ms may be counted either way.

    PYTHONPATH=src .venv/bin/python benchmarks/held_lines.py RECORDS_ROOT... [--list]
"""

from __future__ import annotations

import argparse
import hashlib
from collections import Counter
from pathlib import Path

from voxbench.bench.weak_item import half
from voxbench.records import AudioSegment, CallerAct, RecordBundle, VADEvent, read_record


def preceded(b: RecordBundle) -> tuple[int, list[tuple[CallerAct, float]], int]:
    """Lines with words, those whose audio the agent's voice preceded (with the audio's delay),
    and the acts recorded as withdrawn."""
    ev = sorted(b.events, key=lambda e: e.t)
    lines = [e for e in ev if isinstance(e, CallerAct) and e.rule and e.text and e.kind != "withdrawn"]
    starts = [e.t for e in ev if isinstance(e, AudioSegment) and e.channel == "user" and e.state == "start"]
    heard = [e.t for e in ev if isinstance(e, VADEvent) and e.side == "user" and e.channel == "agent"
             and e.state == "start"]  # fmt: skip
    late: list[tuple[CallerAct, float]] = []
    for act in lines:
        first = next((t for t in starts if t >= act.t), None)
        if first is not None and any(act.t < v < first for v in heard):
            late.append((act, first - act.t))
    withdrawn = sum(isinstance(e, CallerAct) and e.kind == "withdrawn" for e in ev)
    return len(lines), late, withdrawn


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs="+", type=Path, help="directories searched for record.json")
    ap.add_argument("--list", action="store_true", help="list the lines (dev half only)")
    args = ap.parse_args()
    seen: set[str] = set()
    counts: dict[str, Counter[str]] = {"dev": Counter(), "test": Counter()}
    for rec in sorted(p for root in args.roots for p in root.rglob("record.json")):
        digest = hashlib.sha256(rec.read_bytes()).hexdigest()
        if digest in seen:
            continue  # a copied record
        seen.add(digest)
        b = read_record(rec.parent)
        if b.record.simulator.kind != "goal":
            continue
        part = half(b.record.domain, b.record.scenario_id)
        n, late, withdrawn = preceded(b)
        c = counts[part]
        c["calls"] += 1
        c["lines"] += n
        c["held"] += sum(not a.ends_call for a, _ in late)
        c["goodbyes"] += sum(a.ends_call for a, _ in late)
        c["withdrawn"] += withdrawn
        if args.list and part == "dev":
            for a, delay in late:
                print(f"  {rec.parent}  t={a.t:.1f}  audio +{delay:.1f}s  {a.kind}  {a.text[:50]!r}")
    print(f"{'half':<5} {'calls':>5} {'lines':>6} {'held':>5} {'goodbyes':>9} {'withdrawn':>10}")
    for part, c in counts.items():
        print(
            f"{part:<5} {c['calls']:>5} {c['lines']:>6} {c['held']:>5} {c['goodbyes']:>9} {c['withdrawn']:>10}"
        )


if __name__ == "__main__":
    main()
