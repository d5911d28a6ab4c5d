"""The weak-agent classes around the last report (:mod:`voxbench.bench.weak_closings`): made from a
scenario's own requests, must-haves and escalation rule, graded by the ending acts, and run on the
real goal caller."""

from __future__ import annotations

import pytest

from voxbench.bench.callers import GoalRules
from voxbench.bench.weak_check import run_item
from voxbench.bench.weak_endings import BYE, problem
from voxbench.bench.weak_turns import WeakItem, generate

from ..pipelines.caller_goal.conftest import make_scenario

INFO = {"employee_id": "EMP824156", "unit_code": "5B-PEDS"}
INTENTS = ["Swap my shift with a colleague", "Register for on-call availability"]
MUST = [
    "Your shift swap is approved and you receive a swap confirmation number.",
    "Your on-call registration is submitted for the weekend rotation.",
]
ALLOWS = (
    "If the agent cannot help, you may ask to be transferred to a live agent. Accept a transfer if offered."
)


def _scenario(intents: list[str] | None = INTENTS, escalation: str | None = None):  # type: ignore[no-untyped-def]
    kw = {"escalation": escalation} if escalation else {}
    return make_scenario(INFO, goal="You want to swap a shift and register for on-call availability.",
                         intents=intents, must=MUST, start="Hi, I have two scheduling things.", **kw)  # fmt: skip


def _items(sc, cls: str) -> list[WeakItem]:  # type: ignore[no-untyped-def]
    return [i for i in generate("medical_hr", sc) if i.cls == cls]


def test_other_order_reports_the_last_request_first() -> None:
    first = _items(_scenario(), "end_other_order")[0]
    assert "on-call" in first.turn and first.act == "next_request"
    assert first.open_words and "swap" in first.open_words[0]
    last = _items(_scenario(), "end_other_order_all")[0]
    assert "swap your shift" in last.turn and "on-call" in last.context[0] and last.act == "ends_or_checks"


def test_closing_classes_follow_the_last_report() -> None:
    sc = _scenario()
    for cls in ("end_last_no_question", "end_that_all", "end_done_bye", "end_hold_last", "end_will_do_last"):
        item = _items(sc, cls)[0]
        assert len(item.context) == 1 and "swap your shift" in item.context[0], cls
    assert "?" not in _items(sc, "end_last_no_question")[0].turn
    assert "register for on-call availability" in _items(sc, "end_will_do_last")[0].turn


def test_part_done_reports_one_must_have_and_leaves_the_other_open() -> None:
    item = _items(_scenario(), "end_part_done")[0]
    reported = "swap" if "swap is approved" in item.turn else "on-call"
    assert item.turn.endswith("?") and item.open_words
    other = item.open_words[0]
    assert (
        ("registration" in other) if reported == "swap" else ("approved" in other or "confirmation" in other)
    )


def test_transfer_offers_follow_the_escalation_rule() -> None:
    forbids = _scenario()  # 'you must decline'
    assert _items(forbids, "end_transfer_forbidden") and not _items(forbids, "end_transfer_allowed")
    again = _items(forbids, "end_transfer_forbidden_again")[0]
    assert again.context == [again.turn] and again.act == "declines_any"
    allows = _scenario(escalation=ALLOWS)
    assert _items(allows, "end_transfer_allowed") and not _items(allows, "end_transfer_forbidden")
    for rule in ("Do not request a transfer to a supervisor.", "If a transfer is offered, decline it."):
        assert _items(_scenario(escalation=rule), "end_transfer_forbidden"), rule
    # a prohibition limited in time or by a condition forbids no transfer after a refusal
    for rule in ("Ask for a live agent. Do not ask for a transfer before the agent has checked your shift.",
                 "If the swap is approved, do not ask for a live agent transfer. Otherwise you may ask once."):  # fmt: skip
        assert _items(_scenario(escalation=rule), "end_transfer_allowed"), rule


def test_a_transfer_asked_for_with_an_adverb_is_accepted_by_the_caller() -> None:
    for rule in ("After a clear denial, you may politely ask once to be transferred to a live agent.",
                 "After a clear denial, calmly ask for a live agent transfer."):  # fmt: skip
        sc = _scenario(escalation=rule)
        res = run_item(_items(sc, "end_transfer_allowed")[0], sc, GoalRules().make("medical_hr", sc))
        assert res.agrees, (rule, res.reply)


def test_a_goal_sentence_gets_only_the_must_have_class() -> None:
    sc = _scenario(intents=None)
    assert (
        _items(sc, "end_part_done") and not _items(sc, "end_that_all") and not _items(sc, "end_refused_alt")
    )


def test_grading_of_the_closing_acts() -> None:
    item = WeakItem(domain="d", scenario_id="s", half="dev", cls="end_that_all", act="ends_or_checks",
                    turn="Done. Will that be all?", open_words=[["confirmation", "number"]])  # fmt: skip
    assert problem(item, "Yes, that's all. Goodbye.", True, False) == ""
    assert problem(item, "Can I have the confirmation number first?", False, False) == ""
    assert problem(item, "Yes, go ahead.", False, False) == "did not end"
    declines = item.model_copy(update={"act": "declines"})
    assert problem(declines, "No, thanks.", False, False) == ""
    assert problem(declines, "Yes, go ahead.", False, False).startswith("a yes")
    assert problem(declines, "No thanks. Goodbye.", True, False) != ""
    any_ = item.model_copy(update={"act": "declines_any"})
    assert problem(any_, "No, please don't transfer me. Bye.", True, False) == ""
    assert problem(any_, "Perfect, thanks. Bye.", True, False) == "a yes"
    ok = item.model_copy(update={"act": "transfer_ok"})
    assert problem(ok, "Yes, please transfer me.", False, False) == ""
    assert problem(ok, "No, I don't want to be transferred.", False, False) != ""


KNOWN_GAP = "end_readback_last_wrong"
"""One value among several read back changed ('the unit code 8B-PEDS' for 5B-PEDS): the goal caller
misses some such changes (the known gap of ``test_weak_several``); a wrong value still never gets
the closing yes (:func:`test_a_read_back_wrong_at_the_end_never_closes`)."""


def test_the_goal_caller_agrees_on_every_closing_class() -> None:
    for sc in (_scenario(), _scenario(escalation=ALLOWS)):
        rows = [run_item(i, sc, GoalRules().make("medical_hr", sc)) for i in generate("medical_hr", sc)
                if i.cls.startswith("end_") and i.cls != KNOWN_GAP]  # fmt: skip
        assert [(r.item.cls, r.why, r.reply) for r in rows if not r.agrees] == []


def test_a_read_back_wrong_at_the_end_never_closes() -> None:
    for sc in (_scenario(), _scenario(escalation=ALLOWS)):
        rows = [run_item(i, sc, GoalRules().make("medical_hr", sc)) for i in _items(sc, KNOWN_GAP)]
        assert rows and not [r.why for r in rows if "ended" in r.why or BYE.search(r.reply)]


@pytest.mark.xfail(
    strict=True, reason="the known gap of test_weak_several: one changed value among several missed"
)
def test_the_goal_caller_corrects_a_read_back_wrong_at_the_end() -> None:
    sc = _scenario()
    assert all(run_item(i, sc, GoalRules().make("medical_hr", sc)).agrees for i in _items(sc, KNOWN_GAP))
