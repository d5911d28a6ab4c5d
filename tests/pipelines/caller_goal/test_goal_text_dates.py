"""Goal text the caller restates is said, not read: written dates and 24-hour times."""

from __future__ import annotations

from voxbench.pipelines.caller.goal.agenda import Agenda
from voxbench.pipelines.caller.goal.phrases import first_person


def test_iso_dates_and_24_hour_times_are_said() -> None:
    said = first_person("Your return must be rebooked to 2026-08-23 departing after 14:00 Eastern Time.")
    assert said == "My return must be rebooked to August 23, 2026 departing after 2 PM Eastern Time."


def test_a_time_of_either_half_of_the_day_is_left_as_written() -> None:
    assert first_person("You call back at 3:00 or at 4:30.") == "I call back at 3:00 or at 4:30."


def test_a_time_with_its_half_of_the_day_is_said_as_a_person_does() -> None:
    said = first_person("You want to depart between 8:00 AM and 3:00 p.m. Eastern, or at 9:15 a.m.")
    assert said == "I want to depart between 8 AM and 3 PM Eastern, or at 9:15 AM."


def test_a_must_have_question_says_its_date() -> None:
    (item,) = Agenda(["The agent confirms your outbound flight on 2026-08-14 remains unchanged"]).items
    q = item.as_question()
    assert q == "Can you also confirm that my outbound flight on August 14, 2026 remains unchanged?"
