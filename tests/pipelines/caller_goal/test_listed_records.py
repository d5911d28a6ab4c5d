"""A field of a listed record asked of a caller with several records: each value told apart by its
record (its route), never two values under one label; a route's two ends asked together are said
together (live, EVA airline 1.1.4: 'My original origin is S E A. My original origin is B O S.')."""

from __future__ import annotations

from voxbench.bench.matcher import goal_facts
from voxbench.bench.weak_records import twin_labels
from voxbench.pipelines.caller.goal.policy import GoalCaller
from voxbench.scenarios import Scenario

from .conftest import make_scenario

_INFO = {
    "confirmation_number": "QW7ERT",
    "last_name": "Lima",
    "original_travel_details": [
        {"origin": "SEA", "destination": "BOS", "flight_date": "2026-08-14", "departure_time": "08:10"},
        {"origin": "BOS", "destination": "SEA", "flight_date": "2026-08-21", "departure_time": "13:10"},
    ],
}


def _caller(info: dict[str, object]) -> GoalCaller:
    sc: Scenario = make_scenario(info, goal="You want to change your flights.")
    c = GoalCaller(sc)
    c.open()
    c.respond("May I have your confirmation number and last name?")
    return c


def test_a_field_of_two_records_is_told_apart_by_route() -> None:
    act = _caller(_INFO).respond("What is the original departure time?")
    assert "8:10 AM" in act.text and "1:10 PM" in act.text
    assert "S E A to B O S" in act.text and "B O S to S E A" in act.text
    assert twin_labels(act.text, goal_facts(_INFO)) == []


def test_a_route_asked_in_two_fragments_is_said_whole_per_record() -> None:
    act = _caller(_INFO).respond("Could you provide the origin? Destination.")
    assert "S E A to B O S" in act.text and "B O S to S E A" in act.text
    assert {f"original_travel_details.{i}.{k}" for i in (0, 1) for k in ("origin", "destination")} <= set(
        act.facts
    )
    assert twin_labels(act.text, goal_facts(_INFO)) == []


def test_one_record_keeps_its_labels_and_a_stated_end_is_not_said_again() -> None:
    one = {**_INFO, "original_travel_details": _INFO["original_travel_details"][:1]}  # type: ignore[index]
    act = _caller(one).respond("Could you provide the origin? Destination.")
    assert "S E A" in act.text and "B O S" in act.text
    again = _caller(one).respond("Got it, destination BOS. Please provide the origin.")
    assert "S E A" in again.text and "original_travel_details.0.destination" not in again.facts


def test_a_records_state_is_no_detail_of_the_request() -> None:
    """Stating its open request again with its record's details, the caller says the record's
    dates and times, not its state ('The original status is confirmed.'): that is the system's."""
    info = {
        "confirmation_number": "QW7ERT",
        "last_name": "Lima",
        "original_travel_details": [
            {"origin": "SEA", "destination": "BOS", "flight_date": "2026-08-14", "status": "confirmed"}
        ],
    }
    sc = make_scenario(info, goal="You want to move your SEA to BOS flight to an earlier date.")
    c = GoalCaller(sc)
    c.open()
    c.respond("May I have your confirmation number and last name?")
    act = c.respond("I found your reservation. Is there anything else you would like to know?")
    assert act.rule == "request_still_open", act
    assert "status" not in act.text.lower() and "confirmed" not in act.text.lower(), act.text
    assert "original_travel_details.0.status" not in act.facts
