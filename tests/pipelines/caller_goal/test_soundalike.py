"""A fact's label heard with one word misheard is read as that fact (:mod:`.soundalike`), and
ordinary sentences near a label are left as they are."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.soundalike import relabelled, sound_key, sounds_like

_INFO = {
    "employee_id": "EMP055555",
    "last_name": "Okafor",
    "first_name": "Hannah",
    "new_role_code": "MGENG",
    "start_date": "2026-08-10",
    "phone_number": "555-201-3344",
    "date_of_birth": "1990-03-14",
    "order_number": "ORD-4471",
}
_BOOK = goal_facts(_INFO)


@pytest.mark.parametrize(
    ("heard", "meant"),
    [
        ("Can you give me the new row code you want to apply?", "the new role code"),
        ("And the new roll code, please?", "the new role code"),
        ("What is your last game?", "your last name"),
        ("Could you spell your first dame for me?", "your first name"),
        ("What is your order nimber?", "your order number"),
        ("Please confirm your start data.", "your start date"),
    ],
)
def test_a_label_heard_one_word_wrong_is_read_as_the_fact(heard: str, meant: str) -> None:
    assert meant in relabelled(heard, _BOOK)


@pytest.mark.parametrize(
    "sentence",
    [
        "We start late on Mondays.",  # no determiner: a verb phrase, not a label
        "Your phone numbers are both on file.",  # an inflection of the label's word: understood already
        "The last time you called was in May.",
        "Your last one was cancelled.",
        "The new rule applies to everyone from June.",
        "The last page of the form needs a signature.",
        "Your first day is Monday.",
        "The date of death is not needed here.",
        "Your employee handbook is online.",
        "My name is Alex, how can I help?",
        "Please hold the line while I check.",
        "Your order is ready, the last one shipped.",
        "Is that your last name, Okafor?",  # the label as it is: nothing to change
        "The start, date and time are on the form.",  # a comma inside: no label run
        "Your new code is ready.",  # two words of a three-word label: no run of the label
    ],
)
def test_ordinary_sentences_are_left_as_heard(sentence: str) -> None:
    assert relabelled(sentence, _BOOK) == sentence


def test_an_odd_word_that_is_another_facts_label_word_is_not_read_as_this_one() -> None:
    """'your last game' with a game code held: 'game' may name that fact, so it stays."""
    book = goal_facts({"last_name": "Okafor", "game_code": "G-17"})
    assert relabelled("What is your last game?", book) == "What is your last game?"


def test_sound_keys_and_one_edit() -> None:
    assert sound_key("roll") == sound_key("role") == "rol"
    assert sounds_like("row", "role") and sounds_like("game", "name")
    assert not sounds_like("numbers", "number")  # inflection
    assert not sounds_like("it", "id")  # too short to judge
    assert not sounds_like("time", "name")  # two edits


def test_the_caller_gives_the_fact_asked_by_a_misheard_label() -> None:
    """Live itsm/29: 'the new row code' heard for 'the new role code'; the caller gave it, not
    'I don't have the new row code'."""
    info = {"employee_id": "EMP055555", "new_role_code": "MGENG"}
    caller = GoalCaller(make_scenario(info, goal="You want to apply a new role code to your account."))
    caller.open()
    act = caller.respond("Can you please provide your employee ID and the new row code you want to apply?")
    assert {"employee_id", "new_role_code"} <= set(act.facts)
    assert "row code" not in act.text
