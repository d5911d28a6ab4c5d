"""A confirm or verify verb stating no value: its object decides whether it asks for one of the
caller's facts, names the matter in hand (yes/no), or a field the caller does not have; read by
the caller's own facts and goal, not by a list of field nouns (:mod:`.confirmobj`)."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.readback import asks_to_state
from voxbench.scenarios import Scenario

from .conftest import make_scenario, opened


def _hr() -> Scenario:
    return make_scenario(
        {"employee_id": "EMP048271", "date_of_birth": "1991-04-17", "phone_last_four": "7294",
         "completion_codes": {"TB_TEST": "T8P3", "ORIENTATION": "Q7M2"},
         "task_codes": ["ORIENTATION", "TB_TEST"]},
        goal="You want to renew your IntelliJ license and log your onboarding tasks.",
        start="Hi, I need help with my onboarding.",
    )  # fmt: skip


@pytest.mark.parametrize(
    "turn",
    ["Please confirm your vehicle license plate.", "Can you verify your fax number for me?",
     "Could you please confirm your passport number?"],
)  # fmt: skip
def test_a_field_the_call_is_not_about_is_asked_and_lacked(turn: str) -> None:
    act = opened(_hr()).respond(turn)
    assert act.kind == "cannot_answer" and "don't have" in act.text
    assert "Yes" not in act.text


@pytest.mark.parametrize(
    ("turn", "value"),
    [("Can you verify your date of birth?", "1991"), ("Please confirm your employee ID.", "E M P"),
     ("Please confirm your completion codes tb test.", "T eight P three")],
)  # fmt: skip
def test_an_object_naming_its_own_fact_asks_for_it(turn: str, value: str) -> None:
    act = opened(_hr()).respond(turn)
    assert act.kind == "answer" and value in act.text.replace(",", "")


@pytest.mark.parametrize(
    "turn",
    ["Please confirm your booking.", "Can you confirm your request?", "Please confirm your IntelliJ license.",
     "Can you confirm you want me to proceed?"],
)  # fmt: skip
def test_the_matter_in_hand_is_a_yes_or_no(turn: str) -> None:
    act = opened(_hr()).respond(turn)
    assert act.choice == "yes" and "don't have" not in act.text


def test_a_value_said_only_as_words_of_the_field_name_is_no_read_back() -> None:
    c = opened(_hr())  # 'tb test' is a value of task_codes, and the name of a completion code
    assert asks_to_state("Please confirm your completion codes tb test.", c.s.book)
    assert not asks_to_state("Please confirm your completion code is T 8 P 3.", c.s.book)
