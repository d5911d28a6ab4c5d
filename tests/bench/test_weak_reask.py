"""``reask_after_check``: facts the caller gave, one read back or a lookup failed, then all asked
again, generated from each scenario's own facts (:mod:`voxbench.bench.weak_reask`); graded on each
of them said again."""

from __future__ import annotations

from voxbench.bench.callers import GoalTextCaller
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_turns import WeakItem, generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {
    "confirmation_number": "ZK3FFW",
    "last_name": "Rodriguez",
    "date_of_birth": "1991-08-22",
    "phone_number": "+1-225-555-3902",
}


def _items() -> list[WeakItem]:
    return [i for i in generate("airline", make_scenario(INFO)) if i.cls == "reask_after_check"]


def test_pairs_and_triples_of_given_facts_are_asked_again_after_a_check() -> None:
    items = _items()
    assert {len(i.must) for i in items} == {2, 3}
    for i in items:
        assert i.act == "restate" and len(i.context) == 2
        assert i.context[0].startswith("Can I have your")
        assert all(k.replace("_", " ") in i.turn for k in i.must)


def test_the_goal_caller_says_each_fact_again() -> None:
    sc = make_scenario(INFO)
    for i in _items():
        row = run_item(i, sc, GoalTextCaller(sc))
        assert row.agrees, (i.context, i.turn, row.reply, row.why)
