"""``identity_asked`` and ``part_held``: generated from each scenario's own facts, and graded
(:mod:`voxbench.bench.weak_identity`)."""

from __future__ import annotations

from voxbench.bench.callers import GoalTextCaller
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_turns import generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"first_name": "Maria", "last_name": "Park", "phone_number": "617-555-4821",
        "employee_id": "EMP095417", "phone_last_four": "4821"}  # fmt: skip


def test_identity_items_ask_for_its_identifier_not_its_phone_number() -> None:
    items = [i for i in generate("itsm", make_scenario(INFO)) if i.cls == "identity_asked"]
    assert items and all(i.must == ["employee_id"] and i.act == "facts" for i in items)


def test_part_held_is_asked_only_when_the_whole_is_not_held() -> None:
    with_whole = [i for i in generate("itsm", make_scenario(INFO)) if i.cls == "part_held"]
    assert not with_whole  # phone_number held: the whole field is no part asked
    info = {k: v for k, v in INFO.items() if k != "phone_number"}
    items = [i for i in generate("itsm", make_scenario(info)) if i.cls == "part_held"]
    assert items and all(i.must == ["phone_last_four"] and "phone number" in i.turn for i in items)


def test_the_goal_caller_agrees_on_both_classes() -> None:
    sc = make_scenario({k: v for k, v in INFO.items() if k != "phone_number"})
    items = [i for i in generate("itsm", sc) if i.cls in ("identity_asked", "part_held")]
    for i in items:
        row = run_item(i, sc, GoalTextCaller(sc))
        assert row.agrees, (i.turn, row.reply, row.why)
