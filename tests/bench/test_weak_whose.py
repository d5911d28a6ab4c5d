"""``whose_other_held``, ``whose_other_unheld`` and ``whose_own_your``: a fact asked by its owner,
generated from a scenario that gives the caller another person's facts (:mod:`voxbench.bench.weak_whose`)
and graded on the person's value, a "don't have", the caller's own value."""

from __future__ import annotations

import pytest

from voxbench.bench.caller_check import Grounding, goal_text
from voxbench.bench.callers import GoalTextCaller
from voxbench.bench.matcher import goal_facts
from voxbench.bench.weak_check import grade, run_item
from voxbench.bench.weak_facts import Leaf
from voxbench.bench.weak_turns import WeakItem, generate
from voxbench.bench.weak_whose import owner, same_field

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {
    "Your confirmation number": "Q7T2LM",
    "Your last name": "Ortega",
    "Your phone number": "617-555-0190",
    "Wife's name": "Lena Ortega",
    "Wife's travel date": "2026-05-02",
    "Wife's airline": "Northwind",
}
STAFF = {
    "first_name": "Ines",
    "date_of_birth": "1988-02-11",
    "employee_id": "EMP440122",
    "coworker_employee_id": "EMP551903",
}


def _items(info: dict[str, object], cls: str) -> list[WeakItem]:
    return [i for i in generate("airline", make_scenario(info)) if i.cls == cls]


def test_a_key_has_an_owner_and_a_field() -> None:
    other = Leaf(
        key="departing_employee_id", value="EMP1", words=["departing", "employee", "id"], kind="code"
    )
    mine = Leaf(key="employee_id", value="EMP2", words=["employee", "id"], kind="code")
    assert owner(other) == ("departing employee", ["id"]) and owner(mine) == ("", ["employee", "id"])
    assert same_field(mine, other)


def test_the_three_classes_are_generated_from_the_owners_facts() -> None:
    held = _items(INFO, "whose_other_held")
    assert held and all(i.act == "facts" and i.must[0].startswith("Wife's") for i in held)
    unheld = _items(INFO, "whose_other_unheld")
    assert unheld and all(i.act == "not_have" and "Wife" not in " ".join(i.must_not) for i in unheld)
    assert {k for i in unheld for k in i.must_not} <= {"Your confirmation number", "Your phone number"}
    own = _items(STAFF, "whose_own_your")
    assert [(i.must, i.must_not) for i in own] == [(["employee_id"], ["coworker_employee_id"])]
    assert not _items({"employee_id": "EMP440122"}, "whose_other_held")  # one person: none


def test_another_persons_fact_forbids_none_of_their_others() -> None:
    """An own fact of the field is all a reply must not give: none (``must_not=[]``) is none, not
    the other person's facts of the kind (airline 7.4.1: 'his airline' forbade his destination)."""
    info = {**INFO, "Wife's destination city": "Denver"}
    held = _items(info, "whose_other_held")
    assert held and all(not any(k.startswith("Wife's") for k in i.must_not) for i in held)


def test_two_other_persons_forbid_each_others_fact_of_the_field() -> None:
    """itsm 79: the caller, a new hire and a departing employee, an ID each. 'Their ID' forbids the
    other person's too; the caller's own ID is one item, forbidding both of theirs."""
    info = {"employee_id": "EMP440122", "new_hire_id": "EMP551903", "departing_employee_id": "EMP662014"}
    held = {i.must[0]: set(i.must_not) for i in _items(info, "whose_other_held")}
    assert held == {
        "new_hire_id": {"employee_id", "departing_employee_id"},
        "departing_employee_id": {"employee_id", "new_hire_id"},
    }
    own = _items(info, "whose_own_your")
    assert [(i.must, set(i.must_not)) for i in own] == [
        (["employee_id"], {"new_hire_id", "departing_employee_id"})
    ]


def test_grading_fails_the_own_value_for_another_persons() -> None:
    item = next(i for i in _items(INFO, "whose_other_unheld") if i.must_not == ["Your confirmation number"])
    facts, ground = goal_facts(INFO), Grounding(INFO, goal_text(make_scenario(INFO)))
    ok, why, _ = grade(item, "It's Q 7 T 2 L M.", False, facts, ground)
    assert not ok and "said Your confirmation number" in why
    assert grade(item, "I don't have her confirmation number, sorry.", False, facts, ground)[0]


@pytest.mark.xfail(
    strict=True,
    reason="a known gap: the goal caller gives its own fact for another person's; its fix (branch "
    "whose; whose2 and whose3) lost one test-half request, then one test-half decision, so it is not kept",
)
def test_the_goal_caller_agrees_on_the_three_classes() -> None:
    for info in (INFO, STAFF):
        sc = make_scenario(info)
        items = [i for i in generate("airline", sc) if i.cls.startswith("whose_")]
        rows = [run_item(i, sc, GoalTextCaller(sc)) for i in items]
        assert rows and all(r.agrees for r in rows), [
            (r.item.turn, r.reply, r.why) for r in rows if not r.agrees
        ]
