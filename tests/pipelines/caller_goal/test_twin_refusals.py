"""A refusal said again of one of two twin requests (told apart only by a number: 'a desk on floor 2'
/ 'a desk on floor 3') is that request's refusal again, not the other's: its one follow-up is
spent, and the caller moves on. A scripted tree line is said on its own condition (not one of a
line quoted before it), and the tree's scripted follow-up question is the one follow-up."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.intents import IntentTracker
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.pushback import own_condition

TWINS = ["Get a replacement laptop", "Get a desk on floor 2", "Get a desk on floor 3", "Get a monitor arm"]


def _caller(negotiation: list[str], intents: list[str] = TWINS, seed: int = 0) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP824156", "laptop_os": "windows", "item_type": "monitor arm"},
        goal="You want a replacement laptop, a desk on floor 2 (floor 3 if floor 2 is full) and a monitor arm.",
        intents=intents,
        negotiation=negotiation,
        escalation="Do not ask to speak to a live agent.",
        start="Hi, I have a few things I need help with.",
    )
    return opened(sc, seed)


def test_a_refusal_naming_a_twins_number_is_that_twins_even_when_it_was_refused_before() -> None:
    t = IntentTracker(TWINS)
    t.note("I'm sorry, I'm not able to get a desk on floor 2.", completed=False)
    t.note("I'm sorry, I'm not able to get a desk on floor 2.", completed=False)
    assert t.done == [False, True, False, False]
    t.note("I can't get a desk on floor 3 either.", completed=False)
    assert t.done == [False, True, True, False]


def test_a_refusal_naming_neither_twin_goes_to_the_twin_in_hand() -> None:
    t = IntentTracker(TWINS)
    t.note("I'm sorry, I'm not able to get a desk on floor 2.", completed=False)
    t.note("I'm sorry, no desk on that floor can be assigned to you.", completed=False)
    assert t.done == [False, True, False, False]
    t.note("Your desk is assigned.", completed=True)  # a completion naming neither: the first open twin
    assert t.done == [False, True, True, False]


def test_twins_told_apart_by_a_word() -> None:
    t = IntentTracker(["Get a desk in the north wing", "Get a desk in the south wing", "Get parking"])
    t.note("I can't give you a desk in the south wing.", completed=False)
    assert t.done == [False, True, False]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_same_refusal_twice_spends_the_one_follow_up_and_moves_on(seed: int) -> None:
    c = _caller(
        ["If floor 2 is full, ask one follow-up question, then accept floor 3 or move on."], seed=seed
    )
    refusal = "I'm sorry, I'm not able to get a desk on floor 2."
    first = c.respond(refusal)
    assert first.rule == "one_follow_up_question" and not first.ends_call
    again = c.respond(refusal)
    assert not again.ends_call and again.rule == "next_intent_after_refusal"


def test_the_trees_scripted_follow_up_question_is_the_one_follow_up() -> None:
    c = _caller(['Desk request: ask for a desk at Headquarters on floor 2. If the agent says floor 2 has no availability, ask exactly one follow-up question: '
                 '"Is there anything else available in Headquarters?"'])  # fmt: skip
    refusal = "Unfortunately, I can't get a desk on floor 2 of Headquarters."
    first = c.respond(refusal)
    assert first.rule.startswith("tree_scripted_line") and "anything else available" in first.text
    again = c.respond(refusal)
    assert not again.ends_call and again.rule == "next_intent_after_refusal"


def test_a_scripted_line_has_its_own_condition_not_the_line_quoted_before_it() -> None:
    text = 'After steps 1 and 2 say "still not working". After step 3 (restart the laptop) say '
    assert own_condition(text) == ". After step 3 (restart the laptop) say "
    c = _caller(['Wi-Fi: follow the steps. After steps 1 and 2 say "still not working here". After step 3 '
                 '(restart the laptop) say "Wi-Fi is working now".',
                 "If floor 2 is full, ask one follow-up question, then accept."])  # fmt: skip
    act = c.respond("I'm sorry, but I'm unable to get a desk on floor 2 at this time.")
    assert "working now" not in act.text and act.rule == "one_follow_up_question"
