"""An offer or a choice said as a statement ('If you'd like, I can either A, or B.') is read as the
question it is (:mod:`voxbench.pipelines.caller.goal.offered`); a statement of fact ('I can see
your booking is confirmed.') is not."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.offered import as_question, offers, offers_asked
from voxbench.pipelines.caller.goal.turn import Turn


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        ("If you'd like, I can either place you on the waitlist, or check another floor for you.",
         "Would you like me to place you on the waitlist, or check another floor for you?"),
        ("I can book the ten AM slot for you if you want.", "Would you like me to book the ten AM slot for you?"),
        ("You can choose the morning slot or the afternoon slot.",
         "Would you like the morning slot or the afternoon slot?"),
        ("I could check the East building.", "Would you like me to check the East building?"),
        ("If that helps, we can also move the meeting to Friday.", "Would you like us to move the meeting to Friday?"),
    ],
)  # fmt: skip
def test_an_offer_stated_is_asked(said: str, asked: str) -> None:
    assert offers(said)
    assert as_question(said) == asked


@pytest.mark.parametrize(
    "said",
    [
        "I can see your booking is confirmed.",
        "I can confirm the ticket is open.",
        "I can help with that.",
        "I can place you on the waitlist.",  # no wish, no choice: may be what it is about to do
        "I could not find your booking.",
        "I can't change the date, or the time.",
        "I need your code before I can access or change a booking.",
        "If you can't wait, I can transfer you to a live agent.",
        "If you want, we can start the steps, or I can transfer you to a live agent.",
        "I can still help you look for other flights or standby.",
        "Would you like me to check another floor?",
    ],
)
def test_a_statement_of_fact_is_not_an_offer(said: str) -> None:
    assert not offers(said)
    assert as_question(said) == said


def test_a_turn_that_asks_or_refuses_keeps_its_statements() -> None:
    offer = "If you'd like, I can either check sick leave, or check floater days."
    assert offers_asked(["Done.", offer]) == ["Done.", as_question(offer)]
    assert offers_asked([offer, "Which would you like?"]) == [offer, "Which would you like?"]
    assert offers_asked(["I cannot submit that as paid time off.", offer])[1] == offer


def test_the_turn_reads_the_offer_as_its_question() -> None:
    t = Turn.of("I checked floor one for you. If you'd like, I can either place you on the "
                "waitlist for the East Campus, or check another floor for you.")  # fmt: skip
    assert t.questions == [
        "Would you like me to place you on the waitlist for the East Campus, or check another floor for you?"
    ]


def _caller() -> object:
    sc = make_scenario(
        {"employee_id": "EMP123456", "building_name": "East Campus", "floor": "FL1"},
        goal="You want a desk at East Campus on floor FL1. If no desk is free, you want to be put on the "
        "waitlist for East Campus; you do not want another floor.",
        intents=["Get a desk assigned at East Campus"],
        start="Hi, I need a desk at East Campus.",
        escalation="If the agent cannot help, ask to be transferred to a live agent.",
    )
    return opened(sc)


def test_the_caller_takes_the_option_its_goal_names() -> None:
    offer = ("The system returned zero available desks. If you'd like, I can either place you on the "
             "waitlist for East Campus, or check another floor for you.")  # fmt: skip
    act = _caller().respond(offer)  # type: ignore[attr-defined]
    assert "waitlist" in act.text.lower()
    assert "transfer" not in act.text.lower()
