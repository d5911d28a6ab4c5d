"""``end_anything_else_values``: the last request reported done, then "anything else?" naming the
caller's values (:mod:`voxbench.bench.weak_donelist`), built from the scenario's
own requests and facts; the anything-else question naming them ends the call."""

from __future__ import annotations

from voxbench.bench.callers import GoalTextCaller
from voxbench.bench.matcher import facts_said, goal_facts
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_donelist import CLASSES
from voxbench.bench.weak_turns import WeakItem, generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {
    "employee_id": "EMP126225",
    "first_name": "Priya",
    "last_name": "Sharma",
    "date_of_birth": "1987-09-14",
    "phone_number": "617-555-4829",
}
INTENTS = ["Update the direct deposit account", "Request a new badge"]


def _items(cls: str) -> list[WeakItem]:
    sc = make_scenario(INFO, intents=INTENTS)
    return [i for i in generate("medical_hr", sc) if i.cls == cls]


def test_items_name_its_own_values_after_the_other_requests_done() -> None:
    for cls in CLASSES:
        items = _items(cls)
        assert items, cls
        for i in items:
            assert i.act == "ends_or_checks" and len(i.context) == len(INTENTS) - 1
            assert sum(v in i.turn for v in ("EMP126225", "Priya", "Sharma", "617-555-4829")) >= 1


def test_anything_else_naming_values_ends_the_call() -> None:
    sc = make_scenario(INFO, intents=INTENTS)
    for i in _items("end_anything_else_values"):
        row = run_item(i, sc, GoalTextCaller(sc))
        assert row.agrees, (i.turn, row.reply, row.why)


def test_readback_items_read_its_own_values_right_after_the_report() -> None:
    last, first = _items("end_readback_last"), _items("end_readback_open")
    assert last and first
    for i in last:
        assert i.act == "confirms_ends" and len(i.context) == len(INTENTS) - 1
        assert "?" in i.turn
    for i in first:
        assert i.act == "confirms_open" and not i.context and i.open_words  # the second request open
    facts = goal_facts(INFO)
    for i in [*last, *first]:  # two or three of its own values, each said as it holds it
        assert len(facts_said(i.turn, facts)) >= 2, i.turn


def test_readback_confirmed_in_the_last_report_ends_and_in_the_first_does_not() -> None:
    sc = make_scenario(INFO, intents=INTENTS)
    for i in [*_items("end_readback_last"), *_items("end_readback_open")]:
        row = run_item(i, sc, GoalTextCaller(sc))
        assert row.agrees, (i.cls, i.turn, row.reply, row.why)


def test_confirms_acts_need_a_yes() -> None:
    from voxbench.bench.weak_endings import problem

    i = _items("end_readback_last")[0]
    assert problem(i, "Yes, that's right. Thanks, goodbye.", True, False) == ""
    assert problem(i, "Thanks, goodbye.", True, False).startswith("not a yes")
    assert problem(i, "Yes, that's right.", False, False) == "did not end"
    j = _items("end_readback_open")[0]
    assert problem(j, "Yes, that's right.", False, False) == ""
    assert problem(j, "Yes, that's right. Goodbye.", True, False) == "ended with a request open"


def test_wrong_and_step_items_of_the_last_request() -> None:
    wrong, step = _items("end_readback_last_wrong"), _items("end_readback_step")
    assert wrong and step
    for i in wrong:  # one value changed: the right value of that fact is not in the turn
        assert i.act == "corrects_open" and len(i.must) == 1 and len(i.context) == len(INTENTS) - 1
        assert INFO[i.must[0]] not in i.turn
    for i in step:  # a step said done, the values read back before the action
        assert i.act == "confirms_open" and len(i.context) == len(INTENTS) - 1 and "?" in i.turn
        assert "request a new badge" not in i.turn


def test_a_read_back_wrong_or_before_the_action_never_ends_the_call() -> None:
    sc = make_scenario(INFO, intents=INTENTS)
    for i in [*_items("end_readback_last_wrong"), *_items("end_readback_step")]:
        row = run_item(i, sc, GoalTextCaller(sc))
        assert row.agrees, (i.cls, i.turn, row.reply, row.why)


def test_corrects_open_needs_a_no_and_no_ending() -> None:
    from voxbench.bench.weak_endings import problem

    i = _items("end_readback_last_wrong")[0]
    assert problem(i, "No, that's not right. The employee ID is E M P 1 2 6 2 2 5.", False, False) == ""
    assert problem(i, "Yes, that's right.", False, False).startswith("not a no")
    assert problem(i, "No, the ID is E M P 1 2 6 2 2 5. Thanks, goodbye.", True, False).startswith("ended")
