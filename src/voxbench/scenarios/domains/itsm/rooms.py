"""Conference rooms and calendar invites (EVA's rules: times are checked for shape only,
no employee check, and an invite is written for any request id)."""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    new_id,
    not_found,
    require_auth,
    resolve_building,
    today,
)
from voxbench.scenarios.domains.itsm.facilities import fac


def _conflict(room: dict[str, Any], day: str, start: str, end: str) -> dict[str, Any] | None:
    return next(
        (
            b
            for b in room.get("bookings") or []
            if b.get("date") == day and b.get("start_time", "") < end and start < b.get("end_time", "")
        ),
        None,
    )


@TOOLS.tool
def check_room_availability(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Rooms free for the window with enough seats and all required equipment."""
    err = require_auth(db)
    if err is not None:
        return err
    building, err = resolve_building(db, params["building_code"])
    if building is None:
        return err or {}
    floor = params.get("floor_code")
    need = params.get("equipment_required") or []
    need = {need} if isinstance(need, str) else set(need)
    rooms = [
        {
            "room_code": code,
            "floor_code": r.get("floor_code"),
            "capacity": r.get("capacity"),
            "equipment": r.get("equipment", []),
        }
        for code, r in fac(db, "conference_rooms").items()
        if r.get("building_code") == building
        and (floor is None or r.get("floor_code") == floor)
        and int(r.get("capacity") or 0) >= params["min_capacity"]
        and need <= set(r.get("equipment") or [])
        and _conflict(r, params["date"], params["start_time"], params["end_time"]) is None
    ]
    return success(available_rooms=rooms, message=f"{len(rooms)} room(s)")


@TOOLS.tool
def submit_room_booking(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Book a room the caller chose for a free window."""
    err = require_auth(db)
    if err is not None:
        return err
    code = params["room_code"]
    room = fac(db, "conference_rooms").get(code)
    if not isinstance(room, dict):
        return not_found(f"Room {code} not found")
    n = params["attendee_count"]
    if n > int(room.get("capacity") or 0):
        return error("over_capacity", f"Attendee count {n} exceeds room capacity {room.get('capacity')}")
    day, start, end = params["date"], params["start_time"], params["end_time"]
    clash = _conflict(room, day, start, end)
    if clash is not None:
        return error("room_conflict", f"Booked {day} {clash.get('start_time')}-{clash.get('end_time')}")
    booking: dict[str, Any] = {
        "booking_id": None,
        "date": day,
        "start_time": start,
        "end_time": end,
        "employee_id": params["employee_id"],
        "attendee_count": n,
    }
    rid = "REQ-FAC-" + new_id(booking, "booking_id")
    booking["booking_id"] = rid
    room.setdefault("bookings", []).append(booking)
    return success(
        request_id=rid,
        room_code=code,
        date=day,
        start_time=start,
        end_time=end,
        message=f"Booked {code}. ID: {rid}",
    )


@TOOLS.tool
def send_calendar_invite(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Write the organizer's calendar event `CAL-{last 6 of request_id}` (EVA: unchecked)."""
    err = require_auth(db)
    if err is not None:
        return err
    rid, code = params["request_id"], params["room_code"]
    eid = "CAL-" + rid[-6:]
    db.setdefault("calendar_events", {})[eid] = {
        "calendar_event_id": eid,
        "request_id": rid,
        "employee_id": params["employee_id"],
        "room_code": code,
        "date": params["date"],
        "start_time": params["start_time"],
        "end_time": params["end_time"],
        "created_date": today(db).isoformat(),
    }
    return success(
        calendar_event_id=eid,
        room_code=code,
        date=params["date"],
        message=f"Calendar invite sent. Event: {eid}",
    )
