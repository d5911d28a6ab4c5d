"""How the goal caller's open-question answerer (``goal/openask.py``) does on EVA's reference turns.

    python benchmarks/caller_openask.py before.json after.json [--data ../shared/eva-data] [--rows]

``before.json`` / ``after.json``: ``voxbench caller check --out`` reports. Per half (the caller
check's split, fixed in advance), aggregates only:

* turns the caller met with ``no_fact_for_question`` before, and how many of them now get a goal
  clause (``goal_answers_open:*``), with how many of those share a content word with the reference
  caller's reply (agreement by content-word overlap);
* with ``--data``, a probe on the dev half alone: every reference agent turn ending in a question,
  asked of :class:`GoalOpenAnswers` directly (as if no fact answered first), and how many of its
  answers share a content word with the reference reply.

``--rows`` prints the dev rows (never a test row).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from caller_check_halves import half

from voxbench.pipelines.caller.goal.rules import GOAL_ANSWERS_OPEN
from voxbench.pipelines.caller.goal.tree import content_words


def _rows(path: str) -> list[tuple[str, str, dict[str, Any]]]:
    with open(path, encoding="utf-8") as f:
        rep = json.load(f)
    return [(half(r["domain"], r["scenario_id"]), f"{r['domain']}/{r['scenario_id']}", row)
            for r in rep["scenarios"]["in_sample"] for row in r["rows"]]  # fmt: skip


def _agrees(reply: str, reference: str) -> bool:
    return bool(content_words(reply) & content_words(reference or ""))


def reference_check(before: str, after: str, rows: bool) -> None:
    was = {(h, k, r["turn"]) for h, k, r in _rows(before) if r["rule"] == "no_fact_for_question"}
    for h in ("dev", "test"):
        now = [(k, r) for hh, k, r in _rows(after) if hh == h and (h, k, r["turn"]) in was]
        told = [(k, r) for k, r in now if r["rule"].startswith(GOAL_ANSWERS_OPEN)]
        agree = sum(_agrees(r["reply"], r["reference"]) for _, r in told)
        print(f"{h:4} no_fact_for_question before {len([w for w in was if w[0] == h])}, "
              f"now a goal clause {len(told)}, sharing a content word with the reference {agree}")  # fmt: skip
        for k, r in told if rows and h == "dev" else []:
            print(f"  == {k} turn {r['turn']}\n  reference: {r['reference']}\n  caller: {r['reply']}")


def probe(data: str, rows: bool) -> None:
    from voxbench.bench.caller_check import resolved_scenarios
    from voxbench.bench.reference import reference_turns
    from voxbench.pipelines.caller.goal.openask import GoalOpenAnswers
    from voxbench.spoken import sentences_of

    n = agree = 0
    for domain, sc in resolved_scenarios(data):
        if half(domain, sc.id) != "dev":
            continue
        answers = GoalOpenAnswers.of(sc)
        for agent, ref in reference_turns(sc)[1]:
            qs = [s for s in sentences_of(agent.replace("’", "'")) if s.endswith("?")]
            a = answers.answer(qs[-1]) if qs else None
            if a is not None:
                n, agree = n + 1, agree + _agrees(a.line, ref)
                if rows:
                    print(
                        f"  == {domain}/{sc.id} [{a.how}]\n  agent: {qs[-1]}\n  reference: {ref}\n  caller: {a.line}"
                    )
    print(f"dev  probe: reference questions answered from the goal {n}, sharing a content word {agree}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--data", help="EVA data folder: also probe the dev reference questions")
    ap.add_argument("--rows", action="store_true", help="print the dev rows")
    args = ap.parse_args()
    reference_check(args.before, args.after, args.rows)
    if args.data:
        probe(args.data, args.rows)


if __name__ == "__main__":
    main()
