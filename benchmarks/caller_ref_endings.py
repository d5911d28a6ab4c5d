"""The goal caller on end-of-call turns in EVA's own words, taken from the other domains' reference
conversations (:mod:`voxbench.bench.weak_refendings`): agreement per class and half, and per class,
source domain (where the wording comes from) and half.

    python benchmarks/caller_ref_endings.py --data ../shared/eva-data [--out rows.json] [--why]

``--why`` prints, for the DEV half only, the reasons of the disagreeing items by class (counts),
and with ``--show N`` up to N dev items per class (test items are never printed).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.callers import GoalRules
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_refendings import ACTS, counts, generate_all, harvest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", default="")
    ap.add_argument("--why", action="store_true")
    ap.add_argument("--show", type=int, default=0)
    args = ap.parse_args()
    scenarios = resolved_scenarios(args.data)
    pool = harvest(scenarios)
    print("pool (turns by domain and kind):", dict(sorted(counts(pool).items())))
    caller = GoalRules()
    byid = {(d, s.id): s for d, s in scenarios}
    t0 = time.perf_counter()
    rows = []
    for x in generate_all(scenarios):
        sc = byid[(x.item.domain, x.item.scenario_id)]
        rows.append((x.source, run_item(x.item, sc, caller.make(x.item.domain, sc))))
    print(f"{len(rows)} items in {time.perf_counter() - t0:.1f} s")
    tally: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for src, r in rows:
        for c in (r.item.cls, "all"):
            for s in (src, "all"):
                for h in (r.item.half, "all"):
                    tally[(c, s, h)][0] += r.agrees
                    tally[(c, s, h)][1] += 1

    def cell(k: tuple[str, str, str]) -> str:
        a, n = tally.get(k, [0, 0])
        return f"{100.0 * a / n:5.1f} % ({a}/{n})" if n else "-"

    print(f"{'class':<16} {'source':<11} {'dev':>18} {'test':>18} {'all':>18}")
    for c in [*ACTS, "all"]:
        for s in ("all", "airline", "itsm", "medical_hr"):
            if tally.get((c, s, "all")):
                print(
                    f"{c if s == 'all' else '':<16} {s:<11} "
                    + " ".join(f"{cell((c, s, h)):>18}" for h in ("dev", "test", "all"))
                )
    if args.why:
        why: Counter[tuple[str, str]] = Counter()
        shown: Counter[str] = Counter()
        for src, r in rows:
            if r.item.half == "dev" and not r.agrees:
                why[(r.item.cls, r.why.split(":")[0])] += 1
                if shown[r.item.cls] < args.show:
                    shown[r.item.cls] += 1
                    print(
                        f"--- {r.item.cls} {r.item.domain}/{r.item.scenario_id} from {src} [{r.rule}] {r.why}"
                    )
                    for c in r.item.context:
                        print(f"   ctx: {c[:200]}")
                    print(f"   agent: {r.item.turn[:300]}\n   caller: {r.reply[:200]}")
        for (c, w), n in sorted(why.items()):
            print(f"dev  {c:<16} {n:4}  {w}")
    if args.out:
        Path(args.out).write_text(
            json.dumps(
                [{"source": s, **r.model_dump(mode="json")} for s, r in rows if r.item.half == "dev"],
                indent=1,
            )  # dev rows only: a test item's words are never written out
        )


if __name__ == "__main__":
    main()
