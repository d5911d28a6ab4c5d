"""How `voxbench caller check` reports end calls, per half of the fixed split and per domain.

    python benchmarks/caller_endings.py before.json after.json [--test]

For each report: premature and missed endings per half (dev / test, the split of
``caller_check_halves.py``) and domain, and the distribution of the reasons the caller gave for
ending (``END_REASONS`` of the ending act's rule; 'never' when it did not end). Aggregate counts
only: no transcript of a test scenario is printed, and the test half's counts only with ``--test``.

``--old-definition`` recounts the endings from the report's rows by the bench's earlier rule: the
reference ends at its first goodbye, else after the last agent turn; any ending before that turn
is premature, and not ending at that turn is missed (both may count for one scenario; no window
from the agent's transfer).

A report with the reference's goal read adds, per half and domain, ``apart``: the premature /
missed endings graded where the reference itself broke its goal (between the two endings, see
``bench/tally.in_goal``); they stay in ``P`` / ``M``, and ``in-goal`` is ``P`` / ``M`` without them.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from caller_check_halves import half

from voxbench.bench.reference import reference_end
from voxbench.pipelines.caller.goal.acts import END_REASONS


def _results(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return list(json.load(f)["scenarios"]["in_sample"])


def _old(rows: list[dict[str, Any]]) -> tuple[int, int]:
    """(premature, missed) by the earlier rule (see the module docstring)."""
    end = reference_end([(row["agent"], row["reference"]) for row in rows])
    premature = any(row["ends_call"] for row in rows[:end])
    return int(premature), int(bool(rows) and not rows[end]["ends_call"])


def summary(path: str, old: bool = False) -> tuple[Counter[tuple[str, str, str]], Counter[tuple[str, str]]]:
    """((half, domain, 'premature'|'missed'|'scenarios') -> n, (half, reason) -> n)."""
    endings: Counter[tuple[str, str, str]] = Counter()
    reasons: Counter[tuple[str, str]] = Counter()
    for r in _results(path):
        h = half(r["domain"], r["scenario_id"])
        p, m = _old(r["rows"]) if old else (r["tally"]["premature_endings"], r["tally"]["missed_endings"])
        apart = "" if old else r.get("ending_apart", "")
        for d in (r["domain"], "all"):
            endings[(h, d, "scenarios")] += 1
            endings[(h, d, "premature")] += p
            endings[(h, d, "missed")] += m
            endings[(h, d, "apart premature")] += apart == "premature"
            endings[(h, d, "apart missed")] += apart == "missed"
        end = next((row for row in r["rows"] if row["ends_call"]), None)
        reasons[(h, END_REASONS.get(end["rule"], "other") if end else "never")] += 1
    return endings, reasons


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="+")
    ap.add_argument("--old-definition", action="store_true", help="recount by the bench's earlier rule")
    ap.add_argument("--test", action="store_true", help="also print the test half's counts")
    args = ap.parse_args()
    halves = ("dev", "test") if args.test else ("dev",)
    sums = [summary(p, args.old_definition) for p in args.reports]
    print(f"{'half':5} {'domain':11} " + " ".join(f"{p.rsplit('/', 1)[-1][:18]:>18}" for p in args.reports))
    for h in halves:
        for d in ("airline", "itsm", "medical_hr", "all"):
            cells = [
                f"P {e[(h, d, 'premature')]:2} M {e[(h, d, 'missed')]:2} /{e[(h, d, 'scenarios')]:3}"
                for e, _ in sums
            ]
            print(f"{h:5} {d:11} " + " ".join(f"{c:>18}" for c in cells))
            ap = [(e[(h, d, "apart premature")], e[(h, d, "apart missed")]) for e, _ in sums]
            if any(p or m for p, m in ap):
                cells = [f"apart P {p} M {m}" for p, m in ap]
                print(f"{'':5} {'':11} " + " ".join(f"{c:>18}" for c in cells))
                cells = [f"in-goal P {e[(h, d, 'premature')] - p} M {e[(h, d, 'missed')] - m}"
                         for (e, _), (p, m) in zip(sums, ap, strict=True)]  # fmt: skip
                print(f"{'':5} {'':11} " + " ".join(f"{c:>18}" for c in cells))
    names = sorted({k[1] for _, r in sums for k in r})
    print("\nfirst ending's reason")
    for h in halves:
        for n in names:
            print(f"{h:5} {n:14} " + " ".join(f"{r[(h, n)]:>18}" for _, r in sums))


if __name__ == "__main__":
    main()
