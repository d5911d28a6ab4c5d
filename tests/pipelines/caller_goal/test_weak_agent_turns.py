"""What a small agent says that EVA's reference agents do not (issue 29, live calls with the
bundled agent): a field confirmed with another person's value, a record read back with a wrong
value, a count said as a bare fragment."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.readback import misread

from .conftest import make_scenario

INFO = {
    "first_name": "Maria",
    "last_name": "Park",
    "Husband's name": "David Park",
    "employee_id": "EMP031482",
    "colleague_employee_id": "EMP072948",
    "start_time": "14:00",
    "pto_start_date": "2026-08-10",
    "attendee_count": "6",
    "original_travel_details": [{"origin": "BOS", "flight_date": "2026-04-21"}],
}


def _caller() -> GoalCaller:
    c = GoalCaller(make_scenario(INFO, goal="You want to book a room for your team."))
    c.open()
    return c


def test_a_field_named_with_another_persons_value_is_misread_and_whose_is_known() -> None:
    book = goal_facts(INFO)
    assert misread("Could you please confirm your name is David Park?", book) == {
        "first_name": "Husband's name", "last_name": "Husband's name"}  # fmt: skip
    assert misread("Just to confirm, your employee ID is EMP072948. Is that correct?", book) == {
        "employee_id": "colleague_employee_id"}  # fmt: skip
    assert misread("I have your start time as 16:00, right?", book) == {"start_time": ""}
    assert misread("I have your flight date as April 24, 2026, right?", book) == {
        "original_travel_details.0.flight_date": ""}  # fmt: skip


def test_the_right_value_another_fields_value_and_another_record_are_no_misreading() -> None:
    book = goal_facts(INFO)
    assert misread("Could you please confirm your name is Maria Park?", book) == {}
    assert misread("Could you please confirm your start time is 2 PM?", book) == {}
    assert misread("Your colleague's employee ID is EMP072948, right?", book) == {}  # theirs, said as theirs
    assert misread("Your new flight date is April 25, 2026. Is that correct?", book) == {}  # another record


def test_confirming_the_caller_as_its_husband_is_corrected_with_whose_name_it_is() -> None:
    act = _caller().respond("Could you please confirm your name is David Park?")
    assert act.kind == "correct" and act.choice == "no"
    assert "David Park is my husband's name." in act.text and "Maria Park" in act.text
    assert set(act.facts) == {"first_name", "last_name"}


def test_a_colleagues_id_for_its_own_is_corrected() -> None:
    act = _caller().respond("Could you please confirm your employee ID is EMP072948?")
    assert act.kind == "correct"
    assert "is my colleague's employee ID" in act.text and "zero three one four eight two" in act.text


def test_a_record_read_back_with_one_value_changed_is_not_its_booking() -> None:
    act = _caller().respond(
        "I found your record: origin BOS, and flight date April 24, 2026. Is that correct?"
    )
    assert act.kind == "correct" and act.choice == "no"
    assert "April 21, 2026" in act.text and "April 24" not in act.text


def test_could_you_confirm_the_right_value_is_a_yes() -> None:
    act = _caller().respond("Could you please confirm your employee ID is EMP031482?")
    assert act.kind == "confirm" and act.choice == "yes"


def test_could_you_verify_a_field_with_no_value_is_still_a_request() -> None:
    heard = classify("Could you please verify your employee ID?", goal_facts(INFO))
    assert heard.asked == ["employee_id"] and not heard.readback_wrong


def test_a_count_is_said_with_its_noun_phrase_unless_asked_how_many() -> None:
    """A small count in words ('I need 1 bag.' was the digit where a person says 'one', live);
    a larger one keeps its digits, a number that counts nothing is said as a number."""
    c = GoalCaller(make_scenario({"confirmation_number": "ZK3FFW", "bags_wanted": 1, "attendee_count": "6",
                                  "extension_days": "60", "room_number": "101", "weeks_needed": "10"}))  # fmt: skip
    assert c.say.answer(["bags_wanted"]) in ("I'd like one bag.", "I need one bag.")
    assert c.say.answer(["bags_wanted"], "How many bags would you like?") == "One bag."
    assert c.say.answer(["attendee_count"]) in ("There are six attendees.", "That's six attendees.")
    assert c.say.answer(["weeks_needed"]) in ("I'd like ten weeks.", "I need ten weeks.")
    assert c.say.answer(["extension_days"]) in ("My extension is 60 days.", "The extension is 60 days.")
    assert "room number is one zero one." in c.say.answer(["room_number"])  # a number, not a count of rooms


def test_a_listed_records_field_is_asked_by_its_own_words() -> None:
    """'What is your origin?' names 'original_travel_details.0.origin'; 'what new date' does not
    name the original record's date (a state word its key does not have)."""
    book = goal_facts(INFO)
    assert classify("What is your origin?", book).asked == ["original_travel_details.0.origin"]
    assert (
        "original_travel_details.0.flight_date"
        not in classify("What new flight date would you like?", book).asked
    )


def test_a_field_said_whole_is_not_taken_for_the_request_in_hands_field() -> None:
    """'your last name' names the last name, not the building name of the desk request in hand."""
    sc = make_scenario({"first_name": "Ethan", "last_name": "Obrien", "building_name": "East Campus"},
                       goal="You want a desk at East Campus.", start="Hi, I need a desk at East Campus.")  # fmt: skip
    c = GoalCaller(sc)
    c.open()
    act = c.respond("I will need your last name to continue. Can you provide that information?")
    assert "Obrien" in act.text and "East Campus" not in act.text


def test_the_change_it_wants_read_back_for_the_field_is_no_misreading() -> None:
    book = goal_facts({"requested_new_departure_time": "1:00 PM",
                       "original_travel_details": [{"departure_time": "18:10"}]})  # fmt: skip
    assert misread("I have your departure time as 1:00 PM, right?", book) == {}
    assert misread("I have your departure time as 3:00 PM, right?", book) == {
        "original_travel_details.0.departure_time": ""
    }


def test_an_announced_check_is_waited_for_not_answered() -> None:
    for turn in ("Great! I'll need to verify the eligibility for this start time.",
                 "Let me check the employee ID for you.", "I will look into the options."):  # fmt: skip
        act = _caller().respond(turn)
        assert act.kind == "wait" and not act.facts, (turn, act)


def test_need_to_verify_your_field_is_still_a_request() -> None:
    act = _caller().respond("I'll need to verify your employee ID.")
    assert act.facts == ["employee_id"], act
    assert "hold" not in classify("I'll need to check a few details with you.", goal_facts(INFO)).kinds


def test_a_request_for_information_naming_no_field_is_asked_back_never_a_yes() -> None:
    for turn in ("Can you please provide me with the necessary information?", "Could you give me the details I need?",
                 "Could you please share the information required to proceed?",
                 "Please provide the following information:",  # live: the agent's list never came
                 "I can help with that. Please provide the following information."):  # fmt: skip
        assert "info_request" in classify(turn, goal_facts(INFO)).kinds
        act = _caller().respond(turn)
        assert act.rule == "vague_request_asks_what" and "?" in act.text and not act.text.startswith("Yes"), (
            act
        )


def test_a_request_naming_a_field_or_asking_whether_is_no_vague_request() -> None:
    book = goal_facts(INFO)
    assert _caller().respond("Can you please provide me with your employee ID?").facts == ["employee_id"]
    for turn in ("Could you please give me your vehicle license plate?", "Can you tell me if that worked?",
                 "Could you tell me what happened?"):  # fmt: skip
        assert "info_request" not in classify(turn, book).kinds, turn
