"""Per-leg extras on a booked journey: seats, checked bags, special meals (EVA's rules).

Rebooking does not carry these over; the agent moves them with these tools. As in EVA,
no passenger-on-reservation or cancelled-booking checks are made, and seat numbers are
derived (cabin base row + the passenger id's number), never drawn.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.airline import TOOLS
from voxbench.scenarios.domains.airline._base import (
    Result,
    find_booking,
    journey_segment,
    reservation,
    select_segments,
)

CABIN_BASE_ROW = {"first": 1, "business": 5, "premium_economy": 10, "main_cabin": 20, "basic_economy": 25}
SEAT_LETTER = {"window": "A", "middle": "B", "aisle": "C", "no_preference": "C"}


def _seat_row(fare_class: str, passenger_id: str) -> int:
    digits = passenger_id[-3:]
    return CABIN_BASE_ROW.get(fare_class, 20) + (int(digits) if digits.isdigit() else 0)


@TOOLS.tool
def assign_seat(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Give a passenger a seat of the preferred type on one leg, if that type is left."""
    conf, res, err = reservation(db, params["confirmation_number"])
    if err:
        return err
    pid = params["passenger_id"]
    booking, err = find_booking(res, params["journey_id"])
    if err:
        return err
    jid = booking.get("journey_id")
    segs = booking.get("segments", [])
    if params.get("flight_number") is None and len(segs) > 1:
        return error(
            "flight_number_required", f"Journey {jid} has {len(segs)} segments; flight_number is required"
        )
    chosen, err = select_segments(booking, params.get("flight_number"))
    if err:
        return err
    seg = chosen[0]
    fare_class = str(booking.get("fare_class", "main_cabin"))
    jseg = journey_segment(db, str(jid), seg.get("flight_number"))
    if int((jseg.get("available_seats") or {}).get(fare_class) or 0) <= 0:
        return error("no_seats_available", f"No seats available in {fare_class} fare class")
    types = (jseg.get("available_seat_types") or {}).get(fare_class)
    available = list(types) if isinstance(types, list) else ["window", "aisle", "middle"]
    preference = params["seat_preference"]
    if preference != "no_preference" and preference not in available:
        return error(
            "seat_type_unavailable",
            f"No {preference} seats available in {fare_class} on this flight. "
            f"Available types: {', '.join(available)}",
        )
    seat = f"{_seat_row(fare_class, pid)}{SEAT_LETTER[preference]}"
    seg["seat"] = seat
    return success(
        confirmation_number=conf,
        passenger_id=pid,
        journey_id=jid,
        flight_number=seg.get("flight_number"),
        seat_assigned=seat,
        fare_class=fare_class,
        preference=preference,
        message=f"Seat {seat} ({preference}) successfully assigned",
    )


@TOOLS.tool
def add_baggage_allowance(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Set the checked-bag count on one leg, or on every leg if none is named."""
    conf, res, err = reservation(db, params["confirmation_number"])
    if err:
        return err
    bags = params["num_bags"]
    booking, err = find_booking(res, params["journey_id"])
    if err:
        return err
    segs, err = select_segments(booking, params.get("flight_number"))
    if err:
        return err
    for seg in segs:
        seg["bags_checked"] = bags
    return success(
        confirmation_number=conf,
        journey_id=booking.get("journey_id"),
        bags_checked=bags,
        message=f"Baggage allowance set to {bags} checked bag(s)",
    )


@TOOLS.tool
def add_meal_request(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Set the special meal on one leg or on every leg (`none` is stored as the string)."""
    conf, res, err = reservation(db, params["confirmation_number"])
    if err:
        return err
    pid = params["passenger_id"]
    booking, err = find_booking(res, params["journey_id"])
    if err:
        return err
    segs, err = select_segments(booking, params.get("flight_number"))
    if err:
        return err
    meal = params["meal_type"]
    for seg in segs:
        seg["meal_request"] = meal
    return success(
        confirmation_number=conf,
        passenger_id=pid,
        journey_id=booking.get("journey_id"),
        meal_type=meal,
        message=f"{meal} meal request added",
    )
