"""The goal caller on request turns in EVA's own words, taken from the other domains' reference
conversations and said again with each scenario's own facts (:mod:`voxbench.bench.weak_refasks`):
agreement per class and half, and per class, source domain (where the wording comes from) and half.

    python benchmarks/caller_ref_asks.py --data ../shared/eva-data [--out rows.json] [--why] [--show N] [--dev-only]

It prints the source turns by domain and kind, and the turns dropped (not said faithfully in a
scenario) by kind and reason. ``--why`` prints, for the DEV half only, the disagreeing items
counted by class, caller rule and reason, and with ``--show N`` up to N dev items per class (test
items are never printed); ``--dev-only`` leaves the test column out of the table.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict

from caller_ref_endings import parser, print_table

from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.callers import GoalRules
from voxbench.bench.weak_check import WeakRow, run_item
from voxbench.bench.weak_refasks import ACTS, Made, generate_all
from voxbench.bench.weak_refharvest import counts, harvest
from voxbench.records.io import atomic_write_json
from voxbench.scenarios import Scenario

Row = tuple[str, WeakRow, str]
"""(the domain the turn's wording comes from, the graded row, the reference turn it was said from)."""
Tally = dict[tuple[str, str, str], list[int]]
"""(class, source domain, half) -> [agreeing, items]; "all" for each."""


def graded(scenarios: list[tuple[str, Scenario]], made: Made) -> list[Row]:
    """Every item, graded with the goal caller."""
    caller = GoalRules()
    byid = {(d, s.id): s for d, s in scenarios}
    t0 = time.perf_counter()
    rows = []
    for x in made.items:
        sc = byid[(x.item.domain, x.item.scenario_id)]
        rows.append((x.source, run_item(x.item, sc, caller.make(x.item.domain, sc)), x.origin))
    print(f"{len(rows)} items in {time.perf_counter() - t0:.1f} s")
    return rows


def tally_of(rows: list[Row]) -> Tally:
    tally: Tally = defaultdict(lambda: [0, 0])
    for src, r, _ in rows:
        for c in (r.item.cls, "all"):
            for s in (src, "all"):
                for h in (r.item.half, "all"):
                    tally[(c, s, h)][0] += r.agrees
                    tally[(c, s, h)][1] += 1
    return tally


def print_wordings(rows: list[Row]) -> None:
    """Distinct reference turns behind each class's dev items: how many wordings a figure stands on."""
    used: dict[str, set[str]] = defaultdict(set)
    for _, r, origin in rows:
        if r.item.half == "dev":
            used[r.item.cls].add(origin)
    print("dev wordings (distinct reference turns) per class:", {c: len(used[c]) for c in ACTS if c in used})


def print_why(rows: list[Row], show: int) -> None:
    """The dev half's disagreements: counted by class, caller rule and reason; up to ``show`` items per class."""
    why: Counter[tuple[str, str, str]] = Counter()
    shown: Counter[str] = Counter()
    for _, r, origin in rows:
        if r.item.half == "dev" and not r.agrees:
            why[(r.item.cls, r.rule, r.why.split(":")[0])] += 1
            if shown[r.item.cls] < show:
                shown[r.item.cls] += 1
                print(
                    f"--- {r.item.cls} {r.item.domain}/{r.item.scenario_id} from {origin} [{r.rule}] {r.why}"
                )
                print(f"   agent: {r.item.turn[:400]}\n   caller: {r.reply[:240]}")
    for (c, rule, w), n in sorted(why.items()):
        print(f"dev  {c:<22} {n:4}  [{rule}] {w}")


def write_dev(rows: list[Row], out: str) -> None:
    """The dev rows only: a test item's words are never written out."""
    dev = [
        {"source": s, "origin": o, **r.model_dump(mode="json")} for s, r, o in rows if r.item.half == "dev"
    ]
    atomic_write_json(out, dev)


def main() -> None:
    args = parser(__doc__).parse_args()
    scenarios = resolved_scenarios(args.data)
    pool = harvest(scenarios)
    print("pool (turns by domain and kind):", dict(sorted(counts(pool).items())))
    made = generate_all(scenarios, pool)
    print("dropped (kind, reason):", dict(sorted(made.dropped.items())))
    rows = graded(scenarios, made)
    print_table(tally_of(rows), list(ACTS), ("dev",) if args.dev_only else ("dev", "test", "all"))
    print_wordings(rows)
    if args.why:
        print_why(rows, args.show)
    if args.out:
        write_dev(rows, args.out)


if __name__ == "__main__":
    main()
