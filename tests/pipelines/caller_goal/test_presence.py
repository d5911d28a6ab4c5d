"""The agent checks the caller is on the line: a turn that is only that gets "I'm here", and a
check in front of a question leaves the question answered (:mod:`voxbench.pipelines.caller.goal.presence`)."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.presence import is_presence_check, split_presence

from .conftest import make_scenario, opened

INFO = {"confirmation_code": "ZK3FFW", "last_name": "Lima", "first_name": "Ana"}


@pytest.mark.parametrize(
    "turn",
    [
        "Hello?",
        "Are you still there?",
        "Hi, can you hear me?",
        "Hello? Are you still on the line?",
        "Is anyone there?",
        "Hey, did I lose you?",
        "Hello. Hello?",
    ],
)
def test_a_turn_that_only_checks_gets_im_here_and_no_fact(turn: str) -> None:
    c = opened(make_scenario(INFO))
    act = c.respond(turn)
    assert act.kind == "confirm" and act.rule == "presence_check_here"
    assert "here" in act.text.lower() and not act.facts and not act.ends_call


def test_a_check_in_front_of_a_question_leaves_the_question_answered() -> None:
    c = opened(make_scenario(INFO))
    act = c.respond("Are you still there? Can I have your confirmation code?")
    assert act.facts == ["confirmation_code"]


@pytest.mark.parametrize(
    "sentence",
    [
        "Are you there with your booking?",
        "Hello, can I have your last name?",
        "Can you hear the change fee?",
        "Is the flight still there on the schedule?",
        "Thanks for holding.",
    ],
)
def test_sentences_that_ask_something_else_are_no_check(sentence: str) -> None:
    assert not is_presence_check(sentence)


def test_split_keeps_the_rest_of_the_turn_in_order() -> None:
    assert split_presence("Hello? I found your booking. Is that right?") == (
        True,
        "I found your booking. Is that right?",
    )
    assert split_presence("I found it.") == (False, "I found it.")


def test_checks_asked_again_and_again_end_the_call_in_the_end() -> None:
    """The agent never hears the answer: the stall bound ends the call, not an endless 'I'm here'."""
    c = opened(make_scenario(INFO))
    acts = []
    while not (acts and acts[-1].ends_call) and len(acts) < 8:
        acts.append(c.respond("Hello? Are you still there?"))
    assert acts[-1].ends_call and len(acts) <= 4
    assert all(a.rule == "presence_check_here" for a in acts[:-1])
