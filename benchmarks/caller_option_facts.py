"""Which facts decide the goal caller's choices among offered options, and do shared facts leak in?

    PYTHONPATH=src .venv/bin/python benchmarks/caller_option_facts.py --data ../shared/eva-data
        [--half dev|test|all] [--rows]

The goal caller runs over each scenario's reference agent turns, as the caller check runs it. Every
choice among two or more options (:meth:`OptionChooser.choose`) is counted, and in it:

* ``merged``: an option holding two or more offered items of one kind (two times, two amounts):
  the list was cut wrong, and a fact shared by all (the date of three times) sits in one option;
* ``shared``: a fact of the caller's the turn states outside every option (the date the times are
  offered on): it is common to all and cannot tell them apart;
* ``by_shared``: the choice was made by such a shared fact (the class this bench watches: it
  should be 0; the choice belongs to the facts whose values differ across the options).

``--rows`` prints dev rows only (the turn, the options, the rule), never test rows.
"""

from __future__ import annotations

import argparse
from collections import Counter

from caller_check_halves import half

from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.reference import reference_turns
from voxbench.pipelines.caller.goal.choose import OptionChooser
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.spoken import mentions, times

_CALLS: list[tuple[list[str], str]] = []
_real = OptionChooser.choose


def _recorded(self: OptionChooser, options: list[str], question: str = "") -> tuple[str, str]:
    out = _real(self, options, question)
    _CALLS.append((list(options), out[1]))
    return out


def census(domain: str, sc, rows: bool) -> Counter:  # type: ignore[no-untyped-def]
    """The tallies of one scenario's choices (see the module docstring)."""
    n: Counter = Counter()
    caller = GoalCaller(sc)
    opening, turns = reference_turns(sc)
    if opening is not None:
        caller.open()
    for i, (agent, _ref) in enumerate(turns):
        _CALLS.clear()
        caller.respond(agent)
        for options, why in _CALLS[:1]:
            if len(options) < 2:
                continue
            n["choices"] += 1
            merged = any(len(times(o)) >= 2 for o in options)
            shared = [f.key for f in caller.book if any(mentions(agent, v) for v in f.values())
                      and not any(mentions(o, v) for o in options for v in f.values())]  # fmt: skip
            by_shared = why.startswith("option_matches_fact:") and why.split(":", 1)[1] in shared
            n["merged"] += merged
            n["shared"] += bool(shared)
            n["by_shared"] += by_shared
            if rows and (merged or by_shared):
                print(f"== {domain}/{sc.id} turn {i + 1} [{why}] shared {shared}\n  {options}")
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--half", choices=["dev", "test", "all"], default="dev")
    ap.add_argument(
        "--rows", action="store_true", help="print dev rows that merged options or chose by a shared fact"
    )
    args = ap.parse_args()
    OptionChooser.choose = _recorded  # type: ignore[method-assign]
    total: Counter = Counter()
    for domain, sc in resolved_scenarios(args.data):
        h = half(domain, sc.id)
        if args.half != "all" and h != args.half:
            continue
        total += census(domain, sc, args.rows and h == "dev")
    print(
        f"half {args.half}: choices {total['choices']}  merged options {total['merged']}  "
        f"a fact shared outside the options {total['shared']}  chosen by a shared fact {total['by_shared']}"
    )


if __name__ == "__main__":
    main()
