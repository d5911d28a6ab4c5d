"""``some_held_asked``, ``unheld_alone`` and ``present_asked``: a fact and a field the caller lacks asked together, and
the date of the call asked, generated from each scenario's own facts (:mod:`voxbench.bench.weak_lack`);
graded on the fact said and the field said lacking, and on the call's date said and none of the
caller's own dates."""

from __future__ import annotations

from voxbench.bench.callers import GoalTextCaller
from voxbench.bench.weak_check import grade, run_item
from voxbench.bench.weak_turns import WeakItem, generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {
    "first_name": "Jamal",
    "date_of_birth": "1991-08-22",
    "employee_id": "EMP850800",
    "shift_date": "2026-09-14",
    "shift_start_time": "3:00 PM",
}


def _items(cls: str) -> list[WeakItem]:
    return [i for i in generate("medical_hr", make_scenario(INFO)) if i.cls == cls]


def test_a_held_fact_is_asked_beside_a_field_no_fact_holds() -> None:
    items = _items("some_held_asked")
    assert items and all(len(i.must) == 1 and i.act == "facts_lacks" for i in items)
    for i in items:
        assert i.must[0].replace("_", " ").replace(" id", " ID") in i.turn


def test_the_present_item_holds_the_call_date_and_forbids_the_callers_own_dates() -> None:
    (item,) = _items("present_asked")
    assert item.when == make_scenario(INFO).current_date_time.split(" ")[0]
    assert set(item.must_not) == {"date_of_birth", "shift_date", "shift_start_time"}


def test_grading_the_two_classes_fails_what_the_live_caller_said() -> None:
    from voxbench.bench.caller_check import Grounding, call_date_time, goal_text
    from voxbench.bench.matcher import goal_facts

    sc = make_scenario(INFO)
    facts, ground = goal_facts(INFO), Grounding(INFO, goal_text(sc))
    ground.add(call_date_time(sc))
    (present,) = _items("present_asked")
    ok, why, _ = grade(present, "The date of birth is August 22, 1991. The date is September 14, 2026.",
                       False, facts, ground)  # fmt: skip
    assert not ok and "date of the call not said" in why and "said date_of_birth" in why
    assert grade(present, "It's June 18, 2026, about 9 AM.", False, facts, ground)[0]
    held = next(i for i in _items("some_held_asked") if i.must == ["date_of_birth"])
    said = "My date of birth is August 22, 1991."
    assert not grade(held, said, False, facts, ground)[0]  # the passport number's lack not said
    assert grade(held, f"{said} Sorry, I don't have a passport number.", False, facts, ground)[0]


def test_the_goal_caller_agrees_on_both_classes() -> None:
    """Every field, of a value head ('passport number') or of none ('vehicle license plate')."""
    sc = make_scenario(INFO)
    held = _items("some_held_asked")
    assert held
    for i in held + _items("present_asked"):
        row = run_item(i, sc, GoalTextCaller(sc))
        assert row.agrees, (i.turn, row.reply, row.why)


def test_an_identifier_of_a_thing_its_dates_are_of_is_asked_alone() -> None:
    (item,) = _items("unheld_alone")
    assert "shift" in item.turn and item.must == [] and item.act == "facts_lacks"
    sc = make_scenario(INFO)
    row = run_item(item, sc, GoalTextCaller(sc))
    assert row.agrees, (item.turn, row.reply, row.why)
    from voxbench.bench.caller_check import Grounding, goal_text
    from voxbench.bench.matcher import goal_facts

    dates_only = "The shift date is September 14, 2026. The shift time is 3 PM."  # as said before
    assert not grade(item, dates_only, False, goal_facts(INFO), Grounding(INFO, goal_text(sc)))[0]
