"""The goal's clauses about the caller (goal/goalclauses.py): a short lead-in before 'you' left
out, a verb phrase after ', and' sharing the subject and verb before it (issue 29, goal_wish)."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.goalclauses import caller_clauses
from voxbench.pipelines.caller.goal.openask import GoalOpenAnswers

from .conftest import make_scenario


def test_a_lead_in_before_the_subject_is_left_out() -> None:
    got = caller_clauses(
        "Your laptop will not power on, and after troubleshooting you want a technician visit scheduled; "
        "once that is handled, you also want a replacement laptop."
    )
    assert got == ["Your laptop will not power on", "you want a technician visit scheduled"]


def test_a_verb_phrase_in_a_list_shares_the_subject_and_verb_before_it() -> None:
    got = caller_clauses(
        "You are a manager: you need to provision accounts for a new hire, get yourself access to "
        "Confluence, and book a conference room for a transition meeting."
    )
    assert got[-1] == "you need to book a conference room for a transition meeting"


def test_a_clause_with_another_subject_is_still_none() -> None:
    assert caller_clauses("Your Wi-Fi shows connected, but nothing loads.") == ["Your Wi-Fi shows connected"]
    assert caller_clauses("You need a desk, and the agent must book it.") == ["You need a desk"]
    assert caller_clauses("If the agent asks, you want a refund.") == []


def test_the_thing_such_a_clause_holds_answers_its_noun() -> None:
    sc = make_scenario(
        {"employee_id": "EMP1"},
        goal="You need to report a dead laptop, get a monitor, and book a conference room for a team huddle.",
    )
    a = GoalOpenAnswers.of(sc).answer("What room do you need?", offered=False)
    assert a is not None and "conference room" in a.line


def test_a_part_with_its_own_subject_or_finite_verb_shares_nothing() -> None:
    assert caller_clauses("You need to call the desk first, and everything should work after.") == [
        "You need to call the desk first"
    ]
    assert caller_clauses("You need to pay the late fee, and hopefully the fee is waived.") == [
        "You need to pay the late fee"
    ]
    assert caller_clauses("You need to reset the router, and nobody else can do it.") == [
        "You need to reset the router"
    ]
