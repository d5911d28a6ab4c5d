"""When the call ends on a refusal or a transfer: each refused request gets the tree's answers of
its own, a refusal names only what it refuses, and a forbidden transfer offered again with nothing
moved on ends the call as failed."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.config import GoalCallerConfig
from voxbench.pipelines.caller.goal.policy import GoalCaller

INTENTS = ["Swap a shift that starts within 24 hours", "Register for on-call availability while on leave"]


def _two_requests(seed: int) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP824156", "unit_code": "5B-PEDS"},
        goal="You want to swap a shift and register for on-call availability.",
        intents=INTENTS,
        escalation="Do not ask to speak to a supervisor or live agent. If the agent offers a transfer, decline.",
        start="Hi, I have two scheduling things.",
    )
    return opened(sc, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_each_refused_request_gets_its_own_follow_up(seed: int) -> None:
    c = _two_requests(seed)
    c.respond("What is your employee ID?")
    first = c.respond(
        "I'm not able to process the shift swap because it is inside the 24-hour lockout. "
        "We can still handle your on-call availability registration."
    )
    assert first.rule == "one_follow_up_question" and not first.ends_call
    assert c.done == [True, False]  # the on-call registration is what the agent moves on to, not refused
    c.respond("No, there is no exception for the lockout.")
    second = c.respond("I can't register you for on-call availability because you are on leave.")
    assert second.rule == "one_follow_up_question" and not second.ends_call
    last = c.respond("No, not while your record shows you on leave.")
    assert last.ends_call and last.end_reason == "failed"


def _laptop(seed: int) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP824156", "last_name": "Ortega"},
        goal="You want a laptop replacement.",
        escalation="Do not ask to speak to a supervisor or live agent. If the agent offers a transfer, decline.",
        start="Hi, I need a laptop replacement.",
    )
    c = GoalCaller(sc, GoalCallerConfig(seed=seed))
    c.open()
    c.respond("What is your employee ID?")
    return c


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_forbidden_transfer_once_the_refusal_answers_are_spent_ends_the_call(seed: int) -> None:
    c = _laptop(seed)
    assert (
        c.respond("I can't submit a replacement: your laptop is not old enough.").rule
        == "one_follow_up_question"
    )
    end = c.respond("If you want, I can transfer you to a live agent.")
    assert end.ends_call and end.rule == "declined_transfer_end" and end.end_reason == "failed"
    assert end.choice == "no" and "end:failed" in end.rules


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_transfer_offered_again_with_nothing_moved_on_ends_the_call(seed: int) -> None:
    c = _laptop(seed)
    first = c.respond("If you want, I can transfer you to a live agent.")
    assert first.kind == "decline_transfer" and not first.ends_call
    again = c.respond("I can transfer you to a live agent who can review it. Would you like that?")
    assert again.ends_call and again.rule == "declined_transfer_end" and again.end_reason == "failed"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_transfer_offered_again_after_progress_is_only_declined(seed: int) -> None:
    c = _laptop(seed)
    c.respond("If you want, I can transfer you to a live agent.")
    assert c.respond("Could you tell me your last name?").facts == ["last_name"]
    act = c.respond("Thanks. I can transfer you to a live agent if you like.")
    assert act.kind == "decline_transfer" and not act.ends_call


def _skip_invite(seed: int) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP824156", "building": "Headquarters"},
        goal="You want a conference room booked, and then you try to get the agent to skip the calendar invite.",
        intents=["Get the agent to skip sending the calendar invite", "Book a conference room"],
        negotiation=["If the agent refuses to skip the invite, push back firmly 2 times, then accept."],
        start="Hi, I need a conference room.",
    )
    return opened(sc, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_in_call_behaviour_is_raised_last_and_not_met_by_the_thing_it_asks_to_skip(seed: int) -> None:
    """'Get the agent to skip the calendar invite': a booking that reports the invite sent did what
    the caller asks to skip; the caller raises it, to the agent ('ask you to'), once its other
    request is done, pushes back as the tree says, and ends when the refusal stands."""
    c = _skip_invite(seed)
    assert c.tracker.pending() == [1, 0] and c.tracker.behaviour == [True, False]
    c.respond("What is your employee ID?")
    raised = c.respond("Your room is booked, and I sent the calendar invite. Anything else I can help with?")
    assert not raised.ends_call and raised.rule == "next_intent"
    assert "ask you to skip sending the calendar invite" in raised.text and "the agent" not in raised.text
    assert c.done == [False, True]
    first = c.respond("I'm sorry, I can't skip the calendar invite. It is required for every booking.")
    assert first.kind == "pushback" and c.done == [True, True]
    second = c.respond("The calendar invite has been sent already, and it is required. I can transfer you.")
    assert (
        second.kind == "pushback" and not second.ends_call
    )  # the refusal stands: not thanks, but the tree's next push-back


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_must_have_that_something_stays_is_asked_before_goodbye(seed: int) -> None:
    sc = make_scenario(
        {"confirmation_number": "N53W23"},
        goal="You want the $12 meal voucher for your delayed flight and keep your booking unchanged.",
        must=[
            "Your existing flight booking remains unchanged (no rebooking).",
            "You receive a meal voucher of $12.",
        ],
    )
    c = GoalCaller(sc, GoalCallerConfig(seed=seed))
    c.open()
    c.respond("What is your confirmation number?")
    ask = c.respond("Your flight is delayed three hours. I've issued a twelve dollar meal voucher.")
    assert ask.rule == "must_have_not_told" and "booking remains unchanged" in ask.text and not ask.ends_call
    last = c.respond("Yes, your booking remains unchanged.")
    assert last.ends_call and last.end_reason == "resolved"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_tree_line_to_ask_before_ending_is_asked_once_in_its_words(seed: int) -> None:
    sc = make_scenario(
        {"confirmation_number": "N53W23"},
        goal="You want a $12 meal voucher.",
        must=["You receive a meal voucher of $12."],
        negotiation=[
            "Before ending, explicitly ask the agent to confirm (1) your seat is confirmed, "
            "and (2) your checked bags (if any) are still attached."
        ],
    )
    c = GoalCaller(sc, GoalCallerConfig(seed=seed))
    c.open()
    c.respond("What is your confirmation number?")
    ask = c.respond(
        "I've issued a twelve dollar meal voucher. Your seat and checked bag are still on the booking."
    )
    assert ask.rule == "must_have_not_told" and not ask.ends_call
    assert "Can you confirm my seat is confirmed, and my checked bags are still attached?" in ask.text
    assert c.respond("Yes, both are confirmed.").ends_call


def test_a_shortcut_that_asks_for_the_thing_done_is_an_ordinary_request() -> None:
    """'Skip troubleshooting and get a ticket created' is met by the ticket; 'Get the agent to skip
    the return authorization' is not met by the return authorization."""
    from voxbench.pipelines.caller.goal.intents import IntentTracker

    t = IntentTracker(
        ["Skip troubleshooting and get a ticket created directly", "Get the agent to skip the return label"]
    )
    assert t.behaviour == [False, True]
    t.note("Your ticket has been created. Your return label has been created too.", True)
    assert t.done == [True, False]
