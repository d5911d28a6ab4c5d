"""Authentication and read-only airline tools: reservation, flight status, disruptions, search.

Search options (and `rebook_flight`'s `new_journey`) embed the live segment dicts of the
database, as EVA's tools do: EVA serialises its audit log only when the conversation
ends, so its recorded search responses show seat counts after later rebookings.
Flight status and disruption results are snapshots, as in EVA's traces.
"""

from __future__ import annotations

import copy
from typing import Any

from voxbench.scenarios.domains._common import error, session, success
from voxbench.scenarios.domains.airline import TOOLS
from voxbench.scenarios.domains.airline._base import FARE_CLASSES, Result, reservation


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
    conf = params["confirmation_number"].upper()
    res = db.get("reservations", {}).get(conf)
    if not isinstance(res, dict):
        return error("not_found", f"Reservation {conf} not found")
    given = params["last_name"].lower()
    # EVA: an empty last name skips the check; otherwise an exact lower-case match.
    if given and not any(str(p.get("last_name", "")).lower() == given for p in res.get("passengers", [])):
        return error("authentication_failed", f"Last name does not match reservation {conf}")
    session(db).update({"confirmation_number": conf, "last_name": given})
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
    fn, day = params["flight_number"].upper(), params["flight_date"]
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
        return error("not_found", f"Flight {params['flight_number']} not found for date {day}")
    return success(journey=copy.deepcopy(j))


@TOOLS.tool
def get_disruption_info(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The disruption record (cause, IRROPS flag, entitlements) of a flight on a date."""
    fn, day = params["flight_number"].upper(), params["date"]
    disruptions = db.get("disruptions") or {}
    rec = disruptions.get(f"{fn}_{day}") if isinstance(disruptions, dict) else None
    if rec is None:
        return error("not_found", f"No disruption info found for flight {fn}")
    return success(disruption=copy.deepcopy(rec))


def _min_seats(segments: list[dict[str, Any]]) -> dict[str, int | None]:
    """EVA: per class of the first leg, the scarcest leg decides; other classes are null."""
    first = segments[0].get("available_seats") or {}
    return {
        cls: min(int((s.get("available_seats") or {}).get(cls) or 0) for s in segments)
        if cls in first
        else None
        for cls in FARE_CLASSES
    }


@TOOLS.tool
def search_rebooking_options(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Bookable journeys on a route and date with seats for the party, by departure time.

    As in EVA: a journey qualifies on seats alone (its fare may be null); with
    `fare_class="any"` the quoted fare is the cheapest class with seats and a fare.
    """
    origin, dest, day = params["origin"].upper(), params["destination"].upper(), params["date"]
    count = params["passenger_count"]
    fare_class = params["fare_class"]
    options = []
    for key, j in db.get("journeys", {}).items():
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
        open_classes = [c for c in classes if (seats.get(c) or 0) >= count]
        if not open_classes:
            continue
        priced = [fares[c] for c in open_classes if fares.get(c) is not None]
        options.append(
            {
                "journey_id": key,
                "origin": j.get("origin"),
                "destination": j.get("destination"),
                "num_stops": j.get("num_stops", 0),
                "total_duration_minutes": j.get("total_duration_minutes"),
                "segments": segs,
                "departure_time": segs[0]["scheduled_departure"],
                "arrival_time": segs[-1]["scheduled_arrival"],
                "available_seats": seats,
                "fare": min(priced) if priced else None,
            }
        )
    options.sort(key=lambda o: str(o["departure_time"]))
    return success(options=options, count=len(options), message=f"{len(options)} flight(s) found")


@TOOLS.tool
def transfer_to_agent(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Hand the call to a human, as EVA's tool function does: the reservation must exist,
    and the transfer id counts this tool's calls in the conversation (`TRF-{CONF}-001`).

    EVA's cascade agent answers this call itself with `{"status": "transfer_initiated"}`
    before the function runs (the airline reference traces show that); its realtime and
    speech-to-speech servers run the function, which is what the tools are compared to.
    """
    conf, _, err = reservation(db, params["confirmation_number"])
    if err:
        return err
    return success(
        transfer_id=f"TRF-{conf}-{call_index:03d}",
        confirmation_number=conf,
        transfer_reason=params["transfer_reason"],
        issue_summary=params["issue_summary"],
        estimated_wait="2-3 minutes",
        message="Transferring to live agent",
    )
