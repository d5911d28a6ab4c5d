"""``two_fields_asked``: two of the caller's facts asked by their labels, generated from each
scenario's own facts; graded on both said and no other (:mod:`voxbench.bench.weak_fields`)."""

from __future__ import annotations

from voxbench.bench.callers import GoalTextCaller
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_turns import WeakItem, generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {
    "first_name": "Maria",
    "last_name": "Park",
    "confirmation_number": "ZK3FFW",
    "phone_number": "617-555-4821",
    "phone_last_four": "4821",
    "travel_date": "2026-03-20",
    "departure_time": "14:00",
}


def _items() -> list[WeakItem]:
    return [i for i in generate("airline", make_scenario(INFO)) if i.cls == "two_fields_asked"]


def test_two_facts_with_no_label_word_in_common_are_asked_by_their_labels() -> None:
    items = _items()
    assert items and all(len(i.must) == 2 and i.act == "facts" for i in items)
    for i in items:
        a, b = (set(k.split("_")) for k in i.must)
        assert not a & b  # each asked by its own words
        assert not set(i.must) & set(i.must_not)


def test_a_fact_held_inside_an_asked_value_is_no_fault() -> None:
    for i in _items():
        if "phone_number" in i.must:  # its last four are said with it
            assert "phone_last_four" not in i.must_not
        elif "phone_last_four" not in i.must:  # asked for neither: saying it is a fault
            assert "phone_last_four" in i.must_not


def test_the_goal_caller_says_the_two_and_no_other() -> None:
    sc = make_scenario(INFO)
    for i in _items():
        row = run_item(i, sc, GoalTextCaller(sc))
        assert row.agrees, (i.turn, row.reply, row.why)
