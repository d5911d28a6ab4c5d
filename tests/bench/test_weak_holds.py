"""``hold_turn``: a hold naming one of the caller's fields, first thing and after that field was
asked (:mod:`voxbench.bench.weak_holds`); graded as a wait: no fact, nothing lacked, no question."""

from __future__ import annotations

from voxbench.bench.caller_check import Grounding, goal_text
from voxbench.bench.callers import GoalTextCaller
from voxbench.bench.matcher import goal_facts
from voxbench.bench.weak_check import grade, run_item
from voxbench.bench.weak_turns import WeakItem, generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"first_name": "Jamal", "employee_id": "EMP850800", "shift_date": "2026-09-14"}


def _items() -> list[WeakItem]:
    return [i for i in generate("medical_hr", make_scenario(INFO)) if i.cls == "hold_turn"]


def test_a_hold_is_made_first_thing_and_after_its_field_was_asked() -> None:
    first, after = _items()
    assert first.act == after.act == "wait" and not first.context and len(after.context) == 1
    assert set(first.must_not) == set(INFO) and not first.must


def test_grading_fails_a_hold_read_as_a_question() -> None:
    sc = make_scenario(INFO)
    facts, ground = goal_facts(INFO), Grounding(INFO, goal_text(sc))
    item = _items()[0]
    assert not grade(item, "I'm afraid I don't have that.", False, facts, ground)[0]
    assert not grade(item, "My employee ID is E M P eight five zero eight zero zero.", False, facts, ground)[
        0
    ]
    assert grade(item, "", False, facts, ground)[0]


def test_the_goal_caller_waits_on_both_items() -> None:
    sc = make_scenario(INFO)
    for i in _items():
        row = run_item(i, sc, GoalTextCaller(sc))
        assert row.agrees, (i.turn, row.reply, row.why)
