"""Shared lookups, validation and the auth gate for the airline tools.

Identifiers arrive as the agent heard them (lower case, stray spaces), so every id is
normalised before lookup; malformed ids get an `invalid_<field>` error rather than a
misleading "not found".
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from voxbench.scenarios.domains._common import error

Result = dict[str, Any]

FARE_CLASSES = ("basic_economy", "main_cabin", "premium_economy", "business", "first")
IRROPS_TYPES = frozenset(
    {"irrops_cancellation", "irrops_delay", "irrops_schedule_change", "missed_connection_airline_fault"}
)

_CONF_RE = re.compile(r"^[A-Z0-9]{6}$")
_FLIGHT_RE = re.compile(r"^[A-Z0-9]{2}\d{1,4}$")
_JOURNEY_RE = re.compile(r"^FL(_[A-Z0-9]{2}\d{1,4})+_\d{8}$")
_PAX_RE = re.compile(r"^PAX\d{3}$")
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_AIRPORT_RE = re.compile(r"^[A-Z]{3}$")


def clean_id(value: str) -> str:
    """Upper-case an identifier and drop spaces/dashes a speech transcript may add."""
    return re.sub(r"[\s\-]+", "", value).upper()


def check_conf(value: str) -> tuple[str, Result | None]:
    conf = clean_id(value)
    if not _CONF_RE.match(conf):
        return conf, error(
            "invalid_confirmation_number",
            f"Invalid confirmation number '{value}': expected 6 letters/digits",
        )
    return conf, None


def check_flight_number(value: str) -> tuple[str, Result | None]:
    fn = clean_id(value)
    if not _FLIGHT_RE.match(fn):
        return fn, error("invalid_flight_number", f"Invalid flight number '{value}' (e.g. SK123)")
    return fn, None


def check_journey_id(value: str, field: str = "journey_id") -> tuple[str, Result | None]:
    jid = re.sub(r"\s+", "", value).upper()
    if not _JOURNEY_RE.match(jid):
        return jid, error(
            f"invalid_{field}",
            f"Invalid {field} '{value}': expected FL_<flight>[_<flight>]_<YYYYMMDD>",
        )
    return jid, None


def check_passenger_id(value: str, field: str = "passenger_id") -> tuple[str, Result | None]:
    pid = clean_id(value)
    if not _PAX_RE.match(pid):
        return pid, error(f"invalid_{field}", f"Invalid passenger id '{value}' (e.g. PAX001)")
    return pid, None


def check_date(value: str, field: str = "date") -> tuple[str, Result | None]:
    v = value.strip()
    if _DATE_RE.match(v):
        try:
            date.fromisoformat(v)
            return v, None
        except ValueError:
            pass
    return v, error(f"invalid_{field}", f"Invalid {field} '{value}': expected YYYY-MM-DD")


def check_airport(value: str, field: str) -> tuple[str, Result | None]:
    code = value.strip().upper()
    if not _AIRPORT_RE.match(code):
        return code, error(f"invalid_{field}", f"Invalid {field} airport code '{value}' (e.g. JFK)")
    return code, None


def today(db: dict[str, Any]) -> str:
    """The scenario's "today" (never the wall clock)."""
    return str(db.get("_current_date", ""))


def authed_reservation(db: dict[str, Any], conf_raw: str) -> tuple[dict[str, Any], Result | None]:
    """The reservation a write tool acts on, only if `get_reservation` verified it.

    Write tools must not touch a booking the caller has not authenticated for, so the
    confirmation number has to match the one stored in the session.
    """
    conf, err = check_conf(conf_raw)
    if err:
        return {}, err
    s = db.get("session") or {}
    if str(s.get("confirmation_number", "")).upper() != conf:
        return {}, error(
            "authentication_required",
            f"Reservation {conf} has not been verified; call get_reservation with the "
            "confirmation number and last name first",
        )
    res = db.get("reservations", {}).get(conf)
    if not isinstance(res, dict):
        return {}, error("not_found", f"Reservation {conf} not found")
    return res, None


def find_booking(res: dict[str, Any], journey_id: str) -> tuple[dict[str, Any], Result | None]:
    """The reservation's booking for `journey_id` (prefer a live one over a cancelled one)."""
    matches = [b for b in res.get("bookings", []) if str(b.get("journey_id", "")).upper() == journey_id]
    if not matches:
        return {}, error(
            "journey_not_found",
            f"Journey {journey_id} is not part of reservation {res.get('confirmation_number')}",
        )
    live = [b for b in matches if b.get("status") != "cancelled"]
    return (live or matches)[-1], None


def find_passenger(res: dict[str, Any], pid: str) -> dict[str, Any] | None:
    for p in res.get("passengers", []):
        if str(p.get("passenger_id", "")).upper() == pid:
            return p
    return None


def passenger_error(res: dict[str, Any], pid: str) -> Result:
    return error(
        "passenger_not_found",
        f"Passenger {pid} is not on reservation {res.get('confirmation_number')}",
    )


def journey(db: dict[str, Any], journey_id: str) -> dict[str, Any] | None:
    j = db.get("journeys", {}).get(journey_id)
    return j if isinstance(j, dict) else None


def select_segments(
    booking: dict[str, Any], flight_number: str | None
) -> tuple[list[dict[str, Any]], Result | None]:
    """The booking segments a per-leg tool applies to: one leg if named, else all."""
    segs: list[dict[str, Any]] = booking.get("segments", [])
    if flight_number is None:
        return segs, None
    fn, err = check_flight_number(flight_number)
    if err:
        return [], err
    chosen = [s for s in segs if str(s.get("flight_number", "")).upper() == fn]
    if not chosen:
        return [], error(
            "flight_not_in_journey",
            f"Flight {fn} is not a segment of journey {booking.get('journey_id')}",
        )
    return chosen, None


def adjust_seats(
    db: dict[str, Any], journey_id: str, fare_class: str, delta: int, flights: set[str] | None = None
) -> None:
    """Add `delta` to the seat count of `fare_class` on a journey's legs (all or `flights`)."""
    j = journey(db, journey_id)
    if j is None:
        return
    for seg in j.get("segments", []):
        if flights is not None and seg.get("flight_number") not in flights:
            continue
        seats = seg.get("available_seats")
        if isinstance(seats, dict) and isinstance(seats.get(fare_class), int):
            seats[fare_class] = max(0, seats[fare_class] + delta)


def money(x: float) -> float:
    """Round to cents; fares are dollars and floating sums must not leak 0.000001s."""
    return round(float(x), 2)
