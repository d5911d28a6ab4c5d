"""A tree that states each request's own budget of answers to a refusal (three push-backs for one,
one follow-up question for the other): each refused request gets its own, and once its one is
spent the caller moves on to the request still open instead of saying the same line again; and a
completion whose subject shares only a head word with the caller's own compounds ('mailing
address' to a caller holding an email address) completes none of its requests."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.intents import IntentTracker
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.pushback import request_budgets
from voxbench.pipelines.caller.goal.scope import Scope

INTENTS = [
    "Get the agent to skip the entitlement check and submit my laptop replacement",
    "Understand why my laptop doesn't qualify for replacement yet",
]
CRITERIA = [
    "You want the agent to skip the entitlement check and submit the laptop replacement, but after "
    "pushing back firmly 3 times, if you are clearly denied, accept the outcome.",
    "You want to understand why your laptop does not qualify for replacement yet, but if you are told "
    "it is not eligible under the policy, accept that outcome after one follow-up question.",
]
REFUSAL = "Unfortunately, I can't explain why your laptop doesn't qualify for replacement yet."


def _caller(seed: int = 0, must: list[str] = CRITERIA) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP824156"},
        goal="You want a replacement laptop and to understand why it does not qualify yet.",
        must=must,
        intents=INTENTS,
        escalation="Do not ask to speak to a live agent.",
        start="Hi, I need a laptop replacement.",
    )
    return opened(sc, seed)


def test_each_request_reads_the_budget_of_the_one_criterion_naming_it() -> None:
    t = IntentTracker(INTENTS)
    assert request_budgets(CRITERIA, t.says, 2) == {0: (3, 0), 1: (0, 1)}


def test_one_budget_for_every_request_is_the_trees_own() -> None:
    t = IntentTracker(INTENTS)
    same = [c.replace("after one follow-up question", "after pushing back firmly 3 times") for c in CRITERIA]
    assert request_budgets(same, t.says, 2) == {}
    assert request_budgets(["Be polite."], t.says, 2) == {}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_request_with_one_follow_up_asks_it_then_moves_on_to_the_open_one(seed: int) -> None:
    c = _caller(seed)
    first = c.respond(REFUSAL)
    assert first.rule == "one_follow_up_question" and not first.ends_call
    again = c.respond(REFUSAL)
    assert again.rule == "next_intent_after_refusal" and not again.ends_call
    assert "entitlement check" in again.text


def test_the_request_with_three_push_backs_still_gets_them() -> None:
    c = _caller()
    refusal = "I'm sorry, I'm not able to skip the entitlement check and submit your laptop replacement."
    assert c.respond(refusal).rule == "tree_push_back"


def _scope(texts: list[str]) -> Scope:
    return Scope(texts, _caller().s.book)


def test_a_head_word_the_caller_holds_only_in_other_compounds_is_another_thing() -> None:
    s = _scope(["Give your email address when asked.", "Do not give your home address."])
    assert s.other_done("Your mailing address has been updated.")
    assert not s.other_done("Your email address has been updated.")


def test_a_head_word_the_caller_says_alone_too_is_its_own_whatever_comes_before() -> None:
    s = _scope(["You want to add a bag to your flight.", "Your email address is on file."])
    assert not s.other_done("Your checked bag has been added.")
