"""Holds and presence checks read by what they are (:mod:`voxbench.pipelines.caller.goal.holds`,
:mod:`voxbench.pipelines.caller.goal.presence`), with the real caller: a hold gets a wait, a line
check "Yes, I'm here.", an ordinary turn neither. The wordings are the DEVELOP half (even
positions) of ``benchmarks/caller_turn_kinds.json``; its held-out half is read by the benchmark
alone, once, at the end of a change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.holds import HOLD
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


def test_getting_the_callers_own_fact_is_no_hold() -> None:
    """'Let me get your member ID.' asks for it; 'let me get that' is the agent's own work."""
    assert _reply("Let me get your member ID.").kind != "wait"
    assert HOLD.match("Let me get that for you.") and not HOLD.match("Let me get your member ID.")


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
        ("Sorry, I didn't hear that.", False),  # asks for it again: not about the line alone
        ("Is the connecting flight okay?", False),
    ],
)
def test_a_line_check_speaks_of_the_line_and_nothing_else(sentence: str, check: bool) -> None:
    assert is_presence_check(sentence, ("ana", "lima")) is check
