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
from voxbench.pipelines.caller.goal.scope import REPORT_VERB, Scope, stating

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


@pytest.mark.parametrize(
    ("turn", "ends", "open_word"),
    [
        (  # a summary naming each request by its own words does both
            "All done. Your vacation request was submitted, and your manager has been notified. Your "
            "shift swap with your colleague was completed too. Is there anything else I can help you with?",
            True,
            "",
        ),
        (  # a request done beside a report of another thing leaves the other request open
            "Your shift swap with your colleague has been submitted. Your parking permit has been "
            "renewed. Is there anything else I can help you with?",
            False,
            "vacation",
        ),
    ],
)
def test_a_summary_does_the_requests_it_names_and_no_other(turn: str, ends: bool, open_word: str) -> None:
    act = _two().respond(turn)
    assert act.ends_call is ends and open_word in act.text.lower(), act.text


@pytest.mark.parametrize(  # review of branch endings: the opening's word ('scheduling') names it
    "report",
    [
        "Your schedule has been updated.",
        "That's all set, your schedule has been updated.",
        "Your scheduling change has been submitted.",
    ],
)
def test_a_report_in_the_callers_opening_words_does_the_request_in_hand(report: str) -> None:
    c = _two()
    c.respond(report)
    act = c.respond("Is there anything else I can help you with today?")
    assert c.s.tracker.done[0] and not act.ends_call and "vacation" in act.text.lower(), act.text


@pytest.mark.parametrize("make", [_flight, _two])
@pytest.mark.parametrize(  # a completion's lead before another thing's report: main ended on each
    "farewell",
    [
        "You're all set. Your ticket is T K four. The VPN outage was fixed by a restart. Goodbye.",
        "You're all set. Case C nine. The headset issue was resolved with a firmware update. Bye now.",
        "All done. Reference R R two. The late fee was waived. Take care, goodbye.",
        "You're all set. The overdraft charge was cleared from your statement. Goodbye.",
    ],
)
def test_a_farewell_after_another_things_report_in_other_words_raises_the_request(
    make: Make, farewell: str
) -> None:
    act = make(0).respond(farewell)
    assert not act.ends_call and ("flight" in act.text.lower() or "shift" in act.text.lower()), act.text


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


def test_identity_fields_name_no_thing_by_their_key_words() -> None:
    """'phone', 'employee', 'birth' are in any report ('your phone was updated'): an identifying
    or verifying fact names the caller's thing by its value only; another fact by its key too."""
    book = goal_facts({"employee_id": "EMP550921", "phone_last_four": "4410", "monitor_size": "27_inch"})
    s = Scope(["You want a new monitor."], book, ["Get a new monitor delivered"])
    assert s.of_things(["Your phone voicemail has been activated."]) is False
    assert s.of_things(["Your employee photo has been updated."]) is False
    assert s.of_things(["Your size preference has been updated."]) is True


@pytest.mark.parametrize("verb", ["sent", "routed", "notified"])
def test_a_verb_of_something_on_its_way_is_no_report_of_it_done(verb: str) -> None:
    assert not Scope.done_clauses(f"Your request was {verb} to your manager", REPORT_VERB)


def test_the_opening_and_the_goal_clauses_stating_a_request_are_its_words() -> None:
    book = goal_facts({"employee_id": "EMP824156"})
    goal = "You want to swap a shift and keep your badge. Your printer was handled last week."
    intents = ["Swap my shift with a colleague"]
    s = Scope([goal], book, [*intents, "Hi, I have a scheduling thing.", *stating(goal, intents)])
    assert s.of_things(["Your schedule has been updated."]) is True
    assert s.of_things(["Your badge has been activated."]) is False  # the goal's other clause
    assert s.of_things(["Your printer has been fixed."]) is False


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_report_of_another_thing_with_no_question_gets_no_yes(seed: int) -> None:
    """A report asks nothing: the open request is said again without a 'Yes,' in front."""
    act = _two(seed).respond("Your parking permit has been renewed.")
    assert not act.ends_call and "shift" in act.text.lower()
    assert not act.text.lower().startswith("yes")
