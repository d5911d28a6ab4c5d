"""Three forms a small agent's turn takes through speech recognition (:mod:`voxbench.pipelines.
caller.goal.forms`): a read-back said as a statement (its question mark lost), a request cut off,
and "do you have a/any X (preference)?"."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.forms import (
    check_statement,
    cut_request,
    have_question,
    named_right,
    preference_facts,
    reports_done,
    wanted_wrong,
)
from voxbench.pipelines.caller.goal.turn import Turn

from .conftest import make_scenario, opened

INFO = {
    "first_name": "Ana",
    "last_name": "Lima",
    "employee_id": "EMP091654",
    "confirmation_number": "ZK3FFW",
    "attendee_count": 6,
    "desired_floor": "floor 3",
    "preferred_date": "2026-07-09",
    "leave_start_date": "2026-07-01",
    "desired_new_departure_date": "2026-05-08",
}
BOOK = goal_facts(INFO)


def _caller():  # type: ignore[no-untyped-def]
    return opened(make_scenario(INFO, goal="You want to move your flight and book a desk on your floor.",
                                start="Hi, I need to change my flight."))  # fmt: skip


# -- a read-back said as a statement ---------------------------------------------------------------


def test_a_second_person_statement_ending_a_turn_that_asks_nothing_is_a_check() -> None:
    assert (
        check_statement(Turn.of("Okay. So your employee ID is E M P zero nine one six five four."), BOOK)
        != ""
    )
    assert check_statement(Turn.of("So you'd like to move your flight to May 8."), BOOK) != ""
    assert (
        check_statement(Turn.of("So your employee ID is EMP091654. What is your last name?"), BOOK) == ""
    )  # asks
    assert check_statement(Turn.of("Your employee ID is EMP091654. Let me check."), BOOK) == ""  # not last
    # a turn that reports something done is a summary, not a read-back awaiting a yes
    assert check_statement(Turn.of("All set. Your confirmation number remains ZK3FFW."), BOOK) == ""
    news = "Your booking on the three PM flight from Boston remains unchanged. Your employee ID is EMP091654."
    assert check_statement(Turn.of(news), BOOK) == ""  # after news: a summary's last line


def test_a_short_value_named_by_its_field_is_read_back_right() -> None:
    assert named_right("Your attendee count is 6.", BOOK) == ["attendee_count"]
    assert named_right("Your attendee count is 7.", BOOK) == []


def test_a_statement_read_back_gets_yes_when_right_and_a_correction_when_wrong() -> None:
    heard = classify("Okay, your employee ID is E M P zero nine one six five four.", BOOK)
    assert (
        heard.has("confirm_question")
        and "statement_check" in heard.rules
        and heard.readback_ok == ["employee_id"]
    )
    act = _caller().respond("Got it. Your attendee count is 6.")
    assert act.kind == "confirm" and act.choice == "yes"
    act = _caller().respond("Your employee ID is E M P one two three.")
    assert act.kind == "correct" and "employee_id" in act.facts
    act = _caller().respond("So you'd like the desired new departure date to be May 5.")  # a want, said wrong
    assert act.kind == "correct" and "desired_new_departure_date" in act.facts


def test_a_report_in_the_second_person_is_no_check() -> None:
    for text in ("You're all set.", "You're verified.", "Your ticket has been created."):
        heard = classify(text, BOOK)
        assert "statement_check" not in heard.rules and not heard.has("confirm_question"), text
        act = _caller().respond(text)
        assert act.choice != "yes" and not act.text.startswith("Yes"), (text, act.text)


# -- a request cut off -----------------------------------------------------------------------------


def test_a_request_cut_before_or_inside_its_object_is_cut() -> None:
    assert cut_request(Turn.of("Can you give me your."), BOOK)
    assert cut_request(Turn.of("Please provide the conf."), BOOK)  # 'confirmation': a key word
    assert cut_request(Turn.of("I'll need the em."), BOOK)
    assert cut_request(Turn.of("I'll need the DE."), BOOK, before="I can transfer your DEA registration.")


def test_a_word_or_a_preposition_ending_a_request_is_not_a_cut() -> None:
    assert not cut_request(Turn.of("Which system are you locked out of?"), BOOK)
    assert not cut_request(Turn.of("What else would you like to share?"), BOOK)
    assert cut_request(Turn.of("Could you please provide."), BOOK)
    assert not cut_request(Turn.of("Could you please give me your frequent flyer number?"), BOOK)
    assert not cut_request(Turn.of("Please provide the fax."), BOOK)  # a word, no key word's start
    assert not cut_request(
        Turn.of("I'll need the con."), BOOK, before="Let me see the con report."
    )  # the agent's word


def test_a_cut_request_is_asked_again_and_a_lacked_field_is_still_lacked() -> None:
    act = _caller().respond("Please provide the conf.")
    assert act.rule == "cut_request_asks_again" and "?" in act.text and not act.facts
    act = _caller().respond("Could you please give me your frequent flyer number?")
    assert act.kind == "cannot_answer" and "don't have" in act.text


# -- "do you have a/any X?" ----------------------------------------------------------------------


def test_a_have_question_names_a_preference_or_a_field() -> None:
    assert have_question("Do you have a floor preference?") == "floor preference"
    assert have_question("Do you have any preference for the seat?") == "preference for the seat"
    assert have_question("Do you have a confirmation number?") == "confirmation number"
    assert have_question("Do you have a moment?") == ""
    assert have_question("Do you have a window or aisle preference?") == ""  # a choice


def test_a_preference_question_asks_the_preference_it_names() -> None:
    assert preference_facts("date preference", BOOK) == ["preferred_date"]  # not the leave dates
    assert preference_facts("floor preference", BOOK) == ["desired_floor"]
    assert preference_facts("confirmation number", BOOK) == []


def test_a_held_preference_is_yes_and_the_value_and_none_is_a_no() -> None:
    act = _caller().respond("Do you have a floor preference?")
    assert act.text.startswith("Yes") and act.facts == ["desired_floor"], act.text
    act = _caller().respond("Do you have a meal preference?")
    assert act.choice == "no" and act.text.startswith("No") and not act.facts


def test_a_report_gets_thanks_not_yes_before_the_next_request() -> None:
    c = opened(
        make_scenario(INFO, intents=["Move my flight", "Book a desk"], start="Hi, I have two requests.")
    )
    act = c.respond("Your flight has been changed.")
    assert act.rule == "next_intent" and act.text.startswith("Thanks."), act.text


def test_a_want_naming_a_field_and_no_value_is_yes_and_the_value() -> None:
    """'you want to win the seat.' (the recogniser's 'you want the window seat'): yes, and its value."""
    sc = make_scenario({"seat_preference": {"first_choice": "window", "second_choice": "aisle"}})
    act = opened(sc).respond("you want to win the seat.")
    assert act.text.startswith("Yes") and "window" in act.text.lower(), act.text


def test_a_want_with_a_date_or_code_none_of_its_own_reads_back_its_wanted_one_wrong() -> None:
    one = goal_facts({"original_departure_date": "2026-05-01", "desired_new_departure_date": "2026-05-08"})
    assert wanted_wrong("So you'd like to move your flight to May 5.", one) == ["desired_new_departure_date"]
    assert wanted_wrong("So you'd like to move your flight to May 8.", one) == []  # its own
    assert wanted_wrong("Your flight is on May 5.", one) == []  # no want
    assert wanted_wrong("So you'd like to move your flight to May 5.", BOOK) == []  # two dates wanted: which?
    book = goal_facts({"new_facility_code": "GJPZ-24Y", "new_policy_number": "POL-2025-2X18HA"})
    assert wanted_wrong("Okay, so you'd like to change it to GJPZ-57Y.", book) == [
        "new_facility_code"
    ]  # its shape


def test_its_own_reference_read_back_as_its_field_reports_nothing_done() -> None:
    assert not reports_done("Okay, your confirmation number is ZK3FFW.", BOOK)  # its own: a read-back
    assert reports_done("Your confirmation number is QX7RTP.", BOOK)  # a new one: a report
    assert reports_done("Your confirmation number ZK3FFW has been updated.", BOOK)  # a done verb
    act = _caller().respond("Okay, your confirmation number is ZK3FFW.")
    assert act.choice == "yes" and not act.ends_call, act.text
    assert reports_done(
        "Your voucher code is MEAL5, and your confirmation number is ZK3FFW.", BOOK
    )  # a summary
