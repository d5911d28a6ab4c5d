"""A numbered list of asks: its markers ('1.', 'two.', 'number four') are no values read back
(live medical_hr: 'petition number 4' corrected as a wrong read-back); the facts asked are said."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.enumerated import unnumbered
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.scenarios import Scenario

from .conftest import make_scenario, opened

INFO = {"first_name": "Priya", "last_name": "Desai", "employee_id": "EMP141043",
        "visa_petition_number": "NPJ9237475801", "dependent_first_name": "Rohan",
        "dependent_last_name": "Desai", "dependent_date_of_birth": "2026-07-30"}  # fmt: skip
_HEAD = "I need the following information to help you with the process:"


def _sc() -> Scenario:
    return make_scenario(INFO, goal="You want to add your newborn as a dependent.", start="Hi.")


@pytest.mark.parametrize(
    "items",
    [
        "1. Your name 2. Your employee ID 3. Your current H1B visa petition number 4. The name of your"
        " dependent 5. The date of birth of your dependent 6. Your relationship.",
        "one. Your name two. Your employee ID three. Your current H1B visa petition, number four. The name"
        " of your dependent five. The date of birth of your dependent.",
        "1, your name 2, your employee ID 3, your current H1B visa petition number 4, the name of your"
        " dependent 5, the date of birth of your dependent.",
    ],
)
def test_a_numbered_list_is_answered_not_corrected(items: str) -> None:
    act = opened(_sc()).respond(f"{_HEAD} {items}")
    assert act.kind != "correct" and "not right" not in act.text, act.text
    assert {"employee_id", "visa_petition_number", "dependent_date_of_birth"} <= set(act.facts), act.text


def test_the_items_are_joined_as_a_list_and_number_stays_with_its_field() -> None:
    book = goal_facts(INFO)
    text = unnumbered(
        f"{_HEAD} one. Your name two. Your visa petition, number three. Your employee ID.", book
    )
    assert text == f"{_HEAD} Your name, Your visa petition number, Your employee ID."


@pytest.mark.parametrize(
    "text",
    [
        "Your employee ID number 4, is that right?",  # no run of markers
        "I have your code as 1 2 3 4, correct?",  # numbers with no field between
        "First, 1. Restart the laptop and wait for the login screen to come back before you sign in again"
        " 2. Open the settings 3. Choose the network.",  # steps, not fields
    ],
)
def test_other_turns_are_left_as_they_are(text: str) -> None:
    assert unnumbered(text, goal_facts(INFO)) == text
