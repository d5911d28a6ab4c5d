"""The agent's last turns that name the caller's values: "anything else?" about them asks for none
(it is answered as "anything else?"), and a read-back confirmed right in the turn that reports the
last request done closes the call (a yes, then goodbye); a read-back's values name no request done."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.ending import CONFIRMED_LAST_END
from voxbench.pipelines.caller.goal.ifmore import without_more
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.requests import read_back_only
from voxbench.pipelines.caller.goal.rules import MUST_HAVE_NOT_TOLD

INFO = {"employee_id": "EMP126225", "first_name": "Priya", "start_time": "09:00", "monitor_size": "27_inch"}
INTENTS = ["Book a conference room for the team standup", "Get a new 27-inch monitor"]


def _caller(seed: int = 0, intents: list[str] | None = None, must: list[str] | None = None) -> GoalCaller:
    sc = make_scenario(
        INFO,
        goal="You want to book a conference room and get a new monitor.",
        intents=intents or INTENTS,
        must=must,
        start="Hi, I need a room booked and a new monitor.",
    )
    return opened(sc, seed)


@pytest.mark.parametrize(
    "question",
    [
        "Is there anything else I can help you with regarding start time 09:00 and employee ID EMP126225?",
        "Anything else I can help with for the first name Priya, P R I Y A, and start time 09:00?",
        "Is there anything else I can do for you today, with start time 09:00 and employee ID EMP126225 all "
        "taken care of?",
        "Will that be all for start time 09:00?",
    ],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_anything_else_naming_its_values_ends_the_call(question: str, seed: int) -> None:
    c = _caller(seed, ["Book a conference room for the team standup"])
    act = c.respond(f"All set. Your conference room for the team standup has been booked. {question}")
    assert act.ends_call and act.end_reason == "resolved", act.text


def test_anything_else_naming_its_values_with_a_request_open_states_it() -> None:
    act = _caller().respond(
        "All set. Your conference room for the team standup has been booked. "
        "Is there anything else I can help you with regarding start time 09:00?"
    )
    assert not act.ends_call and "monitor" in act.text and "9" not in act.text


def test_an_if_more_question_asks_for_none_of_its_values() -> None:
    assert without_more("Is there anything else I can help you with regarding your employee ID?") == ""
    assert without_more("Will that be all for the last name Crawford?") == ""
    # still a request: a value asked for after it, or "anything else" deep in another question
    assert without_more("Is there anything else, or can you give me your employee ID?") != ""
    assert without_more("Could you please tell me your employee ID and anything else you need?") != ""


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "readback",
    [
        "To confirm, I have employee ID EMP126225 and start time 09:00. Is that correct?",
        "Just to confirm: the first name Priya and employee ID EMP126225 - is that right?",
        "So that's employee ID EMP126225 and the first name Priya, correct?",
    ],
)
def test_a_right_read_back_in_the_last_report_is_confirmed_and_closes(seed: int, readback: str) -> None:
    c = _caller(seed)
    c.respond("Your conference room for the team standup has been booked. Anything else I can help with?")
    act = c.respond(f"Your request for a new 27-inch monitor has been submitted. {readback}")
    assert act.ends_call and act.rule == CONFIRMED_LAST_END and act.end_reason == "resolved"
    assert act.text.startswith("Yes") and act.choice == "yes"


def test_named_done_with_a_read_back_is_the_last_report() -> None:
    c = _caller(0, ["Get a new 27-inch monitor"])
    act = c.respond(
        "I've taken care of that: your request to get a new 27-inch monitor is done. "
        "Let me read that back: employee ID EMP126225 and the first name Priya. Is everything correct?"
    )
    assert act.ends_call and act.rule == CONFIRMED_LAST_END


def test_a_right_read_back_with_a_request_open_is_a_yes_only() -> None:
    act = _caller().respond(
        "Your conference room for the team standup has been booked. "
        "To confirm, I have employee ID EMP126225 and start time 09:00. Is that correct?"
    )
    assert not act.ends_call and act.text.startswith("Yes")


def test_a_read_back_before_the_action_asks_leave_and_does_not_end() -> None:
    c = _caller(0, ["Get a new 27-inch monitor"])
    act = c.respond(
        "I'm about to submit a request for a 27-inch monitor for employee ID EMP126225. Is that correct?"
    )
    assert not act.ends_call and act.text.startswith("Yes")


def test_a_wrong_read_back_in_the_last_report_is_corrected_not_closed() -> None:
    c = _caller(0, ["Get a new 27-inch monitor"])
    act = c.respond(
        "Your request for a new 27-inch monitor has been submitted. "
        "To confirm, I have employee ID EMP126299. Is that correct?"
    )
    assert not act.ends_call and act.text.startswith(("No", "That's not"))


def test_a_must_have_untold_is_checked_after_the_yes() -> None:
    sc = make_scenario(
        INFO,
        goal="You want a new 27-inch monitor.",
        must=["The monitor is delivered to floor 2 of Headquarters."],
        start="Hi, I need a new monitor.",
    )
    c = opened(sc)
    act = c.respond(
        "Your request for a new 27-inch monitor has been submitted. "
        "To confirm, I have employee ID EMP126225. Is that correct?"
    )
    assert not act.ends_call and act.rule == MUST_HAVE_NOT_TOLD
    assert act.text.startswith("Yes") and "?" in act.text


def test_a_read_back_names_no_request_done() -> None:
    assert read_back_only("To confirm, I have the monitor size 27 inch and start time 09:00.")
    assert not read_back_only("To confirm, your monitor request has been submitted.")
    c = _caller()
    c.respond(
        "Your conference room for the team standup has been booked. "
        "Let me read that back: the monitor size 27 inch and employee ID EMP126225. Is everything correct?"
    )
    assert c.done == [True, False]


# -- review of e05b5c3: the closing yes only where nothing may still change -----------------------

ONE = ["Get a new 27-inch monitor"]
RIGHT = "To confirm, I have employee ID EMP126225 and first name Priya. Is that correct?"


@pytest.mark.parametrize(
    "turn",
    [
        f"Your identity has been verified successfully. {RIGHT}",
        f"Your case number is 44812. {RIGHT}",
        f"All set, I found your record. {RIGHT}",
        f"Thanks. I've verified your identity. {RIGHT}",
        "I've created a ticket for the monitor. Before I submit it, let me read that back: employee ID "
        "EMP126225, monitor size 27 inch. Is that correct?",
        "I've opened a draft request for your 27-inch monitor. To confirm, I have employee ID EMP126225. "
        "Is that correct? Once you confirm I will submit it.",
    ],
)
def test_a_read_back_after_a_step_or_before_the_action_is_a_bare_yes(turn: str) -> None:
    """Finding 1: a step said done, or an action still to come, marks no request done by name."""
    act = _caller(0, ONE).respond(turn)
    assert not act.ends_call and act.text == "Yes, that's right."


def test_a_step_read_back_with_the_last_request_stated_does_not_close() -> None:
    c = _caller()
    c.respond("Your conference room for the team standup has been booked. Anything else I can help with?")
    act = c.respond(f"I've successfully verified your employee record. {RIGHT}")
    assert not act.ends_call and act.text.startswith("Yes")


@pytest.mark.parametrize(
    "readback",
    [
        "To confirm, I have a 24-inch monitor for employee ID EMP126225. Is that correct?",
        "To confirm, it's for Pria, employee ID EMP126225. Is that correct?",
        "To confirm, I have the monitor going to Ana Lopez, employee ID EMP126225. Is that correct?",
        "To confirm, I have employee ID EMP126225 and delivery to floor 3. Is that correct?",
    ],
)
def test_a_read_back_with_a_value_not_its_own_does_not_close(readback: str) -> None:
    """Finding 2: every value the read-back says must be one of the caller's, read back right."""
    act = _caller(0, ONE).respond(f"Your request for a new 27-inch monitor has been submitted. {readback}")
    assert not act.ends_call


@pytest.mark.parametrize(
    "second",
    ["Would you also like me to set up a docking station?", "And what floor should it go to?"],
)
def test_a_second_question_keeps_the_call_open(second: str) -> None:
    """Finding 4: the read-back's question must be the turn's only one."""
    act = _caller(0, ONE).respond(
        "Your request for a new 27-inch monitor has been submitted. "
        f"To confirm, I have employee ID EMP126225. Is that correct? {second}"
    )
    assert not act.ends_call


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("What is your employee ID, and is there anything else I can help you with?", "E M P"),
        ("Could you confirm your employee ID, and is there anything else I can help with?", "E M P"),
        ("Please tell me your start time, and anything else I should know?", "9 AM"),
        ("Is there anything else I can help with, and could you confirm your employee ID?", "E M P"),
        ("Anything else I can help with, and what is your employee ID?", "E M P"),
        ("Is there anything else, and may I have your start time?", "9 AM"),
    ],
)
def test_anything_else_beside_a_value_asked_answers_it(question: str, said: str) -> None:
    """Finding 3: only the clause the cue leads is cut; the clauses before and after ask as usual."""
    c = _caller(0, ["Book a conference room for the team standup"])
    act = c.respond(f"All set. Your conference room for the team standup has been booked. {question}")
    assert not act.ends_call and said in act.text
