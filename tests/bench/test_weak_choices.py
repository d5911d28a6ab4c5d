"""The weak-agent option offers (:mod:`voxbench.bench.weak_choices`): made from a scenario's own
requests, graded on the option the reply names, run on the real goal caller."""

from __future__ import annotations

from voxbench.bench.callers import GoalRules
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_choices import CLASSES, problem
from voxbench.bench.weak_turns import WeakItem, generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"employee_id": "EMP310277", "building_code": "BLD4"}
INTENTS = ["Order a replacement monitor", "Move my desk to building 4"]


def _scenario(intents: list[str] | None = INTENTS):  # type: ignore[no-untyped-def]
    return make_scenario(INFO, goal="You want a replacement monitor and your desk moved.", intents=intents,
                         start="Hi, I need two things.")  # fmt: skip


def _items(sc) -> list[WeakItem]:  # type: ignore[no-untyped-def]
    return [i for i in generate("itsm", sc) if i.cls in CLASSES]


def test_one_item_of_each_class_from_the_scenarios_own_requests() -> None:
    items = {i.cls: i for i in _items(_scenario())}
    assert set(items) == set(CLASSES)
    for i in items.values():
        assert i.open_words and i.not_offered and all(o in i.turn for o in i.not_offered)
        assert any(
            r in i.turn.lower() for r in ("order a replacement monitor", "move your desk to building 4")
        )
    assert len(items["option_three"].not_offered) == 2
    assert items["option_after_refusal"].act == "refuses_other"
    assert not _items(_scenario(intents=None))  # a goal sentence is no verb phrase to offer


def test_the_grading_reads_the_option_named() -> None:
    items = {i.cls: i for i in _items(_scenario())}
    pick, other = items["option_or"], items["option_or"].not_offered[0]
    words = " ".join(pick.open_words[0])
    assert problem(pick, "Yes, go ahead.", False) == "a yes to a choice"
    assert problem(pick, f"I'd like to {words}.", False) == ""
    assert problem(pick, f"The {other}, please.", False).startswith("chose")
    assert problem(pick, "Okay.", False) == "did not name the option its goal wants"
    refused = items["option_after_refusal"]
    assert problem(refused, "Yes, please.", False) == "a yes to an offer outside its goal"
    assert problem(refused, "No, thanks. I still need the monitor.", False) == ""


def test_the_goal_caller_agrees_on_every_option_class() -> None:
    sc = _scenario()
    rows = [run_item(i, sc, GoalRules().make("itsm", sc)) for i in _items(sc)]
    assert {r.item.cls for r in rows} == set(CLASSES)
    assert [(r.item.cls, r.item.turn, r.why, r.reply) for r in rows if not r.agrees] == []
