"""Flight changes: rebooking (full or one leg) and same-day standby.

Fees follow the policy in `airline_agent.yaml`: the change fee depends on the
*original* fare class and on whether the change is voluntary or same-day; IRROPS and
airline-fault missed connections waive fees and fare differences and keep the fare
already paid. Elite waivers are the agent's decision (`waive_change_fee`).
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.airline import TOOLS
from voxbench.scenarios.domains.airline._base import (
    IRROPS_TYPES,
    Result,
    adjust_seats,
    authed_reservation,
    check_flight_number,
    check_journey_id,
    check_passenger_id,
    find_booking,
    find_passenger,
    journey,
    money,
    passenger_error,
    today,
)

VOLUNTARY_FEE = {"basic_economy": 75, "main_cabin": 75, "premium_economy": 75, "business": 0, "first": 0}
SAME_DAY_FEE = {"basic_economy": 199, "main_cabin": 75, "premium_economy": 75, "business": 75, "first": 75}
BOOKABLE_STATUSES = ("scheduled", "on_time", "delayed")


def _change_fee(rebooking_type: str, original_class: str) -> int:
    if rebooking_type in IRROPS_TYPES:
        return 0
    table = SAME_DAY_FEE if rebooking_type == "same_day" else VOLUNTARY_FEE
    return table.get(original_class, 75)


def _split_fare(total: float, weights: list[float]) -> list[float]:
    """Spread a journey fare over its legs in proportion to the leg prices."""
    if len(weights) <= 1:
        return [money(total)] * len(weights)
    wsum = sum(weights) or float(len(weights))
    parts = [money(total * (w or 1.0) / wsum) for w in weights]
    parts[-1] = money(total - sum(parts[:-1]))
    return parts


def _new_booking(new_j: dict[str, Any], fare_class: str, fare_paid: float, keep_fare: bool) -> dict[str, Any]:
    segs = new_j.get("segments", [])
    if keep_fare:
        leg_fares = _split_fare(fare_paid, [float((s.get("fares") or {}).get(fare_class) or 0) for s in segs])
    else:
        leg_fares = [money((s.get("fares") or {}).get(fare_class) or 0) for s in segs]
        if len(segs) == 1:
            leg_fares = [money(fare_paid)]
    return {
        "journey_id": new_j.get("journey_id"),
        "fare_class": fare_class,
        "fare_paid": money(fare_paid),
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
            for s, fare in zip(segs, leg_fares, strict=True)
        ],
    }


def _check_new_journey(
    new_j: dict[str, Any] | None, new_id: str, fare_class: str, party: int
) -> Result | None:
    if new_j is None:
        return error("journey_not_found", f"Flight {new_id} not found")
    if not new_j.get("bookable") or new_j.get("status") not in BOOKABLE_STATUSES:
        return error("journey_not_bookable", f"Flight {new_id} is not available for booking")
    if (new_j.get("fares") or {}).get(fare_class) is None:
        return error("fare_class_unavailable", f"{fare_class} is not offered on {new_id}")
    for seg in new_j.get("segments", []):
        if int((seg.get("available_seats") or {}).get(fare_class) or 0) < party:
            return error(
                "no_availability",
                f"Not enough {fare_class} seats on {new_id} for {party} passenger(s)",
            )
    return None


@TOOLS.tool
def rebook_flight(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Move a booked journey (or one leg of it) to another journey and price the change."""
    res, err = authed_reservation(db, params["confirmation_number"])
    if err:
        return err
    old_id, err = check_journey_id(params["journey_id"])
    if err:
        return err
    new_id, err = check_journey_id(params["new_journey_id"], "new_journey_id")
    if err:
        return err
    old, err = find_booking(res, old_id)
    if err:
        return err
    if old.get("status") == "cancelled":
        return error("journey_cancelled", f"Journey {old_id} is already cancelled and cannot be changed")
    if new_id == old_id:
        return error("same_journey", f"Journey {old_id} is already booked on this reservation")
    rtype = params["rebooking_type"]
    orig_class = str(old.get("fare_class", "main_cabin"))
    fare_class = params.get("new_fare_class", orig_class)
    party = max(1, len(res.get("passengers", [])))
    new_j = journey(db, new_id)
    err = _check_new_journey(new_j, new_id, fare_class, party)
    if err or new_j is None:
        return err or error("journey_not_found", f"Flight {new_id} not found")

    replaced: dict[str, Any] | None = None
    kept: list[dict[str, Any]] = []
    old_fare = float(old.get("fare_paid") or 0)
    if params.get("flight_number") is not None and len(old.get("segments", [])) > 1:
        fn, err = check_flight_number(params["flight_number"])
        if err:
            return err
        replaced = next((s for s in old["segments"] if str(s.get("flight_number")).upper() == fn), None)
        if replaced is None:
            return error("flight_not_in_journey", f"Flight {fn} is not a segment of journey {old_id}")
        kept = [s for s in old["segments"] if s is not replaced]
        old_fare = float(replaced.get("fare_paid") or 0)

    irrops = rtype in IRROPS_TYPES
    new_fare = float((new_j.get("fares") or {})[fare_class])
    fare_difference = money(new_fare - old_fare)
    change_fee = 0 if params["waive_change_fee"] else _change_fee(rtype, orig_class)
    fee_waived = irrops or bool(params["waive_change_fee"])
    if irrops:
        credit_due: float = 0
        total: float = 0
    else:
        credit_due = money(-fare_difference) if fare_difference < 0 else 0
        total = money(change_fee + max(fare_difference, 0))

    old["status"] = "cancelled"
    if replaced is None:
        adjust_seats(db, old_id, orig_class, party)
    else:
        adjust_seats(db, old_id, orig_class, party, {str(replaced.get("flight_number"))})
    adjust_seats(db, new_id, fare_class, -party)
    bookings = res.setdefault("bookings", [])
    bookings.append(_new_booking(new_j, fare_class, old_fare if irrops else new_fare, keep_fare=irrops))
    if kept:
        bookings.append(_kept_booking(kept, orig_class))
    res["status"] = "changed"

    segs = new_j.get("segments", [])
    result = success(
        confirmation_number=res.get("confirmation_number"),
        new_journey={
            "journey_id": new_id,
            "num_stops": new_j.get("num_stops"),
            "segments": segs,
            "departure": segs[0].get("scheduled_departure") if segs else None,
            "arrival": segs[-1].get("scheduled_arrival") if segs else None,
            "origin": new_j.get("origin"),
            "destination": new_j.get("destination"),
        },
        cost_summary={
            "original_fare_class": orig_class,
            "new_fare_class": fare_class,
            "cabin_changed": fare_class != orig_class,
            "change_fee": change_fee,
            "fare_difference": fare_difference,
            "credit_due": credit_due,
            "total_collected": total,
            "fee_waived": fee_waived,
        },
        message=f"Successfully rebooked to flight {new_id}"
        + (f" in {fare_class}" if fare_class != orig_class else ""),
    )
    if replaced is not None:
        result["partial_rebook"] = True
        result["replaced_segment"] = replaced.get("flight_number")
        result["kept_segments"] = [s.get("flight_number") for s in kept]
    return result


def _kept_booking(kept: list[dict[str, Any]], fare_class: str) -> dict[str, Any]:
    """The untouched legs of a partially rebooked journey, rebooked under their own id."""
    day = str(kept[0].get("date", "")).replace("-", "")
    flights = "_".join(str(s.get("flight_number")) for s in kept)
    return {
        "journey_id": f"FL_{flights}_{day}",
        "fare_class": fare_class,
        "fare_paid": money(sum(float(s.get("fare_paid") or 0) for s in kept)),
        "status": "confirmed",
        "segments": [dict(s) for s in kept],
    }


@TOOLS.tool
def add_to_standby(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Put passengers on a same-day flight's standby list (free; positions are FIFO)."""
    res, err = authed_reservation(db, params["confirmation_number"])
    if err:
        return err
    jid, err = check_journey_id(params["journey_id"])
    if err:
        return err
    pids: list[str] = []
    for raw in params["passenger_ids"]:
        pid, err = check_passenger_id(raw, "passenger_ids")
        if err:
            return err
        if find_passenger(res, pid) is None:
            return passenger_error(res, pid)
        if pid not in pids:
            pids.append(pid)
    if not pids:
        return error("invalid_passenger_ids", "passenger_ids must name at least one passenger")
    j = journey(db, jid)
    if j is None:
        return error("journey_not_found", f"Flight {jid} not found")
    if j.get("status") in ("cancelled", "departed"):
        return error("journey_not_available", f"Flight {jid} is {j.get('status')}; standby is not possible")
    if j.get("date") != today(db):
        return error("not_eligible", "Standby is only available for flights departing today")
    standby = j.setdefault("standby_list", [])
    conf = res.get("confirmation_number")
    already = [
        p
        for p in pids
        if any(e.get("confirmation_number") == conf and e.get("passenger_id") == p for e in standby)
    ]
    if already:
        return error("already_on_standby", f"{', '.join(already)} already on the standby list for {jid}")
    first = len(standby) + 1
    for i, pid in enumerate(pids):
        standby.append({"confirmation_number": conf, "passenger_id": pid, "position": first + i})
    res.setdefault("standby_list", []).append(
        {"journey_id": jid, "passenger_ids": pids, "position": first, "status": "pending"}
    )
    return success(
        confirmation_number=conf,
        journey_id=jid,
        standby_list_position=first,
        message=f"Added {len(pids)} passenger(s) to standby list",
    )
