"""A fact's label heard with one word misheard is read as that fact (:mod:`.soundalike`), and
ordinary sentences near a label are left as they are."""

from __future__ import annotations

import re

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
        ("What is your order nimber?", "your order number"),
        ("Could you tell me your last nam please?", "your last name"),
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
        "What is your last game?",  # g/n: no confusable pair
        "Could you spell your first dame for me?",  # d/n
        "Please confirm your start data.",  # an 'a' added: not a dropped sound
        "Your order lumber arrives Monday.",  # l/n
        "Your start rate is fixed.",  # r/d
    ],
)
def test_ordinary_sentences_are_left_as_heard(sentence: str) -> None:
    assert relabelled(sentence, _BOOK) == sentence


_REVIEW_INFO = {
    **_INFO,
    "flight_date": "2026-09-01",
    "end_date": "2026-08-20",
    "seat_preference": "aisle",
    "room_type": "suite",
    "access_level": "admin",
}
_REVIEWED = [  # issue 29's review: sentences near a label the first rule rewrote or could have
    "That was the last game of the season.",
    "Our flight gate is B12.",
    "The flight gate changed to C4.",
    "The new rule code applies from June.",
    "Your order lumber arrives Monday.",
    "The flight data is being uploaded.",
    "That room tape needs replacing.",
    "Your access lever is on the left.",
    "Your last came in yesterday.",
    "The end dale is a valley.",
    "Your room size is fine.",
    "the end date and the end data are different",
]
_REVIEWED_QUESTIONS = [
    "Which flight gate are you at?",
    "Is the seat reference correct?",
    "What flight late did you report?",
    "The new rule code applies from June. Is that okay?",
    "Our flight gate is B12. Do you need anything else?",
    "Your first fame came early, right?",
    "Your order lumber arrives Monday. Anything else?",
    "Your last came in yesterday, is that right?",
    "Is this your first flight with us?",
    "What is the last page of the form?",
]


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def _reply(text: str) -> tuple[str, list[str]]:
    """The caller's reading of ``text`` (the turn it kept) and the facts its reply gave."""
    caller = GoalCaller(make_scenario(_REVIEW_INFO, goal="You want to update your account."))
    caller.open()
    act = caller.respond(text)
    return caller.s.agent_turn, act.facts


@pytest.mark.parametrize("sentence", _REVIEWED + _REVIEWED_QUESTIONS)
def test_a_reviewed_ordinary_sentence_is_kept_as_heard(sentence: str) -> None:
    kept, _facts = _reply(sentence)
    assert _words(kept) == _words(sentence)


@pytest.mark.parametrize("question", _REVIEWED_QUESTIONS)
def test_a_reviewed_question_discloses_no_fact(question: str) -> None:
    assert _reply(question)[1] == []


def test_a_statement_is_never_re_read_even_beside_a_question() -> None:
    """The label in the statement is left; only request sentences are re-read, as a fallback."""
    heard = "The new row code is on file. Can you hold on?"
    assert "row code" in _reply(heard)[0]


def test_a_request_the_caller_understood_is_not_re_read() -> None:
    """'your last game' beside a fact the caller answers: not a fallback case."""
    kept, facts = _reply("What is your order number and your last game?")
    assert "last game" in kept and "order_number" in facts and "last_name" not in facts


def test_an_odd_word_that_is_another_facts_label_word_is_not_read_as_this_one() -> None:
    """'your last game' with a game code held: 'game' may name that fact, so it stays."""
    book = goal_facts({"last_name": "Okafor", "game_code": "G-17"})
    assert relabelled("What is your last game?", book) == "What is your last game?"


def test_sound_keys_and_one_edit() -> None:
    assert sound_key("roll") == sound_key("role") == "rol"
    assert sounds_like("row", "role") and sounds_like("roll", "role") and sounds_like("nimber", "number")
    for heard, meant in [("game", "name"), ("gate", "date"), ("lumber", "number"), ("rate", "date")]:
        assert not sounds_like(heard, meant)  # no confusable pair
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
