"""The weak-agent offers said as statements (:mod:`voxbench.bench.weak_offers`): made from a
scenario's own requests and facts, graded on what the reply takes, run on the real goal caller."""

from __future__ import annotations

from voxbench.bench.callers import GoalRules
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_offers import problem
from voxbench.bench.weak_turns import WeakItem, generate, table

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"employee_id": "EMP310277", "building_code": "BLD4"}
INTENTS = ["Order a replacement monitor", "Move my desk to building 4"]
CLASSES = ("offer_stated_one", "offer_stated_choice", "offer_stated_fact")


def _scenario(intents: list[str] | None = INTENTS):  # type: ignore[no-untyped-def]
    return make_scenario(INFO, goal="You want a replacement monitor and your desk moved.", intents=intents,
                         start="Hi, I need two things.")  # fmt: skip


def _items(sc) -> list[WeakItem]:  # type: ignore[no-untyped-def]
    return [i for i in generate("itsm", sc) if i.cls in CLASSES]


def test_one_item_of_each_class_from_the_scenarios_own_requests_and_facts() -> None:
    items = {i.cls: i for i in _items(_scenario())}
    assert set(items) == set(CLASSES)
    one, choice, fact = (items[c] for c in CLASSES)
    assert "?" not in one.turn + choice.turn + fact.turn
    assert any(r in one.turn for r in ("order a replacement monitor", "move your desk to building 4"))
    assert choice.not_offered and choice.not_offered[0] in choice.turn and choice.open_words
    assert fact.turn.startswith("I can see")
    assert sum(v in fact.turn for v in ("EMP310277", "BLD4", "B L D four")) == 1  # one of its facts, said
    assert not _items(_scenario(intents=None))  # a goal sentence is no verb phrase to offer


def test_the_grading_reads_what_the_reply_takes() -> None:
    one, choice, fact = ({i.cls: i for i in _items(_scenario())}[c] for c in CLASSES)
    taken = table().offer_taken
    assert problem(one, "Yes, please.", False, taken) == ""
    assert problem(one, "No, thanks.", False, taken) == "a no"
    assert problem(choice, "Yes, please do that.", False, taken) == "did not name the request it came for"
    other = choice.not_offered[0]
    assert problem(choice, f"Please set up the {other}.", False, taken).startswith("chose")
    assert problem(fact, "Great, please go ahead.", False, taken).startswith("took a statement of fact")
    assert problem(fact, "Okay.", False, taken) == ""
    assert problem(fact, "Okay. Goodbye.", True, taken) == "hung up"


def test_the_goal_caller_agrees_on_every_offer_class() -> None:
    sc = _scenario()
    rows = [run_item(i, sc, GoalRules().make("itsm", sc)) for i in _items(sc)]
    assert {r.item.cls for r in rows} == set(CLASSES)
    assert [(r.item.cls, r.item.turn, r.why, r.reply) for r in rows if not r.agrees] == []
