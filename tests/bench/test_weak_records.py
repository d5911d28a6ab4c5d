"""The weak-turn bench's listed-record classes and its one-label-two-values check."""

from __future__ import annotations

from voxbench.bench.matcher import goal_facts
from voxbench.bench.weak_records import twin_labels

_INFO = {
    "original_travel_details": [
        {"origin": "SEA", "destination": "BOS", "departure_time": "08:10"},
        {"origin": "BOS", "destination": "SEA", "departure_time": "13:10"},
    ]
}


def test_two_values_under_one_label_fail() -> None:
    facts = goal_facts(_INFO)
    reply = "The original departure time is 8:10 AM. The original departure time is 1:10 PM."
    assert twin_labels(reply, facts) == ["original departure time"]
    assert twin_labels("My original origin is S E A. The original origin is B O S.", facts) == [
        "original origin"
    ]


def test_values_told_apart_by_record_pass() -> None:
    facts = goal_facts(_INFO)
    reply = ("For S E A to B O S, the departure time is 8:10 AM. "
             "For B O S to S E A, the departure time is 1:10 PM.")  # fmt: skip
    assert twin_labels(reply, facts) == []
    assert twin_labels("My departure time is 8:10 AM. As I said, my departure time is 8:10 AM.", facts) == []
