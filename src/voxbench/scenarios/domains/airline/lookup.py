"""Authentication and read-only airline tools: reservation, flight status, disruptions, search.

Search options (and `rebook_flight`'s `new_journey`) embed the live segment dicts of the
database, as EVA's tools do: EVA serialises its audit log only when the conversation
ends, so its recorded search responses show seat counts after later rebookings.
Flight status and disruption results are snapshots, as in EVA's traces.
"""

from __future__ import annotations

import copy
import unicodedata
from typing import Any

from voxbench.scenarios.domains._common import error, norm, session, success
from voxbench.scenarios.domains.airline import TOOLS
from voxbench.scenarios.domains.airline._base import (
    FARE_CLASSES,
    Result,
    check_airport,
    check_conf,
    check_date,
    check_flight_number,
)


def _fold(s: Any) -> str:
    """Accent-, case- and punctuation-insensitive name for last-name verification."""
    decomposed = unicodedata.normalize("NFKD", str(s))
    return norm("".join(c for c in decomposed if not unicodedata.combining(c)))


def _journey_segment(db: dict[str, Any], journey_id: str, flight_number: str) -> dict[str, Any]:
    j = db.get("journeys", {}).get(journey_id) or {}
    for seg in j.get("segments", []):
        if seg.get("flight_number") == flight_number:
            return seg
    return {}


@TOOLS.tool
def get_reservation(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Verify the caller (confirmation number + last name) and return the booking.

    Success stores the verified reservation in the session, which gates every write tool.
    """
    conf, err = check_conf(params["confirmation_number"])
    if err:
        return err
    res = db.get("reservations", {}).get(conf)
    if not isinstance(res, dict):
        return error("not_found", f"Reservation {conf} not found")
    wanted = _fold(params["last_name"])
    match = next((p for p in res.get("passengers", []) if _fold(p.get("last_name", "")) == wanted), None)
    if not wanted or match is None:
        return error(
            "authentication_failed",
            f"Last name does not match any passenger on reservation {conf}",
        )
    s = session(db)
    s["confirmation_number"] = conf
    s["last_name"] = str(match.get("last_name", "")).lower()
    view = copy.deepcopy(res)
    for booking in view.get("bookings", []):
        for seg in booking.get("segments", []):
            jseg = _journey_segment(db, booking.get("journey_id", ""), seg.get("flight_number", ""))
            for key in ("origin", "destination", "scheduled_departure", "scheduled_arrival"):
                if key in jseg:
                    seg[key] = jseg[key]
    view["bookings"] = sorted(
        view.get("bookings", []),
        key=lambda b: (str((b.get("segments") or [{}])[0].get("date", "")), str(b.get("journey_id", ""))),
    )
    return success(reservation=view)


@TOOLS.tool
def get_flight_status(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The journey containing a flight on a date (direct key first, then any connection)."""
    fn, err = check_flight_number(params["flight_number"])
    if err:
        return err
    day, err = check_date(params["flight_date"], "flight_date")
    if err:
        return err
    journeys = db.get("journeys", {})
    j = journeys.get(f"FL_{fn}_{day.replace('-', '')}")
    if j is None:
        j = next(
            (
                cand
                for cand in journeys.values()
                if cand.get("date") == day
                and any(s.get("flight_number") == fn for s in cand.get("segments", []))
            ),
            None,
        )
    if j is None:
        return error("flight_not_found", f"Flight {fn} not found on {day}")
    return success(journey=copy.deepcopy(j))


@TOOLS.tool
def get_disruption_info(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The disruption record (cause, IRROPS flag, entitlements) of a flight on a date."""
    fn, err = check_flight_number(params["flight_number"])
    if err:
        return err
    day, err = check_date(params["date"])
    if err:
        return err
    disruptions = db.get("disruptions") or {}
    rec = disruptions.get(f"{fn}_{day}") if isinstance(disruptions, dict) else None
    if rec is None:
        values = disruptions.values() if isinstance(disruptions, dict) else disruptions
        rec = next((d for d in values if d.get("flight_number") == fn and d.get("date") == day), None)
    if rec is None:
        return error("not_found", f"No disruption info found for flight {fn}")
    return success(disruption=copy.deepcopy(rec))


def _min_seats(segments: list[dict[str, Any]]) -> dict[str, int]:
    """Seats bookable end to end: the scarcest leg decides, per fare class."""
    out: dict[str, int] = {}
    for cls in FARE_CLASSES:
        counts = [int((s.get("available_seats") or {}).get(cls) or 0) for s in segments]
        out[cls] = min(counts) if counts else 0
    return out


@TOOLS.tool
def search_rebooking_options(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Bookable journeys on a route and date with seats for the party, by departure time.

    With `fare_class="any"` the quoted fare is the cheapest class that still has seats.
    """
    origin, err = check_airport(params["origin"], "origin")
    if err:
        return err
    dest, err = check_airport(params["destination"], "destination")
    if err:
        return err
    day, err = check_date(params["date"])
    if err:
        return err
    count = params["passenger_count"]
    if count < 1:
        return error("invalid_passenger_count", "passenger_count must be at least 1")
    fare_class = params["fare_class"]
    options = []
    for j in db.get("journeys", {}).values():
        if j.get("origin") != origin or j.get("destination") != dest or j.get("date") != day:
            continue
        if not j.get("bookable") or j.get("status") not in ("scheduled", "on_time", "delayed"):
            continue
        segs = j.get("segments", [])
        if not segs:
            continue
        seats = _min_seats(segs)
        fares = j.get("fares") or {}
        classes = FARE_CLASSES if fare_class == "any" else (fare_class,)
        priced = [(fares[c], c) for c in classes if fares.get(c) is not None and seats.get(c, 0) >= count]
        if not priced:
            continue
        options.append(
            {
                "journey_id": j.get("journey_id"),
                "origin": j.get("origin"),
                "destination": j.get("destination"),
                "num_stops": j.get("num_stops"),
                "total_duration_minutes": j.get("total_duration_minutes"),
                "segments": segs,
                "departure_time": segs[0].get("scheduled_departure"),
                "arrival_time": segs[-1].get("scheduled_arrival"),
                "available_seats": seats,
                "fare": min(priced)[0],
            }
        )
    options.sort(key=lambda o: (str(o["departure_time"]), str(o["journey_id"])))
    return success(options=options, count=len(options), message=f"{len(options)} flight(s) found")


@TOOLS.tool
def transfer_to_agent(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Hand the call to a human; it changes nothing, so it never fails on data."""
    return {"status": "transfer_initiated"}
