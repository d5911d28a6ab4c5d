"""Flight changes: rebooking (full or one leg) and standby, as EVA's tools do them.

Fees follow the policy in `airline_agent.yaml`: the change fee depends on the
*original* fare class and on whether the change is voluntary or same-day. Only
`irrops_*` types are IRROPS in EVA (no fee, nothing collected, old fare kept); an
airline-fault missed connection pays like a voluntary change. Seat counts move by one
seat per journey leg (EVA's bookkeeping), whatever the party size.
"""

from __future__ import annotations

import copy
from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.airline import TOOLS
from voxbench.scenarios.domains.airline._base import (
    Result,
    add_seats,
    find_booking,
    is_irrops,
    journey,
    journey_segment,
    reservation,
)

VOLUNTARY_FEE = {"basic_economy": 75, "main_cabin": 75, "premium_economy": 75, "business": 0, "first": 0}
SAME_DAY_FEE = {"basic_economy": 199, "main_cabin": 75, "premium_economy": 75, "business": 75, "first": 75}


def _change_fee(rebooking_type: str, original_class: str) -> int:
    if is_irrops(rebooking_type):
        return 0
    table = SAME_DAY_FEE if rebooking_type == "same_day" else VOLUNTARY_FEE
    return table.get(original_class, 75)


def _check_new_journey(new_j: dict[str, Any] | None, new_id: str, fare_class: str) -> Result | None:
    if new_j is None:
        return error("flight_not_found", f"Flight {new_id} not found")
    if not new_j.get("bookable", True):
        return error("not_bookable", f"Flight {new_id} is not available for booking")
    if (new_j.get("fares") or {}).get(fare_class) is None:
        return error(
            "fare_class_not_available", f"Fare class '{fare_class}' is not available on flight {new_id}"
        )
    segs = new_j.get("segments", [])
    seats = min((int((s.get("available_seats") or {}).get(fare_class) or 0) for s in segs), default=0)
    if seats < 1:
        return error("no_seats_available", f"No seats available in {fare_class} on flight {new_id}")
    return None


def _segment_fares(
    new_j: dict[str, Any], fare_class: str, irrops: bool, old: dict[str, Any], replaced: dict[str, Any] | None
) -> list[Any]:
    """EVA's per-leg `fare_paid` of the new booking."""
    segs = new_j.get("segments", [])
    leg_fares = [(s.get("fares") or {}).get(fare_class, 0) for s in segs]
    if irrops and replaced is None:
        old_segs = old.get("segments", [])
        return [old_segs[i].get("fare_paid") if i < len(old_segs) else f for i, f in enumerate(leg_fares)]
    if irrops and replaced is not None and len(segs) == 1:
        return [replaced.get("fare_paid")]
    return leg_fares


def _leg_view(db: dict[str, Any], journey_id: str, seg: dict[str, Any], with_seat: bool) -> dict[str, Any]:
    jseg = journey_segment(db, journey_id, seg.get("flight_number"))
    out = {
        "flight_number": seg.get("flight_number"),
        "origin": jseg.get("origin"),
        "destination": jseg.get("destination"),
        "fare_paid": seg.get("fare_paid"),
    }
    if with_seat:
        out["seat"] = seg.get("seat")
    return out


def _leg_to_replace(
    old: dict[str, Any], old_id: str, flight_number: str | None
) -> tuple[dict[str, Any] | None, list[dict[str, Any]], Result | None]:
    """(the leg replaced, the legs kept, an error): a partial rebook moves the one leg named;
    without a flight number the whole journey moves (no leg replaced, none kept)."""
    if flight_number is None:
        return None, [], None
    fn = flight_number.upper()
    replaced = next((s for s in old.get("segments", []) if s.get("flight_number") == fn), None)
    if replaced is None:
        return None, [], error("flight_not_found", f"Flight {fn} not found in journey {old_id}")
    return replaced, [s for s in old["segments"] if s is not replaced], None


def _new_booking(
    new_j: dict[str, Any], new_id: str, fare_class: str, fare_paid: Any, leg_fares: list[Any]
) -> dict[str, Any]:
    """The booking a rebook adds, as EVA writes it: confirmed, no seat, bag or meal yet."""
    return {
        "journey_id": new_id,
        "fare_class": fare_class,
        "fare_paid": fare_paid,
        "status": "confirmed",
        "segments": [
            {
                "flight_number": s.get("flight_number"),
                "date": new_j.get("date"),
                "fare_paid": fare,
                "seat": None,
                "bags_checked": 0,
                "meal_request": None,
            }
            for s, fare in zip(new_j.get("segments", []), leg_fares, strict=True)
        ],
    }


def _journey_view(new_j: dict[str, Any], new_id: str) -> dict[str, Any]:
    """The new journey as the tool's result shows it to the agent."""
    segs = new_j.get("segments", [])
    return {
        "journey_id": new_id,
        "num_stops": new_j.get("num_stops", 0),
        "segments": copy.deepcopy(segs),
        "departure": segs[0].get("scheduled_departure") if segs else None,
        "arrival": segs[-1].get("scheduled_arrival") if segs else None,
        "origin": new_j.get("origin"),
        "destination": new_j.get("destination"),
    }


@TOOLS.tool
def rebook_flight(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Move a booked journey (or one leg of it, when `flight_number` is given) to another."""
    conf, res, err = reservation(db, params["confirmation_number"])
    if err:
        return err
    old_id, new_id = params["journey_id"], params["new_journey_id"]
    old, err = find_booking(res, old_id)
    if err:
        return err
    rtype = params["rebooking_type"]
    orig_class = str(old.get("fare_class", "main_cabin"))
    fare_class = params.get("new_fare_class", orig_class)
    new_j = journey(db, new_id)
    err = _check_new_journey(new_j, new_id, fare_class)
    if err or new_j is None:
        return err or error("flight_not_found", f"Flight {new_id} not found")

    replaced, kept, err = _leg_to_replace(old, old_id, params.get("flight_number"))
    if err:
        return err
    old_fare = (old if replaced is None else replaced).get("fare_paid") or 0

    irrops = is_irrops(rtype)
    new_fare = new_j["fares"][fare_class]
    fare_difference = new_fare - old_fare
    change_fee = 0 if params["waive_change_fee"] else _change_fee(rtype, orig_class)
    credit_due = max(0, -fare_difference)
    # EVA clamps with max(0, x): an equal-to-zero float difference stays the int 0, so the
    # agent reads `75`, not `75.0` (the reference traces show 75).
    total = 0 if irrops else change_fee + max(0, fare_difference)

    # EVA cancels the first booking listed under the journey id (possibly a cancelled one).
    first = next(b for b in res.get("bookings", []) if b.get("journey_id") == old_id)
    first["status"] = "cancelled"
    add_seats(db, old_id, orig_class, 1)
    add_seats(db, new_id, fare_class, -1)
    leg_fares = _segment_fares(new_j, fare_class, irrops, old, replaced)
    bookings = res.setdefault("bookings", [])
    bookings.append(_new_booking(new_j, new_id, fare_class, old_fare if irrops else new_fare, leg_fares))
    if replaced is not None:
        bookings.append(
            {
                "journey_id": old_id,
                "fare_class": orig_class,
                "fare_paid": sum(s.get("fare_paid") or 0 for s in kept),
                "status": "confirmed",
                "segments": copy.deepcopy(kept),
            }
        )
    res["status"] = "changed"

    result = success(
        confirmation_number=conf,
        new_journey=_journey_view(new_j, new_id),
        cost_summary={
            "original_fare_class": orig_class,
            "new_fare_class": fare_class,
            "cabin_changed": fare_class != orig_class,
            "change_fee": change_fee,
            "fare_difference": fare_difference,
            "credit_due": credit_due,
            "total_collected": total,
            "fee_waived": irrops or bool(params["waive_change_fee"]),
        },
        message=f"Successfully rebooked to flight {new_id}"
        + (f" in {fare_class}" if fare_class != orig_class else ""),
    )
    if replaced is not None:
        result["partial_rebook"] = True
        result["replaced_segment"] = _leg_view(db, old_id, replaced, with_seat=False)
        result["kept_segments"] = [_leg_view(db, old_id, s, with_seat=True) for s in kept]
    return result


@TOOLS.tool
def add_to_standby(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Put passengers on a flight's standby list (EVA: no same-day or duplicate checks)."""
    conf = params["confirmation_number"].upper()
    jid = params["journey_id"]
    j = journey(db, jid)
    if j is None:
        return error("flight_not_found", f"Flight {jid} not found")
    if j.get("status") == "cancelled":
        return error("flight_cancelled", "Cannot add to standby for cancelled flight")
    pids: list[str] = params["passenger_ids"]
    res = db.get("reservations", {}).get(conf)
    if isinstance(res, dict):
        known = {p.get("passenger_id") for p in res.get("passengers", [])}
        unknown = [p for p in pids if p not in known]
        if unknown:
            return error("invalid_passengers", f"Unknown passenger ID(s): {', '.join(unknown)}")
    standby = j.setdefault("standby_list", [])
    start = len(standby)
    for i, pid in enumerate(pids):
        standby.append({"confirmation_number": conf, "passenger_id": pid, "position": start + i + 1})
    position = start + len(pids)
    if isinstance(res, dict):
        res.setdefault("standby_list", []).append(
            {"journey_id": jid, "passenger_ids": list(pids), "position": position, "status": "pending"}
        )
    return success(
        confirmation_number=conf,
        journey_id=jid,
        standby_list_position=position,
        message=f"Added {len(pids)} passenger(s) to standby list",
    )
