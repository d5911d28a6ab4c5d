"""Options marked by a turn's structure (:mod:`voxbench.pipelines.caller.goal.marked`): list
markers, ordinals, 'alternatively', 'or'; and a choice answered with no yes."""

from __future__ import annotations

import pytest

from voxbench.pipelines.caller.goal.marked import a_choice, marked_options
from voxbench.pipelines.caller.goal.options import offered_options
from voxbench.pipelines.caller.goal.turn import Turn

A, B = "check another floor", "place you on the waitlist"


def _options(text: str) -> list[str]:
    t = Turn.of(text)
    return offered_options(t.sents, (t.questions or t.requests or [""])[-1])


@pytest.mark.parametrize(
    "text",
    [
        f"You could {A}, or I can {B} for you. Which would you prefer?",
        f"There are two options: first, I can {A}; second, I can {B}.",
        f"I can offer to {A}. Alternatively, I can {B} instead.",
        f"Option one is to {A}, option two is to {B}. Which would you like?",
        f"Here are your options: 1. {A[:1].upper()}{A[1:]}. 2. {B[:1].upper()}{B[1:]}. Which one would you like?",
        f"I can {A}, or {B} \u2014 which works best?",
    ],
)
def test_each_way_of_marking_two_options_gives_both(text: str) -> None:
    assert [o.lower() for o in _options(text)] == [A, B]


def test_three_options_before_an_or_and_a_sentence_before_them() -> None:
    text = f"Nothing is open on floor 2. We could {A}, open a ticket, or {B}. Which works best for you?"
    assert _options(text) == [A, "open a ticket", B]


def test_steps_listed_in_order_offer_nothing() -> None:
    sents = ["First, restart your laptop.", "Second, reconnect to the network."]
    assert marked_options(sents, "Did that work?") == []
    assert marked_options(sents, "") == []


def test_a_choice_is_two_options_heard_or_a_question_that_asks_which() -> None:
    assert a_choice([A, B], "")
    assert a_choice([], "Would you like the window or the aisle?")
    assert a_choice([], "Which would you like?")
    assert not a_choice([A], "Would you like me to do that?")


def test_options_stated_with_no_question_are_asked_as_a_choice_unless_refused() -> None:
    """'I can offer to A. Alternatively, I can B.' is heard as 'Which would you like me to do: A,
    or B?'; after a refusal the turn stays as it is (the refusal is answered first)."""
    from voxbench.pipelines.caller.goal.offered import offers_asked

    stated = [f"I can offer to {A}.", f"Alternatively, I can {B} instead."]
    assert offers_asked(stated) == [*stated, f"Which would you like me to do: {A}, or {B}?"]
    refused = ["I cannot do that.", stated[1]]
    assert offers_asked(refused) == refused
