"""A transfer the agent says it cannot make is no offer (:mod:`voxbench.pipelines.caller.goal.transfers`),
and a refusal that says there is no alternative ends the call where the failure condition says so
(:func:`voxbench.pipelines.caller.goal.told.no_alternative`); one that offers another way or asks
something does not."""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.conditions import unconditioned
from voxbench.pipelines.caller.goal.cues import TRANSFER_OFFER
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.told import no_alternative
from voxbench.pipelines.caller.goal.transfers import offers_transfer, refuses_transfer

from .conftest import make_scenario

INFO = {"employee_id": "EMP730215", "phone_last_four": "4418"}
WANTS = "If the agent still refuses after you push back, ask to be transferred to a live agent."
FORBIDS = "Never ask for a supervisor and decline any transfer offered."
UNPROCESSABLE = (
    "If the agent makes no progress for 3 consecutive turns, or says your request cannot be processed "
    "and there are no alternatives, say goodbye and end the call."
)
REFUSAL = "Unfortunately I cannot reissue parking permits over the phone."


def _caller(
    escalation: str = WANTS, failure: str | None = None, intents: list[str] | None = None
) -> GoalCaller:
    sc = make_scenario(INFO, goal="You want your parking permit reissued.", escalation=escalation,
                       intents=intents or ["Reissue my parking permit"], start="Hi, it's about my parking permit.")  # fmt: skip
    if failure is not None:
        sc.user_goal.decision_tree.failure_condition = failure
    caller = GoalCaller(sc)
    caller.open()
    return caller


def test_a_transfer_under_a_negation_is_refused_not_offered() -> None:
    for s in [
        "Sorry, there's no way for me to transfer your call.",
        "A human representative isn't available today.",
        "I don't have the ability to escalate this call.",
        "Live agent transfers are not possible from this line.",
    ]:
        assert refuses_transfer(s), s
        assert not offers_transfer(s, TRANSFER_OFFER), s


def test_a_negation_that_does_not_reach_the_transfer_leaves_the_offer() -> None:
    for s in [
        "I can't change the permit, but I'm able to transfer you to a live agent.",
        "If you do not want to keep troubleshooting I can transfer you now.",
        "I can transfer you to a supervisor if one isn't busy.",
    ]:
        assert offers_transfer(s, TRANSFER_OFFER), s
        assert not refuses_transfer(s), s


def test_a_record_transfer_refused_is_no_call_transfer() -> None:
    assert not refuses_transfer("I can't process the DEA transfer without the exact number.")


def test_a_refused_transfer_is_not_accepted_nor_asked_for_again() -> None:
    for escalation in (WANTS, FORBIDS):
        caller = _caller(escalation)
        caller.respond(REFUSAL)
        act = caller.respond("I'm afraid there's no way for me to transfer your call to a supervisor.")
        assert not re.search(r"\b(yes|transfer\w*|supervisor|live agent)\b", act.text, re.I), act.text
        later = caller.respond(REFUSAL)  # the refusal again: the transfer is not asked for
        assert "transfer" not in later.text.lower() or later.ends_call, later.text


def test_an_offer_beside_a_refusal_is_still_taken_as_the_rule_says() -> None:
    caller = _caller(WANTS)
    act = caller.respond("I can't reissue the permit, but I'm able to transfer you to a live agent.")
    assert act.rule == "escalation_accepts_transfer"


def test_no_alternative_reads_the_statement_and_nothing_offered() -> None:
    assert no_alternative("Sorry, that request can't be processed. I have no other options for it.")
    assert no_alternative("I'm unable to process this request; there is no alternative I can suggest.")
    assert not no_alternative(
        "It can't be processed and there are no alternatives. Can I help with anything else?"
    )
    assert not no_alternative("There are no alternatives for the upgrade, but we could waitlist you instead.")
    assert not no_alternative("If the board rejects it, there's no alternative.")
    assert not no_alternative("I'm unable to process this request right now.")  # a bare refusal


def test_the_failure_condition_ends_the_call_on_a_refusal_with_no_alternative() -> None:
    turn = "I'm afraid this permit request cannot be processed. There's no alternative I can offer."
    act = _caller(FORBIDS, UNPROCESSABLE).respond(turn)
    assert act.ends_call and act.rule == "no_alternative_end" and act.end_reason == "failed"
    assert not _caller(FORBIDS).respond(turn).ends_call  # its failure condition does not say so
    offered = "This permit request cannot be processed, but we could issue a temporary pass instead."
    assert not _caller(FORBIDS, UNPROCESSABLE).respond(offered).ends_call


def test_another_request_open_is_the_next_step_not_the_end() -> None:
    caller = _caller(FORBIDS, UNPROCESSABLE, ["Reissue my parking permit", "Update my desk location"])
    act = caller.respond("Your parking permit request cannot be processed, and there are no alternatives.")
    assert not act.ends_call


def test_a_negation_inside_a_condition_is_the_conditions_own() -> None:
    for s in [
        "If you'd rather not wait, a live agent can call you back.",
        "If you'd rather not wait a live agent can call you back.",  # the comma a recogniser drops
        "If you don't want to hold I can transfer you to a live agent.",
        "I can connect you with a live agent if you don't want to wait.",
    ]:
        assert offers_transfer(s, TRANSFER_OFFER), s
        assert not refuses_transfer(s), s
    assert not refuses_transfer("If a live agent isn't available, I'll take a message.")  # a condition
    assert refuses_transfer("If you want one, I can't transfer you to a live agent.")  # the main clause's


def test_a_condition_ends_at_its_comma_the_main_clause_or_the_sentence() -> None:
    assert unconditioned("If you can't find it, I can look you up by name.") == ", I can look you up by name."
    assert (
        unconditioned("If you don't have the code I'll look you up by name.") == "I'll look you up by name."
    )
    assert unconditioned("If the system can't find it I can transfer you.") == "I can transfer you."
    assert unconditioned("I can book room 301 if you don't need the whiteboard.") == "I can book room 301 "
    assert (
        unconditioned("It looks as if the room is not available.")
        == "It looks as if the room is not available."
    )


def test_a_negative_condition_is_no_refusal() -> None:
    caller = _caller(FORBIDS)
    act = caller.respond("If you can't find your permit number, I can look it up by your employee ID.")
    assert act.kind != "pushback" and not act.ends_call, act
