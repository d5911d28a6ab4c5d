"""A clock time the caller writes "h:mm" without am/pm ("keep my 1:30 flight") is read as a clock
time: the caller's own when the same time of either half of the day is among its facts or the
agent's words, invented when no such time is."""

from __future__ import annotations

from typing import Any

from voxbench.eval.offline.behavioral import user_behavioral_fidelity_offline

from .convs import A, U, call, context, result

GOAL: dict[str, Any] = {
    "high_level_user_goal": "Be added to standby for the 10:00 AM flight and keep your original flight.",
    "decision_tree": {"must_have_criteria": ["You are on standby for the 10:00 AM flight."]},
    "information_required": {
        "confirmation_number": "NTJBNE",
        "last_name": "Walker",
        "original_travel_details": [{"origin": "ATL", "destination": "DCA", "departure_time": "13:30"}],
    },
}


STANDBY = "You're number two on standby for flight four zero five."


def _ctx(agent_line: str, caller_line: str, goal: dict[str, Any] = GOAL):
    events = [
        A("Hi, how can I help you today?"),
        U("Put me on standby for the 10:00 AM flight. Code N T J B N E, last name Walker."),
        call("add_to_standby", confirmation_number="NTJBNE", journey_id="FL_SK405"),
        result("add_to_standby", {"status": "success", "standby_list_position": 2}),
        A(agent_line),
        U(caller_line),
        A("Yes, it stays confirmed. Anything else?"),
        U("No. Goodbye."),
    ]
    return context(events, user_goal=goal, conversation_ended_reason="end_call", simulator_ended_call=True)


def _invented(ctx) -> list[str]:
    res = user_behavioral_fidelity_offline(ctx)
    return [e["claim"] for e in res.details["evidence"] if "not among its facts" in e["rule"]]


def test_a_twelve_hour_time_of_a_twenty_four_hour_fact_is_the_callers() -> None:
    ctx = _ctx(STANDBY, "And my 1:30 flight stays as backup?")
    assert _invented(ctx) == []


def test_a_time_the_agent_said_with_pm_may_be_repeated_without_it() -> None:
    goal = {**GOAL, "information_required": {"confirmation_number": "NTJBNE", "last_name": "Walker"}}
    said = "Done. Your confirmed flight at one thirty PM stays protected."
    ctx = _ctx(said, "So the 1:30 stays as backup?", goal)
    assert _invented(ctx) == []


def test_a_clock_time_nobody_said_is_still_invented() -> None:
    """Not the sum of two numbers the call holds (flight 405 + 10): a time is compared as a time."""
    ctx = _ctx(STANDBY, "And my 4:15 flight stays as backup?")
    assert _invented(ctx) == ["'415' (n:415)"]


def test_the_other_half_of_the_day_needs_the_same_minutes() -> None:
    ctx = _ctx(STANDBY, "And my 1:45 flight stays as backup?")
    assert _invented(ctx) == ["'145' (n:145)"]


def test_a_clock_time_is_not_read_inside_a_longer_one() -> None:
    """3:30 is not 13:30: a written clock time is not found as a digit run of another time."""
    ctx = _ctx(STANDBY, "And my 3:30 flight stays as backup?")
    assert _invented(ctx) == ["'330' (n:330)"]
