"""Aggregate figures of `voxbench caller check` reports, split into a dev and a test half.

    python benchmarks/caller_check_halves.py before.json after.json [--rows dev-report.json] [--test]

The split is fixed in advance: a scenario is *dev* when ``int(sha256("domain/id")[:8], 16)`` is even,
else *test*. Rules for the goal caller are written reading dev transcripts only; for test only the
aggregate figures printed here are read, and only when asked: the test half's lines are printed
with ``--test`` alone, so a run during development shows the dev half only. ``--rows`` prints the per-turn rows of dev scenarios that
withheld a fact or missed a decision, and never a test scenario's; ``--over`` the dev rows that
over-volunteered (facts told unasked beyond the reference, not said before) and their count per
caller rule. Each line gives the over-volunteered facts as a count and a rate per turn.

A report written with the reference's goal read (``voxbench caller check`` without
``--no-ref-goal``) adds an ``in-goal`` line per half and domain: the same figures on the turns
where the reference caller kept its goal, then the reference turns left out by kind (the
validation gate's validators run on it), the scenarios they are in and the endings left out.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from typing import Any

from voxbench.bench.weak_item import half as half  # the split fixed in advance, one home


def _results(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return list(json.load(f)["scenarios"]["in_sample"])


def _pct(n: float, d: float) -> str:
    return f"{100 * n / d:5.1f} %" if d else "   -   "


def _line(t: dict[str, float]) -> str:
    g = t.get
    return (f"requests {_pct(g('requests_right', 0), g('requests', 0))} ({int(g('requests_right', 0))}/{int(g('requests', 0))})"
            f"  withheld {_pct(g('facts_withheld', 0), g('facts_expected', 0))}"
            f" (said before apart {_pct(g('facts_withheld', 0) - g('facts_volunteered_said_before', 0), g('facts_expected', 0) - g('facts_volunteered_said_before', 0))})"
            f"  withheld when asked {_pct(g('facts_withheld_asked', 0), g('facts_asked', 0))}"
            f"  volunteered not given {int(g('facts_volunteered_withheld', 0))}/{int(g('facts_volunteered', 0))}"
            f" (said before {int(g('facts_volunteered_said_before', 0))})"
            f"  decisions {_pct(g('decisions_matched', 0), g('decisions', 0))}"
            f" ({int(g('decisions_matched', 0))}/{int(g('decisions', 0))})"
            f"  premature {int(g('premature_endings', 0))}  missed {int(g('missed_endings', 0))}"
            f"  invented {int(g('invented', 0))}  {_over(t)}{_refused(t)}  ms/turn {g('ms_total', 0) / max(g('turns', 0), 1):.2f}")  # fmt: skip


def _refused(t: dict[str, float]) -> str:
    """Facts the tree says to refuse, disclosed by the caller (and by the reference); '' for a report
    written before the figure."""
    if "facts_refused_disclosed" not in t:
        return ""
    return f"  refused told {int(t['facts_refused_disclosed'])} (ref {int(t.get('facts_refused_disclosed_ref', 0))})"


def _over(t: dict[str, float]) -> str:
    """Facts over-volunteered: count and per-turn rate ('-' for a report written before the figure)."""
    if "facts_over_volunteered" not in t:
        return "over-volunteered -"
    n, turns = t["facts_over_volunteered"], t.get("turns", 0)
    return f"over-volunteered {int(n)} ({n / turns if turns else 0:.3f}/turn)"


def tallies(path: str, which: str = "tally") -> dict[tuple[str, str], dict[str, float]]:
    """(half, domain or 'all') -> summed tally; ``which`` 'in_goal' sums the in-goal tallies (and
    the reference turns left out, by kind, as ``out:<kind>``); {} when the report has none."""
    out: dict[tuple[str, str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for r in _results(path):
        if r.get(which) is None:
            return {}
        h = half(r["domain"], r["scenario_id"])
        for key in ((h, r["domain"]), (h, "all")):
            for k, v in r[which].items():
                if k != "ms_max":
                    out[key][k] += v
            for k, n in r.get("ref_breaks", {}).items() if which == "in_goal" else ():
                out[key][f"out:{k}"] += n
    return out


def left_out(t: dict[str, float]) -> str:
    kinds = ", ".join(f"{k[4:]} {int(n)}" for k, n in sorted(t.items()) if k.startswith("out:")) or "none"
    return (
        f"left out: {int(t.get('ref_turns_out', 0))} reference turns ({kinds}) in "
        f"{int(t.get('ref_scenarios_out', 0))} scenarios, {int(t.get('ref_endings_out', 0))} endings"
    )


def dev_rows(path: str) -> None:
    for r in _results(path):
        if half(r["domain"], r["scenario_id"]) != "dev":
            continue
        for row in r["rows"]:
            if row["withheld"] or (row["decision_ref"] and row["decision_ref"] != row["decision_ours"]):
                print(f"== {r['domain']}/{r['scenario_id']} turn {row['turn']} [{row['rule']}]")
                print(f"  agent: {row['agent']}\n  reference: {row['reference']}\n  caller: {row['reply']}")
                print(
                    f"  withheld {row['withheld']}  decision {row['decision_ref']} / {row['decision_ours']}"
                )


def over_rows(path: str) -> None:
    """Dev rows whose reply over-volunteered, then the count per caller rule (dev only)."""
    per_rule: dict[str, int] = defaultdict(int)
    for r in _results(path):
        if half(r["domain"], r["scenario_id"]) != "dev":
            continue
        for row in r["rows"]:
            if row.get("over_volunteered"):
                per_rule[row["rule"]] += len(row["over_volunteered"])
                print(f"== {r['domain']}/{r['scenario_id']} turn {row['turn']} [{row['rule']}]")
                print(f"  agent: {row['agent']}\n  reference: {row['reference']}\n  caller: {row['reply']}")
                print(f"  over-volunteered {row['over_volunteered']}")
    for rule, n in sorted(per_rule.items(), key=lambda x: -x[1]):
        print(f"{n:5}  {rule}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="+")
    ap.add_argument("--rows", help="print this report's dev rows that withheld or missed a decision")
    ap.add_argument(
        "--over", help="print this report's dev rows that over-volunteered, and the count per rule"
    )
    ap.add_argument("--test", action="store_true", help="also print the test half's aggregate lines")
    args = ap.parse_args()
    ts = [tallies(p) for p in args.reports]
    gs = [tallies(p, "in_goal") for p in args.reports]
    for h in ("dev", "test") if args.test else ("dev",):
        for d in ("airline", "itsm", "medical_hr", "all"):
            for p, t, g in zip(args.reports, ts, gs, strict=True):
                name = p.rsplit("/", 1)[-1]
                print(f"{h:4} {d:10} {name:24} {_line(t[(h, d)])}")
                if g:
                    print(f"{'':4} {'':10} {'  in-goal':24} {_line(g[(h, d)])}")
                    print(f"{'':4} {'':10} {'':24} {left_out(g[(h, d)])}")
    if args.rows:
        dev_rows(args.rows)
    if args.over:
        over_rows(args.over)


if __name__ == "__main__":
    main()
