"""The weak-agent turns for a goal with a fallback (:mod:`voxbench.bench.weak_fallback`): read by
the bench's own patterns, graded on the reply, run on the real goal caller."""

from __future__ import annotations

from voxbench.bench.callers import GoalRules
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_endings import requests_of
from voxbench.bench.weak_fallback import fallback_pairs, problem
from voxbench.bench.weak_turns import Builder, WeakItem, generate, table

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"employee_id": "EMP204518", "room_name": "Harbor"}
INTENTS = ["Book the Harbor room for Thursday", "Get added to the standby list for the Harbor room"]
GOAL = ("You want to book the Harbor room for Thursday, but if it is already booked, you are willing to be "
        "added to the standby list for it.")  # fmt: skip
CLASSES = ("fallback_unstated", "fallback_offered", "fallback_choice")


def _scenario(goal: str = GOAL):  # type: ignore[no-untyped-def]
    return make_scenario(INFO, goal=goal, intents=INTENTS, start="Hi, I need a meeting room.",
                         escalation="Do not ask for a live agent.")  # fmt: skip


def _items(sc) -> list[WeakItem]:  # type: ignore[no-untyped-def]
    return [i for i in generate("itsm", sc) if i.cls in CLASSES]


def test_the_fallback_is_read_from_the_goal_text() -> None:
    t = table()
    assert t.fallback is not None and t.endings is not None
    minor = set(t.endings.minor)
    assert fallback_pairs(GOAL, INTENTS, t.fallback, minor) == [(1, 0)]
    plain = "You want the Harbor room for Thursday and a place on the standby list for it."
    assert fallback_pairs(plain, INTENTS, t.fallback, minor) == []
    assert requests_of(Builder("itsm", _scenario())) == INTENTS[:1]  # no request of its own


def test_one_item_of_each_class_and_none_without_a_fallback() -> None:
    items = {i.cls: i for i in _items(_scenario())}
    assert set(items) == set(CLASSES)
    assert items["fallback_unstated"].not_offered == ["added standby list"]
    assert "standby list" in items["fallback_offered"].turn and len(items["fallback_offered"].context) == 2
    assert items["fallback_choice"].not_offered[0] in items["fallback_choice"].turn
    assert not _items(_scenario("You want the Harbor room for Thursday and the standby list for it."))


def test_the_grading_reads_the_statement() -> None:
    item = {i.cls: i for i in _items(_scenario())}["fallback_unstated"]
    assert problem(item, "I need to book the Harbor room for Thursday.", False) == ""
    assert problem(item, "I need the Harbor room, and to get on the standby list.", False).startswith(
        "stated"
    )
    assert problem(item, "I need to book the Harbor room. Bye.", True) == "hung up"
    assert problem(item, "I need some help.", False) == "did not state its request"


def test_the_goal_caller_agrees_on_every_fallback_class() -> None:
    sc = _scenario()
    rows = [run_item(i, sc, GoalRules().make("itsm", sc)) for i in _items(sc)]
    assert [(r.item.cls, r.why, r.reply) for r in rows if not r.agrees] == []
