"""A request for the caller's identity gets its identifying facts (identifier, a factor, its
name), never another person's; a field asked whole when it holds only a part its key names gets
the part, said as the part (:mod:`voxbench.pipelines.caller.goal.identity`)."""

from __future__ import annotations

import pytest

from voxbench.scenarios import Scenario

from .conftest import make_scenario, opened


def _it() -> Scenario:
    return make_scenario(
        {"first_name": "Hannah", "last_name": "Morrison", "employee_id": "EMP095417", "phone_last_four": "7761",
         "colleague_employee_id": "EMP781453", "network_name": "CorpNet-5G"},
        goal="You want your Wi-Fi fixed.", start="Hi, my Wi-Fi keeps dropping.",
    )  # fmt: skip


def _flight() -> Scenario:
    return make_scenario(
        {"confirmation_number": "ZK3FFW", "last_name": "Park", "husband_name": "David Park",
         "date_of_birth": "June 14, 1995", "desired_date": "2026-03-25"},
        goal="You want to move your flight.", start="Hi, I need to change my flight.",
    )  # fmt: skip


@pytest.mark.parametrize(
    "turn",
    ["Can you verify your identity?", "I need to verify your identity first.",
     "Before we continue, could you please confirm your identity?", "Can you verify who you are?"],
)  # fmt: skip
def test_identity_asked_gives_identifier_factor_and_name(turn: str) -> None:
    act = opened(_it()).respond(turn)
    assert {"employee_id", "phone_last_four", "last_name"} <= set(act.facts), act.text
    assert "colleague_employee_id" not in act.facts and "network_name" not in act.facts
    assert not act.text.startswith("Yes") and "don't have" not in act.text


def test_identity_of_a_booking_is_its_code_and_own_name_not_another_persons() -> None:
    act = opened(_flight()).respond("Can you verify your identity?")
    assert act.facts[:1] == ["confirmation_number"] and "husband_name" not in act.facts, act.text
    assert {"date_of_birth", "last_name"} <= set(act.facts) and "desired_date" not in act.facts


@pytest.mark.parametrize("turn", ["What is your phone number?", "Can I have your phone number, please?"])
def test_whole_field_asked_gives_the_part_held_said_as_the_part(turn: str) -> None:
    act = opened(_it()).respond(turn)
    assert act.facts == ["phone_last_four"] and "last four" in act.text, act.text
    assert "seven seven six one" in act.text.lower() or "7761" in act.text


def test_the_part_asked_by_its_own_words_is_answered_as_before() -> None:
    act = opened(_it()).respond("What are the last four digits of your phone number?")
    assert act.facts == ["phone_last_four"] and act.rule != "part_of_field_held", act.text


def test_a_field_no_part_of_which_is_held_is_still_lacked() -> None:
    act = opened(_flight()).respond("What is your phone number?")
    assert "phone_last_four" not in act.facts and act.rule != "part_of_field_held"


@pytest.mark.parametrize(
    "turn",
    ["I was able to verify your identity. Shall I go ahead with the change?",
     "Please confirm you want standard access to Datadog for yourself."],
)  # fmt: skip
def test_identity_said_verified_or_a_confirm_you_want_asks_no_identity(turn: str) -> None:
    act = opened(_it()).respond(turn)
    assert act.rule != "identity_gives_identifiers" and "employee_id" not in act.facts, act.text


def test_two_identity_facts_asked_without_a_second_determiner_are_both_given() -> None:
    """'the last four digits of your phone number and last name': 'last name' is a fact of its own,
    not a field the phone's last four lacks (other_head), so both are given."""
    sc = make_scenario(
        {"first_name": "Omar", "last_name": "Hassan", "employee_id": "EMP123456", "phone_last_four": "4092"},
        goal="You want your VPN fixed.",
    )
    act = opened(sc).respond(
        "To verify your identity, I need the last four digits of your phone number and last name."
    )
    assert {"phone_last_four", "last_name"} <= set(act.facts)
