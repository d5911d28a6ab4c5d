"""Holds and presence checks read by what they are (:mod:`voxbench.pipelines.caller.goal.holds`,
:mod:`voxbench.pipelines.caller.goal.presence`), with the real caller: a hold gets a wait, a line
check "Yes, I'm here.", an ordinary turn neither. The wordings are the DEVELOP half (even
positions) of ``benchmarks/caller_turn_kinds.json``; its held-out half is read by the benchmark
alone, once, at the end of a change."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.holds import HOLD, ing_form
from voxbench.pipelines.caller.goal.presence import is_presence_check

from .conftest import make_scenario, opened

_SET = json.loads((Path(__file__).parents[3] / "benchmarks" / "caller_turn_kinds.json").read_text())
INFO = _SET["facts"]


def _reply(turn: str) -> CallerAct:
    c = opened(make_scenario(INFO))
    return c.respond(turn)


@pytest.mark.parametrize("turn", _SET["hold"][0::2])
def test_a_hold_gets_a_wait(turn: str) -> None:
    act = _reply(turn)
    assert act.kind == "wait" and "hold" in act.heard and not act.text and not act.facts


@pytest.mark.parametrize("turn", _SET["presence"][0::2])
def test_a_line_check_gets_im_here(turn: str) -> None:
    act = _reply(turn)
    assert act.rule == "presence_check_here" and not act.facts and not act.ends_call


@pytest.mark.parametrize("turn", _SET["ordinary"][0::2])
def test_an_ordinary_turn_is_neither(turn: str) -> None:
    act = _reply(turn)
    assert act.rule != "presence_check_here" and "hold" not in act.heard


@pytest.mark.parametrize(
    ("turn", "said"),
    [
        ("Let me get your member ID.", "M B four eight two one three"),
        ("Let me have your date of birth.", "March 3, 1990"),
        ("I'm going to need your date of birth.", "March 3, 1990"),
    ],
)
def test_getting_the_callers_own_fact_asks_for_it(turn: str, said: str) -> None:
    """'Let me get your member ID.' asks for it: the caller gives the value; 'let me get that'
    is the agent's own work."""
    act = _reply(turn)
    assert act.kind == "answer" and said in act.text
    assert HOLD.match("Let me get that for you.") and not HOLD.match(turn)


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm seeing a charge of thirty dollars on your account from March.",
        "I'm looking at your reservation and it shows a departure at nine AM.",
        "I'm confirming that your flight is now at two PM.",
        "We'll see you on Friday at ten.",
        "We'll process your refund within five business days.",
        "I'm checking now and your new flight at noon is confirmed.",
        "I'm finding two open flights.",
        "We'll see you then.",
    ],
)
def test_a_sentence_stating_a_value_or_a_result_is_no_hold(sentence: str) -> None:
    assert not HOLD.match(sentence)
    assert "hold" not in _reply(sentence).heard


@pytest.mark.parametrize(
    "sentence",
    [
        "Give me two minutes.",
        "Sure, give me a couple of seconds.",
        "Hang tight, pulling that up.",
        "Let me dig into that.",
        "Searching our records.",
        "This will only take a moment.",
        "I'm going to put you on a brief hold.",
        "Please stay on the line while I check.",
        "Please allow me a few moments to locate your file.",
        "I'm finding it now.",
    ],
)
def test_a_hold_is_read_by_its_shape(sentence: str) -> None:
    """Any verb after 'let me', any length of time asked, the agent's work said bare."""
    assert HOLD.match(sentence)


@pytest.mark.parametrize(
    "sentence",
    ["Let me know which date works.", "Let me tell you the options.", "Hold on to your receipt."],
)
def test_a_let_me_that_hands_the_turn_over_is_no_hold(sentence: str) -> None:
    assert not HOLD.match(sentence)


def test_a_patterned_head_takes_its_ing_whole() -> None:
    """'double[- ]check' -> 'double[- ]checking', not a character class cut at its space."""
    assert ing_form("double[- ]check") == "double[- ]checking"
    assert ing_form("take a look") == "taking a look" and ing_form("get") == "getting"
    assert re.fullmatch(ing_form("double[- ]check"), "double-checking")
    assert HOLD.match("I'm double checking the fare rules.")


@pytest.mark.parametrize(
    ("sentence", "held"),
    [
        ("I'll need to verify your member ID.", False),  # need to, the caller's: an ask
        ("I'll need to verify the eligibility for this leave.", True),
        ("I'll look for another flight if you want.", False),  # under the caller's condition: an offer
        ("Let me check if that seat is open.", True),
        ("Looking at your booking, I see a fee of fifty dollars.", False),  # a report, not the work
    ],
)
def test_the_agents_own_work_holds_unless_it_asks(sentence: str, held: bool) -> None:
    assert bool(HOLD.match(sentence)) is held


@pytest.mark.parametrize(
    ("sentence", "check"),
    [
        ("I hear you.", False),  # sympathy: hearing said, neither asked nor denied
        ("Hello, Ana!", False),  # a greeting by name opens a call
        ("Hello, Ana?", True),
        ("Ana, are you still there?", True),
        ("Is the line still open?", True),
        ("Is the line open now?", False),  # the line's hours: no trouble, no 'still'
        ("Have you heard anything from us?", False),  # heard from someone: not the line
        ("Did you hear from anyone?", False),
        ("Is someone there with you?", False),
        ("Did you get the call?", False),
        ("Hmm, I'm not hearing anything.", True),  # trouble said in its own words
        ("Can you hear me?", True),
        ("Sorry, I didn't hear that.", False),  # asks for it again: not about the line alone
        ("Is the connecting flight okay?", False),
    ],
)
def test_a_line_check_speaks_of_the_line_and_nothing_else(sentence: str, check: bool) -> None:
    assert is_presence_check(sentence, ("ana", "lima")) is check


@pytest.mark.parametrize(
    ("sentence", "held"),
    [
        ("I'll need to verify the eligibility for this phone last four.", True),
        ("Let me confirm the badge level two.", True),
        ("I'm checking your flight at nine.", False),
        ("Let me check the seat on row five.", False),
        ("We'll process your refund within five business days.", False),
    ],
)
def test_a_number_word_ending_a_fields_name_is_no_value(sentence: str, held: bool) -> None:
    """'phone last four' names a field; 'at nine', 'row five' say values."""
    assert HOLD.match(sentence) is held
