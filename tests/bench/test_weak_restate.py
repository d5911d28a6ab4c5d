"""The weak-agent classes of a value stated then asked for again, and its control
(:mod:`voxbench.bench.weak_restate`): generated from a scenario's own facts, graded by their acts."""

from __future__ import annotations

from voxbench.bench.caller_check import Grounding
from voxbench.bench.matcher import facts_said, goal_facts
from voxbench.bench.weak_check import grade
from voxbench.bench.weak_turns import generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"first_name": "Maria", "employee_id": "EMP031482", "phone_last_four": "3614", "desired_floor": "FL3"}


def _items(cls: str) -> list:  # type: ignore[type-arg]
    return [i for i in generate("itsm", make_scenario(INFO)) if i.cls == cls]


def test_a_stated_value_is_asked_for_by_name_after_the_caller_gave_it() -> None:
    items = _items("stated_then_asked")
    assert items and all(i.act == "restate" and len(i.must) == 1 and len(i.context) == 1 for i in items)
    for i in items:
        label = i.context[0].split("your ")[-1].rstrip("?")  # asked in the context, so given
        stated, asked = i.turn.split(". ", 1)
        assert facts_said(stated, goal_facts(INFO)) == i.must  # its value stated in the announcement
        assert asked.rstrip("?.").endswith(label) and not facts_said(
            asked, goal_facts(INFO)
        )  # named, not said


def test_the_control_asks_another_field_and_must_not_repeat_the_read_one() -> None:
    items = _items("readback_other_asked")
    assert items and all(i.act == "only_asked" and len(i.must) == 1 and len(i.must_not) == 1 for i in items)
    assert all(i.must != i.must_not for i in items)


def _grade(item, reply: str) -> tuple[bool, str]:  # type: ignore[no-untyped-def]
    ground = Grounding(INFO, "")
    ground.add(item.turn)
    ok, why, _ = grade(item, reply, False, goal_facts(INFO), ground)
    return ok, why


def test_a_bare_acknowledgement_to_a_value_asked_again_disagrees_the_value_agrees() -> None:
    item = next(i for i in _items("stated_then_asked") if i.must == ["employee_id"])
    assert not _grade(item, "Alright.")[0]
    assert not _grade(item, "I'm afraid I don't have that.")[0]
    assert _grade(item, "Yes, it's E M P zero three one four eight two.") == (True, "")


def test_repeating_the_read_back_value_in_the_control_disagrees() -> None:
    item = next(i for i in _items("readback_other_asked") if i.must_not == ["employee_id"])
    other = next(v for k, v in INFO.items() if [k] == item.must)
    assert _grade(item, f"It's {other}.") == (True, "")
    assert not _grade(item, f"It's {other}. My employee ID is EMP031482.")[0]
