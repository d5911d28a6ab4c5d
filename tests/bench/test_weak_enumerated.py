"""``enumerated_asks``: three to five of the caller's facts asked as a numbered list, written and
in two recognised forms, generated from each scenario's own facts (:mod:`voxbench.bench.weak_enumerated`)."""

from __future__ import annotations

from voxbench.bench.callers import GoalTextCaller
from voxbench.bench.weak_check import act_problem, run_item
from voxbench.bench.weak_enumerated import FORMS
from voxbench.bench.weak_turns import WeakItem, generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {
    "first_name": "Maria",
    "last_name": "Park",
    "employee_id": "EMP141043",
    "visa_petition_number": "NPJ9237475801",
    "travel_date": "2026-03-20",
    "departure_time": "14:00",
    "bag_count": "2",
}


def _items() -> list[WeakItem]:
    return [i for i in generate("medical_hr", make_scenario(INFO)) if i.cls == "enumerated_asks"]


def test_one_item_per_form_with_three_to_five_facts_no_count() -> None:
    items = _items()
    assert len(items) == len(FORMS)
    assert all(3 <= len(i.must) <= 5 and i.act == "listed" and "bag_count" not in i.must for i in items)


def test_the_forms_as_heard_live() -> None:
    assert FORMS["words"](["first name", "visa petition number", "employee ID"]) == (
        "one. Your first name two. Your visa petition, number three. Your employee ID."
    )
    assert FORMS["digits"](["first name", "employee ID", "travel date"]) == (
        "1, your first name 2, your employee ID 3, your travel date."
    )


def test_a_correction_is_a_fault() -> None:
    assert act_problem("listed", "No, that's not right. The employee ID is E M P one four.", False)
    assert not act_problem("listed", "The employee ID is E M P one four one zero four three.", False)


def test_the_goal_caller_says_the_facts_asked() -> None:
    sc = make_scenario(INFO)
    for i in _items():
        row = run_item(i, sc, GoalTextCaller(sc))
        assert row.agrees, (i.turn, row.reply, row.why)
