"""A turn that asks two facts answers both, in the order asked, though a value is a word of its
own field's name ('pto' of 'pto type'; weak class ``two_part_asked``), and a value said only
inside a field's name is no value the agent said (:func:`.reasked.beside_labels`)."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.classify import classify
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.reasked import beside_labels
from voxbench.spoken import mentions

INFO = {
    "employee_id": "EMP141043",
    "leave_type": "sick",  # a value that is no word of its name
    "pto_type": "pto",  # a value that is a word of its own name
    "preferred_date": "2026-09-21",
    "contact_method": "phone",
    "phone_number": "617-555-8426",
}
BOOK = goal_facts(INFO)


@pytest.mark.parametrize(
    ("turn", "asked"),
    [
        ("What is the pto type, and what is the preferred date?", ["pto_type", "preferred_date"]),
        ("Can you tell me the PTO type and also the preferred date?", ["pto_type", "preferred_date"]),
        ("I'll need the preferred date, and the pto type as well.", ["preferred_date", "pto_type"]),
        ("What type of paid time off is it?", ["pto_type"]),
        ("What is the pto type?", ["pto_type"]),
    ],
)
def test_a_fact_named_by_a_field_holding_its_value_is_asked(turn: str, asked: list[str]) -> None:
    assert sorted(classify(turn, BOOK).asked) == sorted(asked)


def test_a_value_said_outside_its_field_name_is_still_said() -> None:
    heard = classify("Your pto type is pto, correct?", BOOK)
    assert "pto_type" not in heard.asked and heard.has("confirm_question")
    assert mentions(beside_labels("We'll reach you by phone. What is the phone number?", BOOK), "phone")


def test_a_one_word_name_is_not_blanked() -> None:
    book = goal_facts({"email": "a@b.co", "contact_method": "email"})
    assert mentions(beside_labels("We'll send it by email.", book), "email")


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    ("turn", "first", "second"),
    [
        ("What is the pto type, and what is the preferred date?", "P T O", "September 21"),
        ("I'll need the preferred date, and the pto type as well.", "September 21", "P T O"),
    ],
)
def test_both_facts_are_answered_in_the_order_asked(seed: int, turn: str, first: str, second: str) -> None:
    c = opened(make_scenario(INFO, goal="You want to request PTO before your leave."), seed)
    act = c.respond(turn)
    assert set(act.facts) >= {"pto_type", "preferred_date"}
    assert first in act.text and second in act.text
    assert act.text.index(first) < act.text.index(second)
