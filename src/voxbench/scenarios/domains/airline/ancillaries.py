"""Per-leg extras on a booked journey: seats, checked bags, special meals.

Rebooking does not carry these over; the agent moves them with these tools.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.airline import TOOLS
from voxbench.scenarios.domains.airline._base import (
    Result,
    authed_reservation,
    check_journey_id,
    check_passenger_id,
    find_booking,
    find_passenger,
    journey,
    passenger_error,
    select_segments,
)

# First row of each cabin and the seat letter for each preference: seat numbers are
# derived, not drawn, so assignments are reproducible.
CABIN_FIRST_ROW = {"first": 1, "business": 5, "premium_economy": 12, "main_cabin": 21, "basic_economy": 26}
SEAT_LETTER = {"window": "A", "middle": "B", "aisle": "C"}
MAX_BAGS = 5


def _live_booking(res: dict[str, Any], raw_journey_id: str) -> tuple[dict[str, Any], Result | None]:
    jid, err = check_journey_id(raw_journey_id)
    if err:
        return {}, err
    booking, err = find_booking(res, jid)
    if err:
        return {}, err
    if booking.get("status") == "cancelled":
        return {}, error("journey_cancelled", f"Journey {jid} is cancelled on this reservation")
    return booking, None


@TOOLS.tool
def assign_seat(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Give a passenger a seat of the preferred type on one leg, if that type is left."""
    res, err = authed_reservation(db, params["confirmation_number"])
    if err:
        return err
    pid, err = check_passenger_id(params["passenger_id"])
    if err:
        return err
    pax_index = next(
        (i for i, p in enumerate(res.get("passengers", [])) if str(p.get("passenger_id", "")).upper() == pid),
        None,
    )
    if pax_index is None:
        return passenger_error(res, pid)
    booking, err = _live_booking(res, params["journey_id"])
    if err:
        return err
    segs = booking.get("segments", [])
    if params.get("flight_number") is None and len(segs) > 1:
        return error(
            "flight_number_required",
            f"Journey {booking.get('journey_id')} has {len(segs)} flights; specify flight_number",
        )
    chosen, err = select_segments(booking, params.get("flight_number"))
    if err:
        return err
    seg = chosen[0]
    fare_class = str(booking.get("fare_class", "main_cabin"))
    j = journey(db, str(booking.get("journey_id")))
    jseg: dict[str, Any] = next(
        (s for s in (j or {}).get("segments", []) if s.get("flight_number") == seg.get("flight_number")), {}
    )
    types = (jseg.get("available_seat_types") or {}).get(fare_class)
    available = list(types) if isinstance(types, list) else list(SEAT_LETTER)
    preference = params["seat_preference"]
    if preference == "no_preference":
        seat_type = next((t for t in ("window", "aisle", "middle") if t in available), None)
        if seat_type is None:
            return error(
                "seat_unavailable", f"No {fare_class} seats left on flight {seg.get('flight_number')}"
            )
    elif preference in available:
        seat_type = preference
    else:
        return error(
            "seat_unavailable",
            f"No {preference} seats available in {fare_class} on flight {seg.get('flight_number')}",
            available_seat_types=available,
        )
    seat = f"{CABIN_FIRST_ROW.get(fare_class, 21) + pax_index}{SEAT_LETTER[seat_type]}"
    seg["seat"] = seat
    return success(
        confirmation_number=res.get("confirmation_number"),
        passenger_id=pid,
        journey_id=booking.get("journey_id"),
        flight_number=seg.get("flight_number"),
        seat_assigned=seat,
        fare_class=fare_class,
        preference=preference,
        message=f"Seat {seat} ({seat_type}) successfully assigned",
    )


@TOOLS.tool
def add_baggage_allowance(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Set the checked-bag count on one leg, or on every leg if none is named."""
    res, err = authed_reservation(db, params["confirmation_number"])
    if err:
        return err
    bags = params["num_bags"]
    if not 0 <= bags <= MAX_BAGS:
        return error("invalid_num_bags", f"num_bags must be between 0 and {MAX_BAGS}, got {bags}")
    booking, err = _live_booking(res, params["journey_id"])
    if err:
        return err
    segs, err = select_segments(booking, params.get("flight_number"))
    if err:
        return err
    for seg in segs:
        seg["bags_checked"] = bags
    return success(
        confirmation_number=res.get("confirmation_number"),
        journey_id=booking.get("journey_id"),
        bags_checked=bags,
        message=f"Baggage allowance set to {bags} checked bag(s)",
    )


@TOOLS.tool
def add_meal_request(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Set (or clear, with `none`) the special meal on one leg or on every leg."""
    res, err = authed_reservation(db, params["confirmation_number"])
    if err:
        return err
    pid, err = check_passenger_id(params["passenger_id"])
    if err:
        return err
    if find_passenger(res, pid) is None:
        return passenger_error(res, pid)
    booking, err = _live_booking(res, params["journey_id"])
    if err:
        return err
    segs, err = select_segments(booking, params.get("flight_number"))
    if err:
        return err
    meal = params["meal_type"]
    for seg in segs:
        seg["meal_request"] = None if meal == "none" else meal
    return success(
        confirmation_number=res.get("confirmation_number"),
        passenger_id=pid,
        journey_id=booking.get("journey_id"),
        meal_type=meal,
        message=f"{meal} meal request added",
    )
