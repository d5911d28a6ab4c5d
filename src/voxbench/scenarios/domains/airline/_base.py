"""Shared lookups for the airline tools, with EVA's conventions.

Parameters arrive validated (`_params.py`). As in EVA, write tools have no auth gate
(they need only the reservation to exist), ids are compared exactly, and when a
reservation holds several bookings for one journey the first live one is used.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error

Result = dict[str, Any]

FARE_CLASSES = ("basic_economy", "main_cabin", "premium_economy", "business", "first")


def is_irrops(rebooking_type: str) -> bool:
    """EVA: only types naming `irrops` (an airline-fault missed connection is not one)."""
    return "irrops" in rebooking_type


def today(db: dict[str, Any]) -> str:
    """The scenario's "today" (never the wall clock)."""
    return str(db.get("_current_date", ""))


def reservation(db: dict[str, Any], conf_raw: str) -> tuple[str, dict[str, Any], Result | None]:
    """The upper-cased confirmation number and its reservation, or `not_found`."""
    conf = conf_raw.upper()
    res = db.get("reservations", {}).get(conf)
    if not isinstance(res, dict):
        return conf, {}, error("not_found", f"Reservation {conf} not found")
    return conf, res, None


def find_booking(res: dict[str, Any], journey_id: str) -> tuple[dict[str, Any], Result | None]:
    """The reservation's booking for `journey_id`: the first live match, else the first."""
    matches = [b for b in res.get("bookings", []) if b.get("journey_id") == journey_id]
    if not matches:
        return {}, error(
            "journey_not_found",
            f"Journey {journey_id} is not part of reservation {res.get('confirmation_number')}",
        )
    live = [b for b in matches if b.get("status") != "cancelled"]
    return (live or matches)[0], None


def journey(db: dict[str, Any], journey_id: str) -> dict[str, Any] | None:
    j = db.get("journeys", {}).get(journey_id)
    return j if isinstance(j, dict) else None


def journey_segment(db: dict[str, Any], journey_id: str, flight_number: Any) -> dict[str, Any]:
    for seg in (journey(db, journey_id) or {}).get("segments", []):
        if seg.get("flight_number") == flight_number:
            return seg
    return {}


def select_segments(
    booking: dict[str, Any], flight_number: str | None
) -> tuple[list[dict[str, Any]], Result | None]:
    """The booking segments a per-leg tool applies to: one leg if named, else all."""
    segs: list[dict[str, Any]] = booking.get("segments", [])
    if flight_number is None:
        return segs, None
    fn = flight_number.upper()
    chosen = [s for s in segs if s.get("flight_number") == fn]
    if not chosen:
        return [], error("flight_not_found", f"Flight {fn} not found in journey {booking.get('journey_id')}")
    return chosen, None


def add_seats(db: dict[str, Any], journey_id: str, fare_class: str, delta: int) -> None:
    """EVA's seat bookkeeping: `delta` on every leg of the journey, no floor, key created."""
    for seg in (journey(db, journey_id) or {}).get("segments", []):
        seats = seg.setdefault("available_seats", {})
        seats[fare_class] = seats.get(fare_class, 0) + delta
