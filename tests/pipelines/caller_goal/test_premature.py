"""The ending rules do not end the call where EVA's caller rules do not let it (issue 29): a
forbidden transfer offered again with another request open and not taken up, a refusal naming no
request after the caller moved on to its next one, and a check before ending answered only by an
action to come."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.policy import GoalCaller

INTENTS = ["Swap a shift that starts within 24 hours", "Register for on-call availability while on leave"]
OFFER = "I'm not able to process the shift swap. Would you like me to transfer you to a live agent?"


def _two_requests(seed: int) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP824156", "unit_code": "5B-PEDS"},
        goal="You want to swap a shift and register for on-call availability.",
        intents=INTENTS,
        escalation="Do not ask to speak to a supervisor or live agent. If the agent offers a transfer, decline.",
        start="Hi, I have two scheduling things.",
    )
    c = opened(sc, seed)
    c.respond("What is your employee ID?")
    return c


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_forbidden_transfer_offered_again_moves_on_to_a_request_not_taken_up(seed: int) -> None:
    c = _two_requests(seed)
    first = c.respond(OFFER)
    assert not first.ends_call and first.choice != "yes"
    again = c.respond(OFFER)
    assert not again.ends_call
    assert again.rule == "next_intent_after_transfer_declined" and "on-call" in again.text
    assert "transfer" in again.text.lower()  # declined in the same breath
    assert c.done == [True, False]  # the swap failed; the registration is under way


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_forbidden_transfer_offered_again_speaking_of_every_other_request_ends(seed: int) -> None:
    c = _two_requests(seed)
    both = (
        "I'm not able to process the shift swap, and the on-call availability is blocked while on leave. "
        "Would you like me to transfer you to a live agent?"
    )
    c.respond(both)
    end = c.respond(both)
    assert end.ends_call and end.rule == "declined_transfer_end" and end.end_reason == "failed"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_refusal_naming_no_request_answers_the_one_just_stated(seed: int) -> None:
    c = _two_requests(seed)
    refusal = "I'm not able to process the shift swap because it is inside the 24-hour lockout."
    assert c.respond(refusal).rule == "one_follow_up_question"
    moved = c.respond("No, there is no exception for the lockout.")
    assert moved.rule == "next_intent_after_refusal" and "on-call" in moved.text
    unnamed = c.respond("I'm sorry, I can't do that either.")
    assert not unnamed.ends_call and unnamed.kind == "pushback"  # the registration's own follow-up
    last = c.respond("No, that is not possible.")
    assert last.ends_call and last.end_reason == "failed"


MUSTS = ["You receive a meal voucher of $12", "The agent confirms your checked bag stays on the new flight"]


def _checked(seed: int) -> GoalCaller:
    sc = make_scenario({"confirmation_number": "HN4R8B", "last_name": "Okafor"}, must=MUSTS)
    c = opened(sc, seed)
    check = c.respond("Your flight has been changed to the 2:15 PM departure. Is there anything else?")
    assert check.rule == "must_have_not_told" and "voucher" in check.text
    return c


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_check_answered_only_by_an_action_to_come_is_asked_again_once(seed: int) -> None:
    c = _checked(seed)
    again = c.respond("Let me check on that for you. Is there anything else I can help you with?")
    assert not again.ends_call and again.rule == "must_have_check_unanswered"
    assert "voucher" in again.text and "bag" in again.text
    end = c.respond("One moment while I look into that. Is there anything else I can help you with?")
    assert end.ends_call and end.rule == "nothing_else_end"  # asked once more, not again


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_check_answered_in_a_statement_ends(seed: int) -> None:
    c = _checked(seed)
    end = c.respond("Yes, I can confirm that. Is there anything else I can help you with?")
    assert end.ends_call and end.rule == "nothing_else_end"
