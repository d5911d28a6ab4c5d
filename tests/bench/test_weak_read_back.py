"""The weak-turn grader excuses a fact the agent's turn says only where the turn reads it back."""

from __future__ import annotations

from voxbench.bench.caller_check import Grounding
from voxbench.bench.matcher import facts_said, goal_facts
from voxbench.bench.weak_check import READ_BACK_ACTS, grade, missing_facts
from voxbench.bench.weak_turns import WeakItem

INFO = {
    "first_name": "Maria",
    "last_name": "Park",
    "pto_type": "pto",
    "date_of_birth": "1993-04-18",
    "seat_fee_amount_usd": 25,
}


def _item(cls: str, act: str, turn: str, must: list[str]) -> WeakItem:
    return WeakItem(
        domain="medical_hr", scenario_id="t.1", half="dev", cls=cls, act=act, turn=turn, must=must
    )


def _grade(item: WeakItem, reply: str) -> tuple[bool, str]:
    ground = Grounding(INFO, "You want to book time off.")
    ground.add(item.turn)
    ok, why, _ = grade(item, reply, reply.endswith("Goodbye."), goal_facts(INFO), ground)
    return ok, why


def test_a_value_inside_the_asked_field_name_must_still_be_said() -> None:
    """'What is the pto type?' says 'PTO': the agent asked, so the reply must give it."""
    item = _item("two_part_asked", "facts", "Can you tell me the pto type and also the date of birth?",
                 ["pto_type", "date_of_birth"])  # fmt: skip
    ok, why = _grade(item, "It's April 18, 1993.")
    assert not ok and "missing pto_type" in why
    assert _grade(item, "General PTO, and my date of birth is April 18, 1993.")[0]


def test_a_goodbye_to_a_repeated_ask_gives_no_fact() -> None:
    item = _item("repeated", "facts", "What is your pto type?", ["pto_type"])
    ok, why = _grade(item, "Okay, I understand. Goodbye.")
    assert not ok and "missing pto_type" in why


def test_a_read_back_is_answered_by_its_polarity() -> None:
    """A yes confirms the value read back; a correction need not say the part read back right."""
    assert {"yes", "correct"} <= READ_BACK_ACTS and "facts" not in READ_BACK_ACTS
    right = _item("confirm_right", "yes", "Could you please confirm your last name is Park?", ["last_name"])
    assert missing_facts(right, "Yes, that's right.", goal_facts(INFO)) == []
    other = _item("confirm_other_person", "correct", "Could you please confirm your name is David Park?",
                  ["first_name", "last_name"])  # fmt: skip
    assert _grade(other, "No, my first name is Maria.")[0]
    ok, why = _grade(other, "No, that's not right.")
    assert not ok and "missing first_name" in why and "last_name" not in why


def test_a_bare_amount_answers_the_turn_that_asked_for_it() -> None:
    """'It's $25.' says the seat fee to "Would you confirm your seat fee amount?": the asking turn's
    words let a bare number answer, though no value of the turn is left out of the reply."""
    item = _item(
        "confirm_asked", "facts", "Would you confirm your seat fee amount, please?", ["seat_fee_amount_usd"]
    )
    assert missing_facts(item, "It's $25.", goal_facts(INFO)) == []
    assert facts_said("It's $25.", goal_facts(INFO)) == []  # asked by no turn, a bare number says no fact
    assert facts_said("It's $25.", goal_facts(INFO), asked_in=item.turn) == ["seat_fee_amount_usd"]
    other = _item("readback_other_asked", "only_asked",
                  "Thank you. I have your last name as Park. What is your seat fee amount?", ["seat_fee_amount_usd"])  # fmt: skip
    assert _grade(other, "It's $25.")[0]  # asked again for another field: the same reading
