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
ONE = ["If the agent says the shift swap is not possible, ask one follow-up question and then accept."]


def _two_requests(seed: int, negotiation: list[str] | None = None) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP824156", "unit_code": "5B-PEDS"},
        goal="You want to swap a shift and register for on-call availability.",
        intents=INTENTS,
        escalation="Do not ask to speak to a supervisor or live agent. If the agent offers a transfer, decline.",
        start="Hi, I have two scheduling things.",
        negotiation=negotiation,
    )
    c = opened(sc, seed)
    c.respond("What is your employee ID?")
    return c


def _moved_on(seed: int) -> GoalCaller:
    """The swap refused and followed up once, as its tree line says: the caller states the registration."""
    c = _two_requests(seed, ONE)
    c.respond("I'm not able to process the shift swap because it is inside the 24-hour lockout.")
    moved = c.respond("No, there is no exception for the lockout.")
    assert moved.rule == "next_intent_after_refusal" and "on-call" in moved.text
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
    assert "bag" not in check.text  # one open must-have a turn, in the goal's order
    return c


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_check_answered_only_by_an_action_to_come_is_asked_again_once(seed: int) -> None:
    c = _checked(seed)
    again = c.respond("Let me check on that for you. Is there anything else I can help you with?")
    assert not again.ends_call and again.rule == "must_have_check_unanswered"
    assert "voucher" in again.text and "bag" not in again.text  # the check asked, not the next yet
    nxt = c.respond("One moment while I look into that. Is there anything else I can help you with?")
    assert not nxt.ends_call and nxt.rule == "must_have_not_told"  # asked once more, not again: the next
    assert "bag" in nxt.text and "voucher" not in nxt.text
    end = c.respond("Yes, your checked bag stays on the new flight. Is there anything else?")
    assert end.ends_call and end.rule == "nothing_else_end"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_check_answered_in_a_statement_asks_the_next_then_ends(seed: int) -> None:
    c = _checked(seed)
    nxt = c.respond("Yes, I can confirm that. Is there anything else I can help you with?")
    assert not nxt.ends_call and nxt.rule == "must_have_not_told" and "bag" in nxt.text
    end = c.respond("Yes, I can confirm that too. Is there anything else I can help you with?")
    assert end.ends_call and end.rule == "nothing_else_end"


# The review's findings (mendprem): each probe of /tmp/review1 as a test.


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "offer",
    [
        f"{OFFER.removesuffix('?')} who can call you back?",  # 'call' of 'on-call'
        f"{OFFER} Please don't leave the line.",  # 'leave' of 'while on leave'
    ],
)
def test_an_offer_speaks_of_no_request_by_its_own_words(seed: int, offer: str) -> None:
    c = _two_requests(seed)
    c.respond(offer)
    again = c.respond(offer)
    assert not again.ends_call and again.rule == "next_intent_after_transfer_declined"
    assert c.done == [True, False]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_offer_speaking_of_the_other_request_by_one_word_of_its_own_ends(seed: int) -> None:
    c = _two_requests(seed)
    both = (
        "I'm not able to process the shift swap, and while you are on leave nothing else can be added. "
        "Would you like me to transfer you to a live agent?"
    )
    c.respond(both)
    end = c.respond(both)
    assert end.ends_call and end.rule == "declined_transfer_end"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_transfer_request_is_not_spoken_of_by_the_offer_to_transfer(seed: int) -> None:
    sc = make_scenario(
        {"employee_id": "EMP824156", "facility_code": "FAC-22"},
        goal="You want onboarding tasks marked complete and your DEA registration transferred.",
        intents=["Mark onboarding tasks as complete", "Transfer DEA registration to the new facility"],
        escalation="Do not ask to speak to a supervisor or live agent. If the agent offers a transfer, decline.",
        start="Hi, I have two onboarding things.",
    )
    c = opened(sc, seed)
    offer = "I'm sorry, I'm not able to mark onboarding tasks as complete. Would you like me to transfer you to a live agent?"
    c.respond(offer)
    again = c.respond(offer)
    assert not again.ends_call and again.rule == "next_intent_after_transfer_declined"
    assert "DEA" in again.text


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "third",
    [
        "I'm sorry, I can't do that either. Would you like me to transfer you to a live agent?",
        "I can't do that either. I can connect you with a live agent instead. Shall I do that?",
    ],
)
def test_the_next_requests_first_refusal_with_an_offer_is_not_the_offer_again(seed: int, third: str) -> None:
    c = _two_requests(seed)
    c.respond(OFFER)
    assert c.respond(OFFER).rule == "next_intent_after_transfer_declined"  # moved on to the registration
    first = c.respond(third)
    assert not first.ends_call and first.kind == "pushback"  # the registration's own follow-up


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_bare_offer_after_moving_on_is_only_declined(seed: int) -> None:
    c = _two_requests(seed)
    c.respond(OFFER)
    c.respond(OFFER)
    bare = c.respond("Would you like me to transfer you to a live agent?")
    assert not bare.ends_call and bare.kind == "decline_transfer"


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("between", ["One moment while I look into that.", "Sure. What is your unit code?"])
def test_the_request_stated_stays_under_way_past_a_hold_or_a_question(seed: int, between: str) -> None:
    c = _moved_on(seed)
    c.respond(between)
    unnamed = c.respond("I'm sorry, I can't do that either.")
    assert not unnamed.ends_call and unnamed.kind == "pushback"  # the registration's follow-up
    assert c.s.push.about == 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_refusal_speaking_of_another_request_by_one_word_is_not_the_one_under_ways(seed: int) -> None:
    c = _moved_on(seed)
    swap = c.respond("Sorry, to be clear, I still can't do the swap.")
    assert not swap.ends_call and swap.kind == "state_request" and "on-call" in swap.text
    assert c.s.push.about == 0  # the swap's answers, not the registration's
    named = c.respond("OK. For the on-call registration, I'm not able to do that while you are on leave.")
    assert not named.ends_call and named.kind == "pushback"  # its own follow-up first
    last = c.respond("No, there's no way around it.")
    assert last.ends_call and last.end_reason == "failed"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_check_asked_again_is_answered_as_the_first_is(seed: int) -> None:
    c = _checked(seed)
    c.respond("Let me check on that for you. Is there anything else I can help you with?")
    answer = (
        "The twelve dollar voucher goes to your email, and your bag is checked through to the new flight."
    )
    end = c.respond(answer)
    assert end.ends_call and end.rule == "resolution_end"
