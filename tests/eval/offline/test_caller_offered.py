"""A caller's fact asked without its field's words (caller-rules 1.0, 1.1): a choice among options
holding the caller's value, and a synonym of the field's words."""

from __future__ import annotations

from typing import Any

from voxbench.eval.offline._caller_offered import listed_options
from voxbench.eval.offline._caller_synonyms import in_field_words
from voxbench.eval.offline.behavioral import user_behavioral_fidelity_offline

from .convs import A, U, context

GOAL: dict[str, Any] = {
    "high_level_user_goal": "Extend your license by sixty days.",
    "information_required": {
        "Passenger last name": "Rodriguez",
        "extension_days": 60,
        "Travel date": "2026-04-22",
    },
}


def _rate(*lines: dict[str, Any], goal: dict[str, Any] = GOAL) -> list[str]:
    events = [A("Hi, how can I help?"), U("I need to extend my license."), *lines,
              A("No problem, thank you for calling."), U("Bye.")]  # fmt: skip
    ctx = context(events, user_goal=goal, conversation_ended_reason="end_call", simulator_ended_call=True)
    return list(user_behavioral_fidelity_offline(ctx).details["detected"])


def test_which_one_after_options_holding_the_callers_value() -> None:
    """EVA medical_hr D2.1: "The available durations are thirty, sixty, or ninety days. Which
    one would you like?" asks the caller for its sixty days; "I don't know" withholds it."""
    q = "The available durations are thirty, sixty, or ninety days. Which one would you like?"
    assert _rate(A(q), U("I don't know.")) == ["missing_information"]
    assert _rate(A(q), U("Sixty days, please.")) == []
    other = (
        "The available durations are thirty, ninety, or one hundred twenty days. Which one would you like?"
    )
    assert _rate(A(other), U("I don't know.")) == []


def test_options_read_in_the_turn_before_the_question() -> None:
    listed = A("I have flights on April twenty-first, April twenty-second, or April twenty-fifth.")
    assert _rate(listed, U("Okay."), A("Which one would you like?"), U("I'm not sure.")) == [
        "missing_information"
    ]
    far = A(
        "I have flights on April twenty-first, April twenty-second, or April twenty-fifth. Let me check seats."
    )
    assert _rate(far, U("Okay."), A("Anything else? Which one would you like?"), U("I'm not sure.")) == [
        "missing_information"
    ]


def test_a_read_back_of_several_facts_is_no_choice() -> None:
    """Every item holds one of the caller's facts: a read-back, not options of one fact."""
    q = "I have Rodriguez, sixty days, and April twenty-second. Which one would you like to change?"
    assert _rate(A(q), U("I'm not sure.")) == []


def test_a_sentence_with_commas_and_and_is_a_list_only_beside_the_question() -> None:
    """Options are read from the question and the sentence before it: a clause list two
    sentences earlier ("I checked the sixty, which is full, and nothing is open.") is no offer."""
    q = "I checked sixty days, which is full, and nothing is open. Sorry about that. Which would you prefer?"
    assert _rate(A(q), U("I don't know.")) == []


def test_listed_options_cut_the_lead_in() -> None:
    assert listed_options("The available durations are thirty, sixty, or ninety days.") == [
        ["durations are thirty", "sixty", "ninety days"]
    ]
    assert listed_options("I can offer Mac or Windows.") == [["offer Mac", "Windows"]]
    assert listed_options("Your seat is confirmed.") == []


def test_a_synonym_of_the_fields_words_asks_for_it() -> None:
    assert in_field_words("Could I have your surname and your DOB?") == (
        "Could I have your last name and your date of birth?"
    )
    assert _rate(A("Thanks. What's your surname?"), U("I don't have that, sorry.")) == ["missing_information"]
    assert _rate(A("Thanks. What's your husband's surname?"), U("I don't have that, sorry.")) == []


def test_a_field_named_by_a_synonym_is_asked_by_that_word() -> None:
    """The field's name goes through the synonym table like the agent's line: a field called
    `surname` (`dob`, `postcode`, `headcount`) is asked by "surname" as by "last name"."""
    for field, value, question in [
        ("surname", "Okafor", "What's your surname?"),
        ("surname", "Okafor", "What's your last name?"),
        ("dob", "1988-03-14", "Could you tell me your DOB?"),
        ("dob", "1988-03-14", "What's your date of birth?"),
        ("postcode", "90210", "And your postcode?"),
        ("headcount", "12", "What's the headcount for the meeting?"),
        ("guest_family_name", "Okafor", "What's the guest's family name?"),
        ("birthday", "1988-03-14", "When is your birthday?"),
    ]:
        goal = {"high_level_user_goal": "Book a room.", "information_required": {field: value}}
        assert _rate(A(f"Thanks. {question}"), U("I don't have that, sorry."), goal=goal) == [
            "missing_information"
        ], (field, question)


def test_general_words_are_no_synonym_of_a_field() -> None:
    """ "passcode" is any code ("the passcode for the door"), "birthday" any birthday ("Happy
    birthday!"): only "your birthday" (a possessive before it) is a date of birth."""
    assert in_field_words("Can I get the passcode for the door?") == "Can I get the passcode for the door?"
    assert in_field_words("Happy birthday! Anything else?") == "Happy birthday! Anything else?"
    assert in_field_words("When is your birthday?") == "When is your date of birth?"
    assert in_field_words("What's your wife's birthday?") == "What's your wife's date of birth?"
    assert in_field_words("Birthday party plans?") == "Birthday party plans?"
    assert in_field_words("Please read me the one-time passcode.") == "Please read me the otp code."
