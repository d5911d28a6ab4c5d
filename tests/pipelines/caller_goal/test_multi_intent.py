"""A goal with several requests or must-haves: the caller does not end after the first one done,
brings up the next open one, and ends with its reason in the act trail (resolved, or stalled)."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.agenda import Agenda
from voxbench.pipelines.caller.goal.config import GoalCallerConfig
from voxbench.pipelines.caller.goal.policy import GoalCaller

INFO = {"employee_id": "EMP204417", "pto_start_date": "2026-07-06", "pto_end_date": "2026-07-10"}
INTENTS = ["Submit a PTO request", "Schedule a return-to-work check-in"]


def _two_intents(seed: int) -> GoalCaller:
    sc = make_scenario(
        INFO,
        goal="You want to submit a PTO request and schedule a return-to-work check-in.",
        intents=INTENTS,
        start="Hi, I need help with PTO and a check-in.",
    )
    return opened(sc, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_two_intents_the_second_is_brought_up_then_the_call_ends_resolved(seed: int) -> None:
    c = _two_intents(seed)
    assert c.respond("Sure. What is your employee ID?").facts == ["employee_id"]
    first = c.respond(
        "Your PTO request is submitted for July 6 to July 10. Is there anything else I can help with?"
    )
    assert not first.ends_call
    assert first.kind == "state_request" and first.rule == "next_intent"
    assert "check-in" in first.text
    last = c.respond("Your return-to-work check-in is scheduled. Is there anything else I can help with?")
    assert last.ends_call and last.rule == "nothing_else_end"
    assert "end:resolved" in last.rules and last.end_reason == "resolved"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_completion_report_alone_does_not_end_a_two_intent_goal(seed: int) -> None:
    c = _two_intents(seed)
    c.respond("Sure. What is your employee ID?")
    act = c.respond("Your PTO request has been submitted.")
    assert not act.ends_call and act.rule == "next_intent"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_progress_after_the_first_intent_ends_as_stalled(seed: int) -> None:
    c = _two_intents(seed)
    c.respond("Sure. What is your employee ID?")
    c.respond("Your PTO request is submitted. Is there anything else?")
    unhelpful = [
        "I see.",
        "Our systems are a little slow today.",
        "That is an interesting question.",
        "We get a lot of calls about that.",
        "The weather has been nice lately.",
        "Many employees ask about that.",
        "I am still here.",
    ]
    acts = []
    for line in unhelpful:
        acts.append(c.respond(line))
        if acts[-1].ends_call:
            break
    end = acts[-1]
    assert end.ends_call and end.end_reason == "stalled" and "end:stalled" in end.rules
    assert all(not a.ends_call for a in acts[:-1])
    assert len(acts) >= 2  # the open request is restated before giving up


MUST = [
    "You are rebooked onto the 9:00 AM flight to Denver tomorrow.",
    "You receive a travel credit of $100 for the downgrade, and the agent provides a credit code.",
]


def _two_must_haves(seed: int) -> GoalCaller:
    sc = make_scenario(
        {"confirmation_number": "ZK3FFW", "last_name": "Lima"},
        goal="You want to be rebooked onto tomorrow's 9 AM flight and get a $100 travel credit for the downgrade.",
        must=MUST,
        edge=[
            "If the agent asks if there is anything else they can help with, say no and end the conversation."
        ],
    )
    return opened(sc, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_must_have_not_told_is_asked_before_goodbye(seed: int) -> None:
    c = _two_must_haves(seed)
    c.respond("May I have your confirmation number and last name?")
    act = c.respond(
        "Your flight has been rebooked to the 9 AM flight to Denver tomorrow. Is there anything else I can help with?"
    )
    assert not act.ends_call and act.rule == "must_have_not_told"
    assert "travel credit of $100" in act.text and "agent" not in act.text.lower()
    end = c.respond("I've issued a $100 travel credit; the credit code is C R one two three. Anything else?")
    assert end.ends_call and end.rule == "nothing_else_end" and end.end_reason == "resolved"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_must_haves_all_told_end_at_the_first_anything_else(seed: int) -> None:
    c = _two_must_haves(seed)
    c.respond("May I have your confirmation number and last name?")
    end = c.respond(
        "Your flight has been rebooked to the 9 AM flight to Denver tomorrow, and I've issued a $100 travel credit "
        "with code C R one two three. Is there anything else I can help with?"
    )
    assert end.ends_call and end.rule == "nothing_else_end"


def test_a_must_have_is_asked_once_only() -> None:
    c = _two_must_haves(0)
    c.respond("May I have your confirmation number and last name?")
    c.respond("Your flight has been rebooked to the 9 AM flight to Denver tomorrow. Is there anything else?")
    end = c.respond("Is there anything else I can help you with?")
    assert end.ends_call and end.rule == "nothing_else_end"


def test_a_completion_naming_a_request_by_one_word_marks_that_one() -> None:
    """'Your check-in is booked' completes the check-in (one of its own words), not the first
    request still open: the caller then asks for the PTO request, not the check-in again."""
    c = _two_intents(0)
    c.respond("Sure. What is your employee ID?")
    act = c.respond("Done, your check-in is booked. Anything else?")
    assert c.done == [False, True]
    assert act.rule == "next_intent" and "PTO" in act.text


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_refusal_in_the_same_turn_as_a_completion_gets_the_trees_answer(seed: int) -> None:
    """'I can't transfer the DEA registration ... Your orientation follow-up is scheduled ...': one
    request refused, the other done. The caller answers the refusal as the tree says (its
    follow-up question) instead of thanking and hanging up; refused again, it ends as failed."""
    sc = make_scenario(
        {"employee_id": "EMP1234", "dea_number": "VK2242892"},
        goal="You want to schedule your orientation follow-up and transfer your DEA registration.",
        intents=["Schedule orientation follow-up", "Transfer DEA registration from previous facility"],
        start="Hi, I need help with orientation and a DEA transfer.",
    )
    c = GoalCaller(sc, GoalCallerConfig(seed=seed))
    c.open()
    c.respond("What is your employee ID?")
    act = c.respond(
        "I can't transfer the D E A registration without the exact number. "
        "Your orientation follow-up is scheduled for September 29 at 10 AM."
    )
    assert not act.ends_call and act.rule == "one_follow_up_question"
    end = c.respond("Unfortunately there is no other way; you can call back once you have the number.")
    assert end.ends_call and end.end_reason == "failed"


def _agenda() -> Agenda:
    return Agenda(
        [
            "The agent confirms your gate information for SK418 (either the current gate number or none yet).",
            "The agent confirms your seat assignment remains unchanged on the re-departure.",
            "You receive a travel credit of $100, and the agent provides a credit code.",
            "New flight must depart before 2:00 PM.",  # a condition on offers: not asked
        ]
    )


def test_open_must_haves_are_asked_one_a_turn_in_the_first_person() -> None:
    agenda = _agenda()
    assert agenda.ask() == "Can you also confirm my gate information for SK418?"
    assert (
        agenda.ask() == "Can you also confirm that my seat assignment remains unchanged on the re-departure?"
    )
    assert agenda.ask() == "Can I also get a travel credit of $100?"
    assert agenda.ask() == ""  # each asked once


def test_open_must_haves_asked_for_as_a_list_are_asked_in_one_line() -> None:
    assert _agenda().ask(every=True) == (
        "Can you also confirm my gate information for SK418? And confirm that my seat assignment remains "
        "unchanged on the re-departure? And can I also get a travel credit of $100?"
    )
