"""The goal caller on end-of-call turns in EVA's own words, taken from the other domains' reference
conversations (:mod:`voxbench.bench.weak_refendings`, and the premature-ending classes of
:mod:`voxbench.bench.weak_refpremature`): agreement per class and half, and per class, source
domain (where the wording comes from) and half.

    python benchmarks/caller_ref_endings.py --data ../shared/eva-data [--out rows.json] [--why] [--dev-only]

``--why`` prints, for the DEV half only, the reasons of the disagreeing items by class (counts),
and with ``--show N`` up to N dev items per class (test items are never printed).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict

from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.callers import GoalRules
from voxbench.bench.weak_check import WeakRow, run_item
from voxbench.bench.weak_refendings import ACTS, counts, generate_all, harvest
from voxbench.bench.weak_refpremature import ACTS as PREMATURE_ACTS
from voxbench.bench.weak_refpremature import generate_all as premature_all
from voxbench.records.io import atomic_write_json
from voxbench.scenarios import Scenario

Row = tuple[str, WeakRow]
"""(the domain the turn's wording comes from, the graded row)."""
Tally = dict[tuple[str, str, str], list[int]]
"""(class, source domain, half) -> [agreeing, items]; "all" for each."""


def graded(scenarios: list[tuple[str, Scenario]]) -> list[Row]:
    """Every item of every scenario, graded with the goal caller."""
    caller = GoalRules()
    byid = {(d, s.id): s for d, s in scenarios}
    t0 = time.perf_counter()
    rows = []
    for x in [*generate_all(scenarios), *premature_all(scenarios)]:
        sc = byid[(x.item.domain, x.item.scenario_id)]
        rows.append((x.source, run_item(x.item, sc, caller.make(x.item.domain, sc))))
    print(f"{len(rows)} items in {time.perf_counter() - t0:.1f} s")
    return rows


def tally_of(rows: list[Row]) -> Tally:
    tally: Tally = defaultdict(lambda: [0, 0])
    for src, r in rows:
        for c in (r.item.cls, "all"):
            for s in (src, "all"):
                for h in (r.item.half, "all"):
                    tally[(c, s, h)][0] += r.agrees
                    tally[(c, s, h)][1] += 1
    return tally


def print_table(tally: Tally, classes: list[str], halves: tuple[str, ...] = ("dev", "test", "all")) -> None:
    """Agreement per class and source domain, one column per half (``caller_ref_asks.py`` too)."""

    def cell(k: tuple[str, str, str]) -> str:
        a, n = tally.get(k, [0, 0])
        return f"{100.0 * a / n:5.1f} % ({a}/{n})" if n else "-"

    width = max(len(c) for c in [*classes, "class"]) + 1
    print(f"{'class':<{width}} {'source':<11} " + " ".join(f"{h:>18}" for h in halves))
    for c in [*classes, "all"]:
        for s in ("all", "airline", "itsm", "medical_hr"):
            if tally.get((c, s, "all")):
                print(
                    f"{c if s == 'all' else '':<{width}} {s:<11} "
                    + " ".join(f"{cell((c, s, h)):>18}" for h in halves)
                )


def print_why(rows: list[Row], show: int) -> None:
    """The dev half's disagreements: reasons counted by class, and up to ``show`` items per class."""
    why: Counter[tuple[str, str]] = Counter()
    shown: Counter[str] = Counter()
    for src, r in rows:
        if r.item.half == "dev" and not r.agrees:
            why[(r.item.cls, r.why.split(":")[0])] += 1
            if shown[r.item.cls] < show:
                shown[r.item.cls] += 1
                print(f"--- {r.item.cls} {r.item.domain}/{r.item.scenario_id} from {src} [{r.rule}] {r.why}")
                for c in r.item.context:
                    print(f"   ctx: {c[:200]}")
                print(f"   agent: {r.item.turn[:300]}\n   caller: {r.reply[:200]}")
    for (c, w), n in sorted(why.items()):
        print(f"dev  {c:<16} {n:4}  {w}")


def write_dev(rows: list[Row], out: str) -> None:
    """The dev rows only: a test item's words are never written out."""
    atomic_write_json(
        out, [{"source": s, **r.model_dump(mode="json")} for s, r in rows if r.item.half == "dev"]
    )


def parser(doc: str) -> argparse.ArgumentParser:
    """The options of the benches in EVA's own words (``caller_ref_asks.py`` too)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", default="", help="write the DEV rows as JSON")
    ap.add_argument("--why", action="store_true")
    ap.add_argument("--show", type=int, default=0)
    ap.add_argument("--dev-only", action="store_true", help="print the dev column only")
    return ap


def main() -> None:
    args = parser(__doc__).parse_args()
    scenarios = resolved_scenarios(args.data)
    pool = harvest(scenarios)
    print("pool (turns by domain and kind):", dict(sorted(counts(pool).items())))
    rows = graded(scenarios)
    print_table(
        tally_of(rows), [*ACTS, *PREMATURE_ACTS], ("dev",) if args.dev_only else ("dev", "test", "all")
    )
    if args.why:
        print_why(rows, args.show)
    if args.out:
        write_dev(rows, args.out)


if __name__ == "__main__":
    main()
