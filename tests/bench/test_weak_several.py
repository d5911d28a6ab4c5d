"""``readback_several_*`` and ``listed_*``: several of the caller's values read back in one question,
several fields asked in one listed ask, generated from each scenario's own facts
(:mod:`voxbench.bench.weak_several`), and graded as the classes' acts say."""

from __future__ import annotations

from voxbench.bench.caller_check import Grounding, goal_text
from voxbench.bench.callers import GoalTextCaller
from voxbench.bench.matcher import goal_facts
from voxbench.bench.weak_check import grade, run_item
from voxbench.bench.weak_several import CLASSES, spelled
from voxbench.bench.weak_turns import WeakItem, generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {
    "confirmation_number": "ZK3FFW",
    "first_name": "Samantha",
    "last_name": "Rodriguez",
    "date_of_birth": "1987-09-14",
    "phone_number": "617-555-4829",
    "max_budget": "300",
}


def _items(cls: str) -> list[WeakItem]:
    return [i for i in generate("airline", make_scenario(INFO)) if i.cls == cls]


def test_each_class_has_items_from_the_scenarios_own_facts() -> None:
    for cls in CLASSES:
        assert _items(cls), cls
    for i in _items("readback_several_right"):
        assert i.act == "yes" and not i.must
        assert "300" not in i.turn  # a limit it wants is no value it holds as it is
    for i in _items("readback_several_one_wrong"):
        (key,) = i.must
        assert i.act == "correct" and INFO[key] not in i.turn and spelled(INFO[key]) not in i.turn
    for i in _items("listed_held"):
        assert i.act == "facts" and 3 <= len(i.must) <= 4
    for i in _items("listed_one_unheld"):
        assert i.act == "facts_lacks" and 2 <= len(i.must) <= 3
    for i in _items("end_stall_readback"):  # three asks, then eight that bring nothing, one a read-back
        assert i.act == "ends_by" and len(i.context) == 3 + 7 and i.context[3] == i.context[0]
        asks, stall = i.context[:3], [*i.context[3:], i.turn]  # the read-back second of the eight
        assert stall[1] not in asks and stall[:1] + stall[2:] == [asks[n % 3] for n in range(7)]


def test_spelled_values_are_letters_apart() -> None:
    assert spelled("ZK3FFW") == "Z K 3 F F W"
    assert spelled("Rodriguez") == "R O D R I G U E Z"


def test_grading_fails_what_the_live_caller_said() -> None:
    sc = make_scenario(INFO)
    facts, ground = goal_facts(INFO), Grounding(INFO, goal_text(sc))
    right = _items("readback_several_right")[0]
    assert not grade(right, "Sorry, I don't have that information.", False, facts, ground)[0]
    assert grade(right, "Yes, that's right.", False, facts, ground)[0]
    unheld = _items("listed_one_unheld")[0]
    assert not grade(unheld, "It's Z K 3 F F W.", False, facts, ground)[0]


def test_the_goal_caller_agrees_on_the_classes() -> None:
    sc = make_scenario(INFO)
    for cls in CLASSES:
        for item in _items(cls):
            row = run_item(item, sc, GoalTextCaller(sc))
            assert row.agrees, (cls, item.turn, row.reply, row.why)


def test_the_goal_caller_ends_a_stall_with_a_read_back_in_it() -> None:
    """``end_stall_readback``: the read-back of two values it gave, among asks of them again, does
    not keep the call going (a fact confirmed the first time is no turn forgiven, :class:`.stall.Stalls`)."""
    sc = make_scenario(INFO)
    for item in _items("end_stall_readback"):
        row = run_item(item, sc, GoalTextCaller(sc))
        assert row.agrees, (item.turn, row.reply, row.why)
