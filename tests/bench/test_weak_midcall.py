"""The weak-agent classes of the middle of a call and of an agent that makes no progress
(:mod:`voxbench.bench.weak_midcall`): made from a scenario's own requests, graded by the ending
acts, and run on the real goal caller."""

from __future__ import annotations

from voxbench.bench.callers import GoalRules
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_endings import problem
from voxbench.bench.weak_midcall import STALL_LONG
from voxbench.bench.weak_turns import WeakItem, generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"employee_id": "EMP824156", "unit_code": "5B-PEDS"}
INTENTS = ["Swap my shift with a colleague", "Register for on-call availability", "Renew my nursing license"]
MUST = ["Your shift swap is approved.", "Your on-call registration is submitted."]


def _scenario(intents: list[str] | None = INTENTS):  # type: ignore[no-untyped-def]
    return make_scenario(INFO, goal="You want to swap a shift, register for on-call and renew a license.",
                         intents=intents, must=MUST, start="Hi, I have a few things.")  # fmt: skip


def _items(sc, cls: str) -> list[WeakItem]:  # type: ignore[no-untyped-def]
    return [i for i in generate("medical_hr", sc) if i.cls == cls]


def test_middle_and_two_done_leave_the_third_request_open() -> None:
    sc = _scenario()
    middle = _items(sc, "end_middle_done")[0]
    assert "on-call" in middle.turn and "swap your shift" in middle.context[0]
    assert middle.open_words == [["renew", "nursing", "license"]]
    two = _items(sc, "end_two_done_open")[0]
    assert "swap your shift" in two.turn and "on-call" in two.turn and two.open_words == middle.open_words
    every = _items(sc, "end_all_done_one_turn")[0]
    assert "renew your nursing license" in every.turn and every.act == "ends_or_checks"


def test_two_requests_get_no_middle_and_one_gets_only_the_stalls() -> None:
    two = _scenario(INTENTS[:2])
    assert not _items(two, "end_middle_done") and _items(two, "end_done_offer_open")
    one = _scenario(INTENTS[:1])
    classes = {
        i.cls for i in generate("medical_hr", one) if i.cls.startswith("end_") and "stall" not in i.cls
    }
    assert not classes & {"end_done_unnamed_open", "end_done_offer_open", "end_refused_anything_open"}
    assert _items(one, "end_stall_twice") and _items(one, "end_stall_long")


def test_stall_items_repeat_one_turn() -> None:
    for item in _items(_scenario(), "end_stall_long"):
        assert len(item.context) == STALL_LONG - 1 and set(item.context) == {item.turn}
    for item in _items(_scenario(), "end_stall_twice"):
        assert item.context == [item.turn] and item.act == "not_end"


def test_grading_of_the_midcall_acts() -> None:
    item = _items(_scenario(), "end_done_offer_open")[0]
    assert problem(item, "No, thanks. I also need to register for on-call availability.", False, False) == ""
    assert problem(item, "Yes, please.", False, False) == "a yes to an offer outside its goal"
    assert problem(item, "No, thanks.", False, False) == "did not state an open request"
    long = _items(_scenario(), "end_stall_long")[0]
    assert problem(long, "", False, True) == "" and problem(long, "Bye.", True, False) == ""
    assert problem(long, "", False, False) == "did not end"


def test_the_goal_caller_agrees_on_every_midcall_class() -> None:
    for intents in (INTENTS, INTENTS[:2], INTENTS[:1]):
        sc = _scenario(intents)
        items = [i for i in generate("medical_hr", sc) if i.cls in _MIDCALL]
        rows = [run_item(i, sc, GoalRules().make("medical_hr", sc)) for i in items]
        bad = [(r.item.cls, r.item.turn, r.reply, r.why) for r in rows if not r.agrees]
        assert not bad, bad


_MIDCALL = {"end_middle_done", "end_two_done_open", "end_all_done_one_turn", "end_done_unnamed_open",
            "end_refused_anything_open", "end_done_offer_open", "end_done_offer_last", "end_done_questions_open", "end_done_questions_last",
            "end_stall_twice", "end_stall_long"}  # fmt: skip
