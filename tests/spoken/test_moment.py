"""The one reader of a scenario's ``current_date_time`` (the caller's present line, the caller
check's grounding, the judges' present and the gate's present faults all read it)."""

from __future__ import annotations

import datetime as dt

import pytest

from voxbench.spoken.moment import Moment, call_date, written_moment


@pytest.mark.parametrize(
    ("written", "date", "time"),
    [
        ("2026-06-30 10:15 EST", "2026-06-30", "10:15"),
        ("2026-06-30T09:05", "2026-06-30", "09:05"),
        ("  2026-01-02 7:30 PST", "2026-01-02", "7:30"),
        ("2026-06-30", "2026-06-30", ""),
        ("2026-06-30 EST", "2026-06-30", ""),
    ],
)
def test_the_date_and_the_clock_time_as_written(written: str, date: str, time: str) -> None:
    assert written_moment(written) == Moment(date, time)


@pytest.mark.parametrize("written", ["", None, "June 30, 2026", "10:15 2026-06-30"])
def test_no_moment_without_a_leading_iso_date(written: str | None) -> None:
    assert written_moment(written) is None


def test_the_forms_it_is_said_in() -> None:
    now = written_moment("2026-06-30 14:05 EST")
    assert now is not None
    assert now.said() == {"date": "June 30, 2026", "time": "2:05 PM"}
    assert now.clock12 == "2:05"
    assert now.when() == dt.datetime(2026, 6, 30, 14, 5)


def test_a_date_alone_has_no_time_in_any_form() -> None:
    now = written_moment("2026-06-30")
    assert now is not None
    assert now.said() == {"date": "June 30, 2026", "time": ""}
    assert now.clock12 == ""
    assert now.when() is None


def test_midnight_and_noon_on_a_twelve_hour_clock() -> None:
    assert Moment("2026-06-30", "00:10").clock12 == "12:10"
    assert Moment("2026-06-30", "12:00").clock12 == "12:00"


def test_the_date_of_the_call_as_the_tools_read_it() -> None:
    assert call_date("2026-06-30 10:15 EST") == "2026-06-30"
    assert call_date("2026-06-30") == "2026-06-30"
    assert call_date("") == ""  # no date: the weak-turn bench grades nothing against it
    assert call_date("tomorrow 10:15") == "tomorrow"  # kept as written, for the tools to refuse
