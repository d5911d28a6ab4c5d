"""Is the goal caller's reply invariant under rewrites of an agent turn that keep its meaning?

    PYTHONPATH=src .venv/bin/python benchmarks/caller_invariance.py --data /work/shared/eva-data \
        --dev-only [--class C] [--domain D] [--limit N] [--rows] [--out report.json]

A metamorphic bench: no label is needed. Every reference agent turn of EVA's reference
conversations (the caller check's inputs, :func:`voxbench.bench.reference.reference_turns`) is
rewritten by each class of :mod:`voxbench.bench.perturb` (the classes are data,
``bench/lang/perturb_en.json``: an acknowledgement before the turn, "can you" for "could you",
contractions, "the" for "your", numbers as digits, two statements swapped, "if you don't mind").
Where a class changes the turn, a copy of the caller in the state the written turns left it in
hears the rewrite, and its reply is compared with its reply to the written turn: the **same** when
its act (kind, choice, whether it ends the call) and the goal facts it discloses (the bench's own
matcher, :func:`voxbench.bench.matcher.facts_said`, never the caller's) are. The words may differ.

The table prints per class the items (turns it changed) and the share of same replies, a column
pair per half of the caller check's fixed split; ``--dev-only`` runs and prints the dev half
alone (use it while developing: the test half is read as an aggregate only, at most twice per
change). ``--rows`` prints the changed replies of DEV scenarios only.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import turn_variants

from voxbench.bench.matcher import facts_said, goal_facts
from voxbench.bench.perturb import class_names, perturb, same_choice, table
from voxbench.records.io import atomic_write_json


def _same_act(written: Any, heard: Any, cls: str, seed: str) -> bool:
    """The same kind, ending and choice (the same option, named in the words the turn gave it)."""
    return (written.kind, written.ends_call) == (heard.kind, heard.ends_call) and same_choice(
        written.choice, heard.choice, cls, seed
    )


def _act(act: Any) -> list[Any]:
    return [act.kind, act.choice, act.ends_call]


def run_scenario(
    domain: str, sc: Any, classes: list[str], rows: list[dict[str, Any]]
) -> dict[str, dict[str, int]]:
    """Items and same replies per class over one scenario's turns; the changed ones go to ``rows``."""
    facts = goal_facts(sc.user_goal.information_required)
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))

    def variants(i: int, agent: str, _ref: str) -> dict[str, str]:
        seed = f"{domain}/{sc.id}/{i + 1}"
        return {c: v for c in classes if (v := perturb(c, agent, seed)) != agent}

    for f in turn_variants.forked_replies(domain, sc, variants):
        seed, written = f"{domain}/{sc.id}/{f.turn}", f.written
        w_facts = sorted(facts_said(written.text, facts, f.agent))
        for c, (v, heard) in f.heard.items():
            h_facts = sorted(facts_said(heard.text, facts, f.agent))
            same_act = _same_act(written, heard, c, seed)
            same = h_facts == w_facts and same_act
            n = counts[c]
            n["items"] += 1
            n["same"] += same
            n["act_changed"] += not same_act
            n["facts_changed"] += h_facts != w_facts
            n["words_same"] += heard.text == written.text
            if not same:
                rows.append({"domain": domain, "scenario": sc.id, "turn": f.turn, "class": c, "agent": f.agent,
                             "variant": v, "written_reply": written.text, "heard_reply": heard.text,
                             "written_facts": w_facts, "heard_facts": h_facts, "written_act": _act(written),
                             "heard_act": _act(heard), "written_rule": written.rule,
                             "heard_rule": heard.rule})  # fmt: skip
    return counts


def _pct(c: dict[str, int]) -> str:
    return f"{100.0 * c['same'] / c['items']:.1f} %" if c.get("items") else "-"


def report(totals: turn_variants.Totals, classes: list[str], halves: list[str]) -> None:
    """A row per class: items and same-reply share per half, then acts and facts changed."""
    head = f"{'class':<16}" + "".join(
        f" {h + ' items':>11} {h + ' same':>10} {'act/facts':>10}" for h in halves
    )
    print(head)
    for name in [*classes, "all"]:
        line = f"{name:<16}"
        for h in halves:
            if name == "all":
                c: dict[str, int] = defaultdict(int)
                for k in classes:
                    for key, n in totals.get((h, k), {}).items():
                        c[key] += n
            else:
                c = dict(totals.get((h, name), {}))
            line += f" {c.get('items', 0):>11} {_pct(c):>10} {c.get('act_changed', 0):>4}/{c.get('facts_changed', 0):<5}"
        print(line)
    for name in classes:
        print(f"  {name}: {table().classes[name].why}")


def main() -> int:
    ap = turn_variants.parser(__doc__.split("\n")[0], "class", "classes")
    ap.add_argument("--dev-only", action="store_true", help="run and print the dev half only")
    args = ap.parse_args()
    if args.dev_only:
        args.half = "dev"
    classes = args.classes or class_names()
    totals, dev_rows = turn_variants.run(args, classes, run_scenario)
    if args.out:
        figures = {f"{h}/{n}": dict(c) for (h, n), c in totals.items()}
        atomic_write_json(args.out, {"figures": figures, "dev_rows": dev_rows})
    report(totals, classes, [h for h in ("dev", "test") if args.half in ("both", h)])
    if args.rows:
        for row in dev_rows:
            print(json.dumps(row, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
