"""Four classes of agent turns read in live calls of the goal caller (issue 29), each stated once:

1. a request for two things in one sentence gets every part the caller has an answer for (a free
   text fact and a date; an open part about its needs, answered with its request);
2. facts it gave, read back and asked again together, are all given again, codes spelled;
3. a label whose head is a thing the caller uses is not said as its own ('my application');
4. a not-found report naming several values it gave gets them again, a name spelled letter by letter.
"""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.labels import owned
from voxbench.pipelines.caller.goal.parts import open_parts, parts_of

from .conftest import make_scenario, opened

ID_INFO = {"confirmation_code": "ZK3FFW", "last_name": "Lima", "first_name": "Ana"}
HR_INFO = {
    "employee_id": "EMP048271",
    "leave_reason": "family visit",
    "preferred_date": "2026-08-03",
    "date_of_birth": "1990-02-11",
}


# -- 1. two-part requests ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "turn",
    [
        "Could you give me the details of the leave reason, and the preferred date?",
        "What is the leave reason, and what is the preferred date?",
        "Can you tell me the leave reason and also the preferred date?",
        "I'll need the leave reason, and the preferred date as well.",
    ],
)
def test_a_text_fact_and_a_date_asked_together_are_both_given(turn: str) -> None:
    c = opened(make_scenario(HR_INFO, goal="You want to take leave for a family visit."))
    act = c.respond(turn)
    assert act.kind == "answer"
    assert {"leave_reason", "preferred_date"} <= set(act.facts), act.text
    assert "family visit" in act.text and "August 3" in act.text


def test_one_parts_words_do_not_name_a_fact_with_the_others() -> None:
    """'the leave type, and the preferred date': no leave date is asked."""
    info = {"leave_type": "medical", "leave_start_date": "2026-08-19", "preferred_date": "2026-09-21"}
    act = opened(make_scenario(info)).respond("What is the leave type, and what is the preferred date?")
    assert set(act.facts) >= {"leave_type", "preferred_date"} and "leave_start_date" not in act.facts


@pytest.mark.parametrize(
    "turn",
    [
        "Could you give me the details of the onboarding items you need, and the date?",
        "What onboarding items do you need updated, and what date would you like?",
        "Please tell me the information on the items you'd like, and the preferred date.",
    ],
)
def test_an_open_part_gets_the_request_and_the_other_part_its_fact(turn: str) -> None:
    sc = make_scenario(
        {"employee_id": "EMP1", "preferred_date": "2026-06-15"},
        goal="You need your onboarding tasks marked complete and a follow-up booked.",
        intents=["Mark onboarding tasks complete"],
    )
    act = opened(sc).respond(turn)
    assert "preferred_date" in act.facts and "June 15" in act.text
    assert "onboarding tasks" in act.text.lower(), act.text


def test_parts_are_split_at_a_join_before_a_new_request_only() -> None:
    assert parts_of("What is the reason, and what is the date?") == [
        "What is the reason",
        "what is the date?",
    ]
    assert parts_of("What is your employee ID and date of birth?") == [
        "What is your employee ID and date of birth?"
    ]
    assert open_parts("What size do you need: 24 or 27 inch, and what is the date?") == []
    assert open_parts("What do you need today, and what is your employee ID?") == ["What do you need today"]


# -- 2. asked again after a read-back -----------------------------------------------------------


@pytest.mark.parametrize(
    "turn",
    [
        "Thank you. I have confirmation code Z K 3 F F W and last name Lima. Can I get your confirmation code and last name again?",
        "Okay, code ZK3FFW, last name Lima. Could you give me your confirmation code and last name once more?",
        "I have ZK3FFW for the confirmation code and Lima for the last name. Can you repeat your confirmation code and last name?",
        "Can I have your confirmation code and last name again?",
    ],
)
def test_facts_read_back_and_asked_again_are_all_given_again(turn: str) -> None:
    c = opened(make_scenario(ID_INFO))
    c.respond("Can I have your confirmation code and last name?")
    act = c.respond(turn)
    assert act.kind == "answer" and set(act.facts) >= {"confirmation_code", "last_name"}, act.text
    assert "Z K three F F W" in act.text and "Lima" in act.text
    assert "don't have" not in act.text


# -- 3. a thing's label is not the caller's ------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "own"),
    [
        (["application"], False),
        (["target", "system"], False),
        (["application", "name"], False),
        (["equipment", "type"], False),
        (["affected", "service"], False),
        (["date"], False),
        (["employee", "ID"], True),
        (["start", "date"], True),
        (["last", "name"], True),
        (["department", "code"], True),
    ],
)
def test_a_label_is_owned_unless_its_head_is_a_thing(words: list[str], own: bool) -> None:
    assert owned(words) is own


@pytest.mark.parametrize("seed", range(6))
def test_a_things_value_is_never_said_as_my_thing(seed: int) -> None:
    info = {"employee_id": "EMP048271", "application": "Confluence", "target_system": "active_directory"}
    c = opened(make_scenario(info, goal="You need access to an application."), seed)
    c.respond("What is your employee ID?")
    text = c.respond("Please provide the application and the target system.").text
    assert "Confluence" in text and "active directory" in text.lower(), text  # the values are said
    assert "my application" not in text.lower() and "my target system" not in text.lower(), text


# -- 4. not found under the values given ----------------------------------------------------------


@pytest.mark.parametrize(
    "turn",
    [
        "I couldn't find a reservation under that code and last name.",
        "I'm sorry, I wasn't able to locate a booking with that confirmation code and last name.",
        "Hmm, I'm not finding a match for that code and last name. Could you check them?",
        "No reservation came up under that confirmation code and last name.",
    ],
)
def test_not_found_under_its_values_gets_them_again_the_name_spelled(turn: str) -> None:
    c = opened(make_scenario(ID_INFO))
    c.respond("Can I have your confirmation code and last name?")
    act = c.respond(turn)
    assert act.rule == "not_found_gives_again" and set(act.facts) == {"confirmation_code", "last_name"}
    assert "Z K three F F W" in act.text and "L I M A" in act.text, act.text


def test_the_values_are_spelled_once_then_the_refusal_stands() -> None:
    c = opened(make_scenario(ID_INFO))
    c.respond("Can I have your confirmation code and last name?")
    c.respond("I couldn't find a reservation under that code and last name.")
    again = c.respond("I still couldn't find a reservation under that confirmation code and last name.")
    assert again.rule != "not_found_gives_again"


def test_one_code_not_found_or_a_turn_that_asks_is_left_to_the_other_rules() -> None:
    c = opened(make_scenario(ID_INFO))
    c.respond("Can I have your confirmation code?")
    assert c.respond("I couldn't find a reservation under that code.").rule != "not_found_gives_again"
    c = opened(make_scenario(ID_INFO))
    c.respond("Can I have your confirmation code and last name?")
    act = c.respond("I couldn't find that code. Could you spell your last name?")
    assert act.rule != "not_found_gives_again" and "L I M A" in act.text


def test_after_the_code_was_asked_again_a_not_found_still_spells_the_name() -> None:
    """Live: the code said twice, the name once; the next not-found gets both, the name spelled.
    Each value already said twice (given, then again) is the refusal standing."""
    c = opened(make_scenario(ID_INFO))
    c.respond("Can I have your confirmation code and last name?")
    c.respond("I couldn't find that reservation. Can you read me the confirmation code again?")
    act = c.respond("I still couldn't find a reservation under that code and last name.")
    assert act.rule == "not_found_gives_again" and "L I M A" in act.text
    c = opened(make_scenario(ID_INFO))
    c.respond("Can I have your confirmation code and last name?")
    c.respond("Sorry, could you give me your confirmation code and last name once more?")
    assert (
        c.respond("I couldn't find a reservation under that code and last name.").rule
        != "not_found_gives_again"
    )
