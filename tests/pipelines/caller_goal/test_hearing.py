"""A fact the agent keeps mishearing (:mod:`voxbench.pipelines.caller.goal.hearing`): said, then
'as I said', then spelled, and the tellings counted as they were. Live ``make run`` (bb.2, the
local agent's recogniser): 'Okafor' heard as 'All Cuffo' four times, the caller said 'As I said,
Okafor.' each time and hung up with 'I've given that a few times now.' after two tellings; bb.3:
'Just to ask again, could you also tell me the gate?', the gate the only item open."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.hearing import SPELLED_MISHEARD, spellable, spelled_form, times_said
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal_live import goal_caller_for
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.scenarios import load_dataset

from .conftest import make_scenario, opened

ASK_NAME = "I'll look for a window seat for you. What is your last name?"


def _builtin(sid: str, seed: int = 0) -> GoalCaller:
    dd = load_dataset(None, ["airline"]).domains["airline"]
    c = goal_caller_for(CallScenario.from_domain(dd, sid), seed=seed)
    c.open()
    return c


def test_spelled_form_of_a_name_and_of_a_code_said_spelled_already() -> None:
    assert spelled_form("Okafor", "Okafor") == "O K A F O R"
    assert spelled_form("QX7T4M", "Q X seven T four M") == "Q, X, seven, T, four, M"
    assert spelled_form("CorpNet5G", "CorpNet five G") == "C O R P N E T five G"


def test_only_names_and_codes_are_spelled() -> None:
    """A date, an amount, an email or a flag spelled character by character is no form a person
    uses ('That's spelled one nine eight five zero four one two.')."""
    assert all(
        spellable(v) for v in ("Okafor", "Maria Okafor", "ZK3FFW", "EMP048271", "7294", "617-555-4829")
    )
    assert not any(
        spellable(v) for v in ("1985-04-12", "$120.50", "maria@example.com", True, "300", "16_inch")
    )


def test_a_date_misheard_twice_is_said_again_not_spelled() -> None:
    c = opened(make_scenario({**INFO, "date_of_birth": "1985-04-12"}))
    c.respond("What is your date of birth?")
    c.respond("I have your date of birth as April 21, 1985. Is that right?")
    second = c.respond("I have your date of birth as April 2, 1985. Is that right?")
    assert "April 12, 1985" in second.text and "one nine eight five" not in second.text


def test_a_right_read_back_clears_the_count() -> None:
    c = opened(make_scenario(INFO))
    c.respond("Can I have your last name, please?")
    c.respond("I have your last name as Okafer. Is that right?")
    c.respond("Okay, your last name is Okafor. Is that correct?")
    again = c.respond("I have your last name as Ogafor. Is that right?")
    assert "Okafor" in again.text and "O K A F O R" not in again.text


def test_times_said_follows_the_real_count() -> None:
    assert [times_said(n) for n in (1, 2, 3, 4, 9)] == [
        "already", "twice now", "three times now", "a few times now", "a few times now",
    ]  # fmt: skip


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_name_asked_again_and_again_is_said_then_as_i_said_then_spelled_then_goodbye(seed: int) -> None:
    c = _builtin("bb.2", seed)
    acts = [c.respond(ASK_NAME) for _ in range(4)]
    assert [a.kind for a in acts[:3]] == ["answer"] * 3 and all(a.facts == acts[0].facts for a in acts[:3])
    assert "O K A F O R" not in acts[0].text + acts[1].text and "said_before" in acts[1].rules
    assert "Okafor, O K A F O R" in acts[2].text and SPELLED_MISHEARD in acts[2].rules
    assert acts[3].ends_call and "three times now" in acts[3].text and "few" not in acts[3].text


INFO = {"first_name": "Maria", "last_name": "Okafor", "confirmation_number": "ZK3FFW"}


@pytest.mark.parametrize("seed", [0, 1])
def test_a_name_read_back_misheard_is_corrected_then_spelled_from_the_second_time(seed: int) -> None:
    c = opened(make_scenario(INFO), seed)
    c.respond("Can I have your last name, please?")
    first = c.respond("I have your last name as Oka For. Is that right?")
    second = c.respond("Okay, so your last name is Okafer. Is that correct?")
    third = c.respond("Let me make sure I have it: your last name is Ogafor, correct?")
    assert [a.kind for a in (first, second, third)] == ["correct"] * 3
    assert "Okafor" in first.text and "O K A F O R" not in first.text
    assert "Okafor, O K A F O R" in second.text and "Okafor, O K A F O R" in third.text
    assert not any(w in a.text for a in (first, second, third) for w in ("few times", "twice"))


def test_a_code_read_back_misheard_twice_is_said_one_character_at_a_time() -> None:
    c = opened(make_scenario(INFO))
    c.respond("Can I have your confirmation number, please?")
    first = c.respond("I have your confirmation number as ZK3FFV. Is that right?")
    second = c.respond("I have your confirmation number as ZK4FFW. Is that right?")
    assert "Z K three F F W" in first.text and "Z, K, three, F, F, W" in second.text


def test_a_part_asked_again_alone_drops_also() -> None:
    """bb.3 as heard: the status and time told, the gate asked, then asked again: no 'also'."""
    for seed in range(3):
        c = _builtin("bb.3", seed)
        c.respond(
            "I'll look up your booking. Could you tell me the confirmation number and last name, please?"
        )
        told = (
            "It's for a flight from your current location to Denver on May 20th at 7.30pm. The flight status "
            "is currently on time. Could you please let me know what you need?"
        )
        first = c.respond(told)
        again = c.respond(
            "I'll look up the gate status for your flight. Could you please let me know what you need?"
        )
        assert "gate" in first.text and "gate" in again.text and "also" not in again.text
        end = c.respond("The gate is currently available. Could you please let me know what you need?")
        assert end.ends_call and "twice now" in end.text and "few" not in end.text


def test_a_value_the_agent_said_itself_is_said_again_not_spelled() -> None:
    """Live airline/2.2.4 (2026-12-07): asked a third time for its flight's status, after the agent
    had said "The flight is confirmed.", the caller said "... confirmed, C O N F I R M E D."."""
    c = opened(make_scenario({**INFO, "flight_status": "confirmed"}))
    ask = "Could you please tell me the current flight status?"
    acts = []
    for _ in range(3):
        acts.append(c.respond(ask))
        c.respond("The flight status is confirmed.")
    assert all("confirmed" in a.text for a in acts)
    assert all("C O N F" not in a.text and SPELLED_MISHEARD not in a.rules for a in acts)


def test_a_name_the_agent_never_said_is_still_spelled_when_asked_again() -> None:
    """The same asks for a value the agent has not said itself: spelled from the third time."""
    c = opened(make_scenario(INFO))
    acts = [c.respond(ASK_NAME) for _ in range(3)]
    assert "Okafor, O K A F O R" in acts[2].text and SPELLED_MISHEARD in acts[2].rules
