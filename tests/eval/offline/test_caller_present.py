"""The scenario's current date and time is the caller's knowledge: a date, clock time or year
read from it is grounded, not invented; another date or time is still invented."""

from __future__ import annotations

from typing import Any

from voxbench.eval.offline._caller_present import present_known, present_said
from voxbench.eval.offline.behavioral import user_behavioral_fidelity_offline

from .convs import A, U, context

GOAL: dict[str, Any] = {
    "high_level_user_goal": "Get the updated departure time of your delayed flight.",
    "information_required": {"flight_number": "SK610"},
}
NOW = "2026-06-30 10:15 EST"


def _invented(caller_line: str, now: str = NOW) -> list[str]:
    events = [
        A("Hello! How can I help you today?"),
        U("I'm calling about my delayed flight, S K six one zero."),
        A("What's the current date and time?"),
        U(caller_line),
        A("Thanks. The flight now leaves at noon. Anything else?"),
        U("No, that's all. Goodbye."),
    ]
    ctx = context(events, user_goal=GOAL, current_date_time=now, conversation_ended_reason="end_call")
    res = user_behavioral_fidelity_offline(ctx)
    return [e["claim"] for e in res.details["evidence"] if "not among its facts" in e["rule"]]


def test_the_present_said_with_date_and_time_is_grounded() -> None:
    """Live, airline 2.2.4: the goal caller's answer read as '2026 1015' and '1015', flagged."""
    assert _invented("It's June 30, 2026, 10:15 AM.") == []


def test_each_way_of_saying_the_present_is_grounded() -> None:
    for line in (
        "It's 10:15 AM.",
        "Today is June 30th.",
        "It's June 30, 2026, about 10:15 AM.",
        "It's 10:15.",
    ):
        assert _invented(line) == [], line


def test_a_day_relative_to_the_present_is_grounded() -> None:
    assert _invented("Tomorrow, July 1, would work.") == []


def test_another_date_and_time_is_still_invented() -> None:
    got = _invented("It's July 3, 2026, 2:45 PM.")
    assert any("d:0703" in c for c in got) and any("245" in c for c in got)  # the date and the time


def test_without_a_current_date_the_present_grounds_nothing() -> None:
    assert _invented("It's June 30, 2026, 10:15 AM.", now="") != []
    assert present_known("") == (set(), "") and present_said("no date given") == []


def test_the_present_is_keyed_from_its_spoken_forms_only() -> None:
    """The written value's digit groups (06, 30) are no numbers the caller was given."""
    keys, text = present_known(NOW)
    assert {"d:0630", "t:1015", "n:2026"} <= keys and "n:30" not in keys
    assert "june 30, 2026" in text
    assert present_said("2026-06-30") == ["June 30, 2026"]  # no time given: no form naming one
