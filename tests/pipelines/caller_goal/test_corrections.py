"""The same correction said again (:mod:`voxbench.pipelines.caller.goal.corrections`): the second
time in a row it says it was said, the no still first and the spelling kept; after
:data:`CORRECTIONS_CAP` times, a no and goodbye with its reason. Live ``make run`` bb.2: a date
read back right, heard wrong by the caller's own recogniser, corrected seven times word for word."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.acts import ActKind, CallerAct
from voxbench.pipelines.caller.goal.corrections import CORRECTIONS_CAP, GAVE_UP, Corrections
from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.hearing import SPELLED_MISHEARD, times_said
from voxbench.pipelines.caller.goal.phrases import PHRASES

from .conftest import make_scenario, opened

INFO = {"first_name": "Maria", "last_name": "Okafor", "confirmation_number": "ZK3FFW"}
ASK = "Can I have your last name, please?"
WRONG = "I have your last name as Okafer. Is that right?"
WRONG_CODE = "Your confirmation number is ZK3FFV, correct?"
NAME = (("last_name", "Okafor"),)


def _acknowledged(text: str) -> bool:
    """Whether the line says it was said before, in any wording of the caller's table."""
    return any(t.split("{")[0].strip(" ,").lower() in text.lower() for t in PHRASES["said_before"])


def _act(turn: int, kind: ActKind = "correct") -> CallerAct:
    return CallerAct(turn=turn, kind=kind, text="No.", rule="correct_wrong_readback")


def test_the_count_grows_in_a_row_and_starts_over_on_another_content() -> None:
    c = Corrections()
    for turn in range(1, 4):
        c.draft(turn, NAME, c.times_now(NAME))
        c.said_in(_act(turn))
    assert c.times == 3 and c.times_now(NAME) == 4
    code = (("confirmation_number", "ZK3FFW"),)
    assert c.times_now(code) == 1
    c.draft(4, code, 1)
    c.said_in(_act(4))
    assert c.times_now(NAME) == 1  # a correction of another fact in between: a new row


def test_a_draft_not_said_is_not_counted() -> None:
    c = Corrections()
    c.draft(1, NAME, 1)
    c.said_in(_act(1, kind="accept_transfer"))  # the turn's act was another: the correction unsaid
    assert c.times == 0 and c.times_now(NAME) == 1


def test_a_right_read_back_starts_the_count_over() -> None:
    c = Corrections(said=NAME, times=3)
    c.hear(Heard(readback_ok=["confirmation_number"]))
    assert c.times == 3
    c.hear(Heard(readback_ok=["last_name"]))
    assert c.times_now(NAME) == 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_second_correction_acknowledges_and_keeps_the_no_first_and_the_spelling(seed: int) -> None:
    c = opened(make_scenario(INFO), seed=seed)
    c.respond(ASK)
    first, second = c.respond(WRONG), c.respond(WRONG)
    assert first.kind == second.kind == "correct" and not _acknowledged(first.text)
    assert _acknowledged(second.text) and second.text.startswith(("No", "That's not"))
    assert "Okafor, O K A F O R" in second.text and SPELLED_MISHEARD in second.rules


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_after_the_cap_the_caller_says_no_and_goodbye_with_its_reason(seed: int) -> None:
    c = opened(make_scenario(INFO), seed=seed)
    c.respond(ASK)
    said = [c.respond(WRONG) for _ in range(CORRECTIONS_CAP)]
    assert all(a.kind == "correct" and not a.ends_call for a in said)
    end = c.respond(WRONG)
    assert end.ends_call and end.rule == GAVE_UP and "end:stalled" in end.rules
    assert end.text.startswith("No") and times_said(CORRECTIONS_CAP) in end.text and not end.facts


def test_a_correction_of_another_fact_in_between_resets_the_bound() -> None:
    c = opened(make_scenario(INFO))
    c.respond(ASK)
    for _ in range(CORRECTIONS_CAP - 1):
        c.respond(WRONG)
    other = c.respond(WRONG_CODE)
    assert other.kind == "correct" and other.facts == ["confirmation_number"]
    assert not _acknowledged(other.text)
    again = [c.respond(WRONG) for _ in range(CORRECTIONS_CAP)]
    assert all(a.kind == "correct" for a in again) and not _acknowledged(again[0].text)
    assert _acknowledged(again[1].text) and c.respond(WRONG).rule == GAVE_UP


def test_a_right_read_back_in_between_resets_the_bound() -> None:
    c = opened(make_scenario(INFO))
    c.respond(ASK)
    for _ in range(CORRECTIONS_CAP):
        c.respond(WRONG)
    c.respond("Okay, your last name is Okafor. Is that correct?")
    later = c.respond(WRONG)
    assert later.kind == "correct" and not later.ends_call and not _acknowledged(later.text)
