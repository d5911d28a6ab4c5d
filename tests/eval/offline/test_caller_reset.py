"""An agent that starts the conversation over (its opening question again, after the caller
answered it and the agent went on with the task) is not progressing: a caller leaving it is
not a premature ending. Asked again with nothing done between, the opening is a fair re-ask."""

from __future__ import annotations

from typing import Any

from voxbench.eval.offline._caller_end import agent_restarted, closing_question, same_question
from voxbench.eval.offline.behavioral import user_behavioral_fidelity_offline

from .convs import A, U, call, context, result

OPEN = "Hello! How can I help you today?"
FAILED = {"status": "error", "error_type": "invalid_confirmation_number_format", "message": "bad code"}


def _detected(events: list[dict[str, Any]]) -> list[str]:
    ctx = context(events, conversation_ended_reason="end_call", simulator_ended_call=True)
    return user_behavioral_fidelity_offline(ctx).details["detected"]


def test_leaving_an_agent_that_started_over_after_a_lookup_is_not_premature() -> None:
    """Live, airline 6.1.4: failed lookups, a silence, a check-in, then the opening again."""
    events = [
        A(OPEN),
        U("I need help rebooking my flight for today."),
        A("Sure. Please provide your confirmation number and last name."),
        U("It's R zero S D R U, last name Young."),
        call("get_reservation", confirmation_number="R0S", last_name="Young"),
        result("get_reservation", FAILED),
        A("Great! I'll look up your reservation."),
        U("Hello? Are you still there?"),
        A(f"Hello! I'm here. {OPEN.split('! ')[1]}"),
        U("Okay, thanks anyway. Goodbye."),
    ]
    assert _detected(events) == []


def test_started_over_after_asking_something_else() -> None:
    events = [
        A(OPEN),
        U("I want to add a bag to my booking."),
        A("What's your confirmation number?"),
        U("Z K three F F W."),
        A("How can I help you today?"),
        U("I already told you. Goodbye."),
    ]
    assert _detected(events) == []


def test_the_opening_asked_again_at_once_is_a_re_ask() -> None:
    """The caller only greeted: asking what it needs again is the agent progressing."""
    events = [A(OPEN), U("Hi there."), A("Sure, how can I help you today?"), U("Never mind, bye.")]
    assert _detected(events) == ["premature_ending"]


def test_the_rule_reads_the_agents_own_opening() -> None:
    agent = {0: OPEN, 1: "What's your last name?", 2: "How can I help you today?"}
    caller = {1: "I want to cancel.", 2: "Young."}
    assert agent_restarted(agent, 2, caller, set())
    no_opening_question = {**agent, 0: "Welcome to SkyWay Airlines."}
    assert not agent_restarted(no_opening_question, 2, caller, set())
    checked = {0: OPEN, 1: "Let me check.", 2: OPEN}
    assert not agent_restarted(checked, 2, caller, set())  # nothing done between
    assert agent_restarted(checked, 2, caller, {1})  # a tool call between


def test_the_same_question_is_the_closing_question_asked_again_in_a_few_other_words() -> None:
    """The one test the looping and restart rules and the gate's faults share."""
    q = closing_question(OPEN)
    assert same_question(q, "Sorry about that. Hello! How can I help you today?")
    assert same_question(q, "Hi there! How can I help you today?")  # a word or two changed
    assert not same_question(q, "Thanks. What is your confirmation number?")
    assert not same_question(q, "How can I help you today? Is it about a booking?")  # not its last question
    assert not same_question(q, "I have found your booking.")  # no question
