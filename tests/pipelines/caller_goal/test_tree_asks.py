"""The question a tree names for a refusal ('If told X, ask exactly one follow-up question: ask
whether Y') is the caller's follow-up, not a generic one: read once as a direct question, asked
on the refusal its condition matches, once, and before answering an offer made with the refusal;
and a value 'still not matching' is a refusal."""

from __future__ import annotations

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.cues import DENIAL
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.treeasks import direct_question, tree_asks

PERMIT = (
    "3. If the agent says the parking permit cannot be renewed because the vehicle plate is not on "
    "file, ask exactly one follow-up question: ask whether a new registration form is required "
    "before the renewal can proceed. After the agent answers, accept the denial."
)
LOCKER = (
    "4. If the agent says no lockers are available in the north gym, ask exactly one follow-up "
    "question: whether there is any locker free in the south gym instead."
)
INTENTS = ["Renew my parking permit", "Get a locker in the north gym or join its waitlist"]


@pytest.mark.parametrize(
    ("clause", "question"),
    [
        ("there is any locker free in the south gym", "Is there any locker free in the south gym?"),
        ("a new registration form is required first", "Is a new registration form required first?"),
        ("they can waive the late fee", "Can you waive the late fee?"),
        ("your badge can be reissued today", "Can my badge be reissued today?"),
        ("that means no form is needed", "Could you tell me whether that means no form is needed?"),
        (
            "the form is late and what the next step is",
            "Could you tell me whether the form is late and what the next step is?",
        ),
    ],
)
def test_an_indirect_question_is_asked_directly(clause: str, question: str) -> None:
    assert direct_question(clause) == question


def test_a_step_naming_a_question_is_read_with_its_condition() -> None:
    asks = tree_asks([PERMIT, LOCKER, "Ask them to re-check whether the permit fee includes tax."])
    assert [a.question for a in asks] == [
        "Is a new registration form required before the renewal can proceed?",
        "Is there any locker free in the south gym instead?",
    ]
    assert "vehicle plate is not on file" in asks[0].condition
    later = tree_asks(["If the fee is shown, ask them to re-check whether the permit fee includes tax."])
    assert [a.question for a in later] == ["Could you re-check whether the permit fee includes tax?"]


def test_a_step_that_answers_a_question_names_none() -> None:
    assert tree_asks(["If the agent asks whether you have a car, say yes.", "Ask for a receipt."]) == []


def _caller(seed: int = 0) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP551200"},
        goal="You want your parking permit renewed and a locker in the north gym, or else a place on "
        "the north gym locker waitlist.",
        must=[
            "You want the permit renewed, but if you are told it is not possible, accept that outcome "
            "after one follow-up question.",
        ],
        negotiation=[PERMIT, LOCKER],
        intents=INTENTS,
        escalation="Do not ask to speak to a live agent.",
        start="Hi, I need help with a parking permit and a locker.",
    )
    return opened(sc, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_refusal_the_step_names_gets_the_steps_question(seed: int) -> None:
    c = _caller(seed)
    act = c.respond("I'm sorry, I can't renew the parking permit because the vehicle plate is not on file.")
    assert act.rule == "tree_follow_up_question"
    assert act.text == "Is a new registration form required before the renewal can proceed?"


def test_a_refusal_no_step_names_gets_the_generic_follow_up() -> None:
    c = _caller()
    act = c.respond("Unfortunately I cannot help with that today.")
    assert act.rule == "one_follow_up_question"


def test_the_steps_question_comes_before_the_offer_made_with_the_refusal() -> None:
    c = _caller()
    c.respond("I'm sorry, I can't renew the parking permit because the vehicle plate is not on file.")
    c.respond("Yes, a new registration form is required first.")
    offer = "There are no lockers available in the north gym. Would you like me to add you to the waitlist?"
    first = c.respond(offer)
    assert first.text == "Is there any locker free in the south gym instead?"
    again = c.respond("No, the south gym is full too. Would you like me to add you to the waitlist?")
    assert again.rule != "tree_follow_up_question" and again.choice == "yes"


@pytest.mark.parametrize(
    "said",
    ["The plate still isn't matching our records.", "It is still not matching.", "The codes didn't match."],
)
def test_a_value_not_matching_is_a_refusal(said: str) -> None:
    assert DENIAL.search(said)


def test_an_identifier_in_the_trees_question_is_said_by_its_words() -> None:
    q = direct_question("there is already an existing outage for email_exchange")
    assert "email_exchange" not in q and "email exchange" in q
