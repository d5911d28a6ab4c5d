"""A completion counts for one of the caller's requests only when it is of what the caller asks
for: a report whose done clauses say another thing (a parking permit, a printer) leaves the
caller's request open, so a goodbye gets it raised and "anything else?" gets it stated; a report
with no subject of its own ('It has been submitted.') or one saying the caller's words or facts
is the request in hand's; a summary reporting several requests does each it names by its own
words in what it says was done."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.pipelines.caller_goal.conftest import make_scenario, opened
from voxbench.pipelines.caller.goal.facts import goal_facts
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.pipelines.caller.goal.scope import Scope

OTHER_FAREWELL = (
    "You're welcome. Your reference number is Q X R, four four one. The printer jam was resolved "
    "by a reset, and no further action is needed. Goodbye."
)
OTHER_CLOSING = (
    "Your parking permit has been renewed, and the garage badge review has been scheduled for May "
    "third. Is there anything else I can help you with today?"
)


def _flight(seed: int = 0) -> GoalCaller:
    return opened(make_scenario({"confirmation_number": "ZK3FFW", "last_name": "Lima"}), seed)


def _two(seed: int = 0) -> GoalCaller:
    sc = make_scenario(
        {"employee_id": "EMP824156", "unit_code": "5B-PEDS"},
        goal="You want to swap a shift and request vacation days before the swap. Your printer jam, "
        "parking permit and badge review were all handled last week.",  # the goal's words, no request's
        intents=["Swap my shift with a colleague", "Request vacation days before the swap"],
        start="Hi, I have two scheduling things.",
        negotiation=[  # words of other things in the tree: no request's, no fact's
            "If the agent brings up your printer or your parking permit, say you only called about scheduling."
        ],
    )
    return opened(sc, seed)


Make = Callable[[int], GoalCaller]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("make", [_flight, _two])
def test_a_farewell_reporting_another_thing_gets_the_open_request_then_ends(make: Make, seed: int) -> None:
    c = make(seed)
    first = c.respond(OTHER_FAREWELL)
    assert not first.ends_call and ("flight" in first.text.lower() or "shift" in first.text.lower())
    assert c.respond(OTHER_FAREWELL).ends_call


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("make", [_flight, _two])
def test_anything_else_after_a_report_of_another_thing_states_the_request(make: Make, seed: int) -> None:
    act = make(seed).respond(OTHER_CLOSING)
    assert not act.ends_call and ("flight" in act.text.lower() or "shift" in act.text.lower())


@pytest.mark.parametrize(
    "report", ["It has been submitted.", "Your flight has been changed to the 11 AM departure."]
)
def test_a_report_of_no_other_thing_is_the_request_in_hands(report: str) -> None:
    c = _flight()
    c.respond(report)
    bye = c.respond("Is there anything else I can help you with today?")
    assert bye.ends_call, bye.text


def test_a_summary_does_each_request_it_names_by_its_own_words() -> None:
    c = _two()
    act = c.respond(
        "All done. Your vacation request was submitted, and your manager has been notified. Your "
        "shift swap with your colleague was completed too. Is there anything else I can help you with?"
    )
    assert act.ends_call, act.text


def test_a_report_of_another_thing_beside_a_request_done_leaves_the_other_open() -> None:
    c = _two()
    act = c.respond(
        "Your shift swap with your colleague has been submitted. Your parking permit has been "
        "renewed. Is there anything else I can help you with?"
    )
    assert not act.ends_call and "vacation" in act.text.lower()


def _scope() -> Scope:
    book = goal_facts({"policy_name": "FMLA leave", "start_date": "2026-08-10"})
    return Scope(["You want to file FMLA leave and keep your badge."], book, ["File FMLA leave"])


def test_a_done_clause_subject_reads_spelled_names_and_leaves_numbers_and_dates_out() -> None:
    assert Scope.subject("Today I opened your F M L A case for August tenth, twenty twenty-six") >= {"fmla"}
    assert not {"august", "10", "tenth", "twenty"} & Scope.subject("It was opened for August tenth")
    assert Scope.subject("It has been submitted") == set()


def test_things_are_the_requests_and_facts_not_the_rest_of_the_goal() -> None:
    s = _scope()
    assert s.of_things(["Your F M L A case has been opened."]) is True
    assert s.of_things(["Your badge review has been scheduled."]) is False  # the goal's words, no request's
    assert s.of_things(["That's been submitted."]) is True
    assert s.of_things(["Your case number is C A S E one."]) is None
