"""Asks the caller can only partly answer (:mod:`voxbench.pipelines.caller.goal.unheld`), questions
about the present moment rather than its facts (:mod:`voxbench.pipelines.caller.goal.present`), and
labels with a link word said whole (:func:`voxbench.pipelines.caller.goal.framing.narrowed`)."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.asks import asked_facts
from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.framing import narrowed
from voxbench.pipelines.caller.goal.present import present_asked

SEEDS = range(4)
NURSE = {
    "first_name": "Jamal",
    "date_of_birth": "1991-08-22",
    "employee_id": "EMP850800",
    "shift_date": "2026-09-14",
    "shift_start_time": "3:00 PM",
}


@pytest.mark.parametrize("seed", SEEDS)
def test_a_field_not_held_asked_beside_a_held_one_is_said_not_held(seed: int) -> None:
    c = opened(make_scenario(NURSE), seed)
    act = c.respond("Could you provide your employee ID and the shift ID?")
    assert "E M P eight five zero eight zero zero" in act.text
    assert "don't have the shift ID" in act.text
    # what stands for it: the shift's own facts, once
    assert "September 14, 2026" in act.text and "3 PM" in act.text
    assert "August 22, 1991" not in act.text


def test_a_field_not_held_is_no_field_named_another_way_or_an_alternative() -> None:
    book = goal_facts({"phone_last_four": "4821", "confirmation_number": "ZK3FFW", "last_name": "Park"})
    for turn in (
        "Please give me your last name and the last four digits of your phone number.",
        "Could you give me your last name and your reservation code?",  # the confirmation number
        "Can you give me the booking code or the last name?",  # alternatives
        "What is your last name and the expected number of passengers?",  # a number *of* something
    ):
        assert classify(turn, book).unheld == {}, turn


def test_a_field_not_held_with_nothing_to_stand_for_it_is_said_alone() -> None:
    book = goal_facts(NURSE)
    heard = classify("Can you give me your employee ID and your passport number?", book)
    assert heard.unheld == {"passport number": []}


@pytest.mark.parametrize(
    ("turn", "parts"),
    [
        ("What's the current date and time?", ["date", "time"]),
        ("Can you tell me today's date?", ["date"]),
        ("What is the date today?", ["date"]),
        ("Sorry, what time is it right now?", ["time"]),
        ("What is your current time zone?", []),  # a zone, not the time
        ("What is your current date of travel?", []),  # a date *of* something
        ("Is this a good time now?", []),
    ],
)
def test_the_present_moment_asked(turn: str, parts: list[str]) -> None:
    assert present_asked([turn]) == parts


@pytest.mark.parametrize("seed", SEEDS)
def test_the_present_moment_is_said_from_the_call_date_and_no_fact_of_its_head(seed: int) -> None:
    c = opened(make_scenario(NURSE), seed)  # the call: 2026-06-18 09:00
    act = c.respond("What's the current date and time?")
    assert "June 18, 2026" in act.text and "9 AM" in act.text, act.text
    assert not {"August 22", "September 14", "3 PM", "birth"} & set(act.text.split()), act.text
    assert "August" not in act.text and "September" not in act.text
    assert act.facts == []


@pytest.mark.parametrize("seed", SEEDS)
def test_a_fact_named_by_its_own_qualifier_is_still_given_beside_the_present(seed: int) -> None:
    c = opened(make_scenario(NURSE), seed)
    act = c.respond("What's your date of birth and today's date?")
    assert "August 22, 1991" in act.text and "June 18, 2026" in act.text
    assert "September" not in act.text


def test_a_label_with_a_link_word_is_narrowed_whole() -> None:
    """Narrowed to the words a turn says, a head and its qualifier after a link word are one:
    kept whole, or the label is not narrowed ([]), never 'date birth' or 'leave type record'."""
    assert narrowed(["date", "of", "birth"], frozenset({"date", "time"})) == []
    assert narrowed(["date", "of", "birth"], frozenset({"date", "birth"})) == ["date", "of", "birth"]
    assert narrowed(["leave", "type", "on", "record"], frozenset({"leave"})) == [
        "leave",
        "type",
        "on",
        "record",
    ]
    assert narrowed(["D", "E", "A", "number"], frozenset({"number"})) == ["number"]  # a spelled 'A' no link


@pytest.mark.parametrize("seed", SEEDS)
def test_an_identifier_asked_alone_is_said_not_held_before_the_facts_that_stand_for_it(seed: int) -> None:
    c = opened(make_scenario(NURSE), seed)
    act = c.respond("Could you provide the shift ID?")
    lacks = act.text.find("don't have the shift ID")
    assert 0 <= lacks < act.text.find("September 14, 2026")
    assert "3 PM" in act.text


def test_a_field_whose_facts_are_of_its_own_kind_is_the_fact_itself() -> None:
    book = goal_facts(NURSE)
    assert classify("What is the shift date?", book).unheld == {}
    assert classify("Could you provide the employee ID?", book).unheld == {}


@pytest.mark.parametrize(
    "field", ["vehicle license plate", "insurance policy", "parking permit"]
)  # nouns of no value head, in the list the agent asks for
def test_the_last_item_of_an_ask_naming_nothing_held_is_a_field_not_held(field: str) -> None:
    book = goal_facts(NURSE)
    heard = classify(f"Could you provide your first name and your {field}?", book)
    assert heard.unheld == {field: []}
    assert heard.asked == ["first_name"]


def test_an_item_that_is_no_ask_or_names_held_words_is_no_field() -> None:
    book = goal_facts({**NURSE, "employee_record_status": "active"})
    for turn in (
        "I need to review your employee record and your current checklist.",  # no ask of its things
        "Could you give me your employee ID and your shift?",  # the shift's facts are held
        "What is your first name and your request?",  # the matter in hand
    ):
        assert classify(turn, book).unheld == {}, turn


def test_a_head_after_a_word_of_no_fact_names_no_fact_spread_over_two_items() -> None:
    """'your dea transfer effective date and your fax number': 'dea' and 'number' are the words of
    'dea_number', one in each item; the fax number is not held, the DEA number is not asked."""
    book = goal_facts({"dea_number": "CY8801975", "dea_transfer_effective_date": "2026-07-01"})
    heard = classify("I'll need your dea transfer effective date and your fax number, please.", book)
    assert heard.asked == ["dea_transfer_effective_date"]
    assert heard.unheld == {"fax number": []}
    monitor = goal_facts({"monitor_size": "27-inch", "setup_type": "new"})
    turn = (
        "To get that monitor request started, I need two details: is this a new setup or a replacement"
        " for an existing monitor, and what size do you need: twenty-four inch or twenty-seven inch?"
    )
    assert "monitor_size" in dict(asked_facts(turn, monitor))  # 'what size': no qualifier of another thing


def test_values_read_back_and_asked_again_by_name_are_each_asked() -> None:
    """A key with a word the re-ask leaves out ('contact') is asked again all the same; 'again'
    of no request for a value asks nothing the turn says."""
    book = goal_facts({"phone_number_for_contact": "+1-225-555-3902", "first_name": "Jason"})
    turn = (
        "I have +1-225-555-3902 for the phone number and Jason for the first name. "
        "Can you repeat your phone number and first name?"
    )
    assert set(classify(turn, book).asked) == {"phone_number_for_contact", "first_name"}
    seat = goal_facts({"seat_preference": "aisle", "first_name": "Jason"})
    assert classify("Would you like an aisle seat again on the new flight?", seat).asked == []
