"""Which classes of turns do EVA's reference callers volunteer facts in, and does the goal caller?

    PYTHONPATH=src .venv/bin/python benchmarks/caller_volunteer_classes.py --data ../shared/eva-data
        [--half dev|test|all] [--rows]

The goal caller runs over each scenario's reference agent turns, as the caller check runs it. In
every agent turn that asks something (:func:`voxbench.bench.reference.asks`) with a reference reply,
each goal fact the turn neither says nor asks for by name (:func:`~voxbench.bench.reference.names_fact`,
or offered as an option) is a *chance* to volunteer it, put in the first class it fits:

* ``said_before``: the caller disclosed it earlier in the call (its opening included);
* ``tree_bundle``: a sentence of the tree with a giving verb ("If asked for the license details,
  provide your state license number, say that you want a provisional extension, and specify 30
  days") names it and a fact the turn asks (by value, or by every word of its key);
* ``date_with_time``: a date when the turn asks a time, or a time when it asks a date;
* ``pair_second``: the other end of a pair the turn asks one end of (start/end, first/last,
  origin/destination: same key but that word);
* ``identity_then_details``: the turn asks only facts of the whole call (name, IDs, codes: the
  caller's :mod:`belong`/``details`` reading) and this is a fact of the request in hand;
* ``next_request_reason``: the caller states its next request there (``next_intent``) and this is
  a word-valued fact the goal places with that request (its reason or circumstance);
* ``other_request``: a fact of another of its requests; ``detail``: of the request in hand;
  ``call``: the rest.

Per class: chances, how many the reference said there (its rate), how many the goal caller said,
and the reference's the caller did not (missed). Rules are written reading dev (``--rows`` prints
dev rows where the reference volunteered and the caller did not; never test rows); test is read
as this table only.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict

from caller_check_halves import half
from caller_volunteer import steps

from voxbench.bench.caller_check import resolved_scenarios
from voxbench.bench.lang import alt
from voxbench.bench.matcher import facts_said, goal_facts, key_words
from voxbench.bench.reference import names_fact
from voxbench.pipelines.caller.goal.framing import kind_of
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of

CLASSES = ["said_before", "tree_bundle", "date_with_time", "pair_second", "identity_then_details",
           "next_request_reason", "other_request", "detail", "call"]  # fmt: skip
_GIVE = re.compile(rf"\b({alt('volunteer', 'tree_give')})\b", re.I)
_PAIRS = [("start", "end"), ("first", "last"), ("origin", "destination"), ("from", "to")]


def _bundles(sc: Scenario, facts: list) -> list[set[str]]:
    """The fact sets each giving sentence of the tree names (two or more), read by the bench's matcher."""
    tree = sc.user_goal.decision_tree
    out = []
    for line in [*tree.negotiation_behavior, *tree.edge_cases]:
        for s in sentences_of(line):
            m = _GIVE.search(s)
            if m is None:
                continue
            said = set(facts_said(s[m.start() :], facts)) | {
                g.key for g in facts if names_fact(s[m.start() :], g.key)
            }
            if len(said) >= 2:
                out.append(said)
    return out


def _pair_of(a: str, b: str) -> bool:
    wa, wb = key_words(a), key_words(b)
    if len(wa) != len(wb):
        return False
    diff = [(x, y) for x, y in zip(wa, wb, strict=True) if x != y]
    return len(diff) == 1 and (diff[0] in _PAIRS or diff[0][::-1] in _PAIRS)


def _kind(caller: GoalCaller, key: str) -> str:
    f = caller.book.get(key)
    return kind_of(f) if f is not None else ""


def classify(caller: GoalCaller, key: str, asked: set[str], told: set[str], bundles: list[set[str]],
             roles: dict[str, str], rule: str) -> str:  # fmt: skip
    """The first class of :data:`CLASSES` the chance fits (see the module docstring)."""
    kinds = {_kind(caller, k) for k in asked}
    if key in told:
        return "said_before"
    if any(key in b and asked & b for b in bundles):
        return "tree_bundle"
    if (_kind(caller, key) == "date" and "time" in kinds) or (
        _kind(caller, key) == "time" and "date" in kinds
    ):
        return "date_with_time"
    if any(_pair_of(key, a) for a in asked):
        return "pair_second"
    if asked and all(roles.get(a) == "call" for a in asked) and roles[key] == "detail":
        return "identity_then_details"
    if rule in ("next_intent", "next_intent_after_refusal") and roles[key] in ("detail", "other_request") \
            and _kind(caller, key) == "text":  # fmt: skip
        return "next_request_reason"
    return roles[key] if roles[key] in ("other_request", "detail") else "call"


def chances(domain: str, sc: Scenario, rows: bool) -> list[tuple[str, bool, bool]]:
    """(class, the reference said it, the caller said it) per chance of one scenario."""
    facts = goal_facts(sc.user_goal.information_required)
    keys = [g.key for g in facts]
    bundles = _bundles(sc, facts)
    out = []
    for st in steps(sc):
        asked = {k for k in keys if st.asked(k)}
        for k in keys:
            if k in st.agent_said or k in asked:
                continue
            c = classify(st.caller, k, asked, st.before, bundles, st.roles, st.act.rule)
            out.append((c, k in st.theirs, k in st.ours))
            if rows and k in st.theirs and k not in st.ours and c != "said_before":
                print(f"== {domain}/{sc.id} turn {st.n} [{c}] {k}\n  agent: {st.agent[-200:]}\n"
                      f"  reference: {st.ref}\n  caller: {st.act.text}")  # fmt: skip
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--half", choices=["dev", "test", "all"], default="dev")
    ap.add_argument(
        "--rows", action="store_true", help="dev rows the reference volunteered in and the caller did not"
    )
    args = ap.parse_args()
    table: dict[str, Counter[str]] = defaultdict(Counter)
    n = 0
    for d, sc in resolved_scenarios(args.data):
        if args.half not in ("all", half(d, sc.id)):
            continue
        n += 1
        for c, theirs, ours in chances(d, sc, args.rows and half(d, sc.id) == "dev"):
            table[c].update(chances=1, reference=theirs, caller=ours, missed=theirs and not ours,
                            both=theirs and ours)  # fmt: skip
    print(f"{n} scenarios ({args.half}): facts the turn neither says nor asks for, by class")
    print(f"{'class':24} {'chances':>8} {'reference':>16} {'caller':>8} {'both':>6} {'missed':>7}")
    total: Counter[str] = Counter()
    for c in CLASSES:
        t = table[c]
        total.update(t)
        rate = 100 * t["reference"] / t["chances"] if t["chances"] else 0.0
        print(
            f"{c:24} {t['chances']:8} {t['reference']:7} ({rate:5.1f} %) {t['caller']:8} {t['both']:6} {t['missed']:7}"
        )
    rate = 100 * total["reference"] / max(total["chances"], 1)
    print(f"{'all':24} {total['chances']:8} {total['reference']:7} ({rate:5.1f} %) {total['caller']:8} "
          f"{total['both']:6} {total['missed']:7}")  # fmt: skip


if __name__ == "__main__":
    main()
