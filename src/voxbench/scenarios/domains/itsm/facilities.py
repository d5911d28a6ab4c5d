"""Facilities tools: desks, parking, waitlists, ergonomic equipment, rooms and invites."""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    add_days,
    check_date,
    check_time,
    get_employee,
    new_id,
    parse_date,
    require_auth,
    resolve_building,
    resolve_zone,
    today,
    verified_employee,
)

_NEEDS_ASSESSMENT = ("standing_desk_converter", "ergonomic_chair")
_COOLDOWN = {"desk": 90, "parking": 180}


def _fac(db: dict[str, Any], table: str) -> dict[str, Any]:
    t = db.setdefault("facilities", {}).get(table)
    return t if isinstance(t, dict) else {}


def _floor(s: str) -> str:
    return s.strip().upper().replace(" ", "")


def _cooldown_error(db: dict[str, Any], emp: dict[str, Any], kind: str) -> Result | None:
    last = parse_date(emp.get(f"last_{kind}_assignment_date"))
    if last is None:
        return None
    eligible = parse_date(add_days(last, _COOLDOWN[kind]))
    if eligible is not None and today(db) < eligible:
        return error(
            "too_soon",
            f"{kind.capitalize()} reassignments are limited to once per {_COOLDOWN[kind]} days. "
            f"Last assignment {last.isoformat()}; next eligible {eligible.isoformat()}.",
            next_eligible_date=eligible.isoformat(),
        )
    return None


@TOOLS.tool
def check_desk_availability(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Free desks on a building floor (building by code, name or alias)."""
    err = require_auth(db)
    if err is not None:
        return err
    building, err = resolve_building(db, params["building_code"])
    if building is None:
        return err or {}
    floor = _floor(params["floor_code"])
    desks = [
        {"desk_code": code, "zone": d.get("zone"), "near_window": d.get("near_window")}
        for code, d in _fac(db, "desks").items()
        if d.get("building_code") == building
        and d.get("floor_code") == floor
        and d.get("status") == "available"
    ]
    return success(building_code=building, available_desks=desks, message=f"{len(desks)} desk(s)")


@TOOLS.tool
def submit_desk_assignment(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Assign an available desk, unless one is held or the 90-day cooldown applies."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    code = params["desk_code"].strip().upper()
    desk = _fac(db, "desks").get(code)
    if not isinstance(desk, dict):
        return error("desk_not_found", f"Desk {code} not found")
    if emp.get("assigned_desk"):
        return error(
            "already_assigned",
            f"{emp['employee_id']} already has desk {emp['assigned_desk']}; release it first.",
            assigned_desk=emp["assigned_desk"],
        )
    err = _cooldown_error(db, emp, "desk")
    if err is not None:
        return err
    if desk.get("status") != "available":
        return error("desk_unavailable", f"Desk {code} is not available")
    record = {
        "request_id": None,
        "employee_id": emp["employee_id"],
        "desk_code": code,
        "date": today(db).isoformat(),
    }
    rid = "REQ-FAC-" + new_id(record, "request_id")
    desk["status"] = "assigned"
    desk["assigned_employee_id"] = emp["employee_id"]
    emp["assigned_desk"] = code
    emp["last_desk_assignment_date"] = today(db).isoformat()
    return success(request_id=rid, desk_code=code, message=f"Assigned {code}")


def _space_view(sid: str, s: dict[str, Any]) -> dict[str, Any]:
    return {
        "parking_space_id": sid,
        "zone_code": s.get("zone_code"),
        "level": s.get("level"),
        "covered": s.get("covered"),
    }


@TOOLS.tool
def check_parking_availability(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Free parking spaces in one zone, or in every zone when none is given."""
    err = require_auth(db)
    if err is not None:
        return err
    spaces = _fac(db, "parking")
    if params.get("zone_code") is None:
        free = [_space_view(k, s) for k, s in spaces.items() if s.get("status") == "available"]
        zones = {k: z.get("name") for k, z in _fac(db, "zones").items() if isinstance(z, dict)}
        return success(available_spaces=free, zones=zones, message=f"{len(free)} space(s)")
    zone, err = resolve_zone(db, params["zone_code"])
    if zone is None:
        return err or {}
    free = [
        _space_view(k, s)
        for k, s in spaces.items()
        if s.get("zone_code") == zone and s.get("status") == "available"
    ]
    return success(zone_code=zone, available_spaces=free, message=f"{len(free)} space(s)")


@TOOLS.tool
def submit_parking_assignment(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Assign an available space, unless one is held or the 180-day cooldown applies."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    sid = params["parking_space_id"].strip().upper()
    space = _fac(db, "parking").get(sid)
    if not isinstance(space, dict):
        return error("parking_space_not_found", f"Parking space {sid} not found")
    if emp.get("assigned_parking"):
        return error(
            "already_assigned",
            f"{emp['employee_id']} already has parking space {emp['assigned_parking']}.",
            assigned_parking=emp["assigned_parking"],
        )
    err = _cooldown_error(db, emp, "parking")
    if err is not None:
        return err
    if space.get("status") != "available":
        return error("parking_space_unavailable", f"Parking space {sid} is not available")
    record = {
        "request_id": None,
        "employee_id": emp["employee_id"],
        "parking_space_id": sid,
        "date": today(db).isoformat(),
    }
    rid = "REQ-FAC-" + new_id(record, "request_id")
    space["status"] = "assigned"
    space["assigned_employee_id"] = emp["employee_id"]
    emp["assigned_parking"] = sid
    emp["last_parking_assignment_date"] = today(db).isoformat()
    return success(request_id=rid, parking_space_id=sid, message=f"Assigned {sid}")


@TOOLS.tool
def submit_waitlist(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Queue the caller for a desk (building) or parking (zone); never twice."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    kind = params["resource_type"]
    place, err = (resolve_building if kind == "desk" else resolve_zone)(db, params["zone_or_building"])
    if place is None:
        return err or {}
    waitlists = db.setdefault("waitlists", {})
    queue = waitlists.setdefault(kind, [])
    if any(w.get("employee_id") == emp["employee_id"] and w.get("zone_or_building") == place for w in queue):
        return error(
            "already_waitlisted", f"{emp['employee_id']} is already on the {kind} waitlist for {place}"
        )
    position = sum(1 for w in queue if w.get("zone_or_building") == place) + 1
    wid = f"WL-{kind[:3].upper()}-{len(queue) + 1:04d}"
    queue.append(
        {
            "waitlist_id": wid,
            "employee_id": emp["employee_id"],
            "resource_type": kind,
            "zone_or_building": place,
            "position": position,
            "added_date": today(db).isoformat(),
        }
    )
    return success(
        waitlist_id=wid,
        resource_type=kind,
        position=position,
        zone_or_building=place,
        message=f"Placed on {kind} waitlist at position {position}",
    )


def _assessment_done(emp: dict[str, Any]) -> bool:
    a = emp.get("ergonomic_assessment")
    return isinstance(a, dict) and a.get("status") == "completed"


@TOOLS.tool
def check_ergonomic_assessment(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Whether a completed assessment is on file (needed for chairs and converters)."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    if not _assessment_done(emp):
        return error(
            "assessment_required",
            "No completed ergonomic assessment on file. Complete one through the occupational health portal.",
        )
    return success(
        employee_id=emp["employee_id"],
        assessment_date=emp["ergonomic_assessment"].get("completed_date"),
        message="Assessment on file",
    )


@TOOLS.tool
def submit_equipment_request(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Order office/ergonomic equipment; chairs and converters need an assessment."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    kind = params["equipment_type"]
    if kind in _NEEDS_ASSESSMENT and not _assessment_done(emp):
        return error(
            "assessment_required",
            f"A completed ergonomic assessment is required before ordering a {kind.replace('_', ' ')}.",
        )
    building, err = resolve_building(db, params["delivery_building"])
    if building is None:
        return err or {}
    record: dict[str, Any] = {
        "request_id": None,
        "employee_id": emp["employee_id"],
        "equipment_type": kind,
        "delivery_building": building,
        "delivery_floor": params["delivery_floor"],
        "status": "submitted",
        "created_date": today(db).isoformat(),
    }
    rid = "REQ-FAC-" + new_id(record, "request_id")
    record["request_id"] = rid
    db.setdefault("requests", {})[rid] = record
    return success(
        request_id=rid, equipment_type=kind, delivery_building=building, message=f"Equipment request: {rid}"
    )


def _window_error(p: dict[str, Any]) -> Result | None:
    err = (
        check_date(p["date"])
        or check_time(p["start_time"], "start_time")
        or check_time(p["end_time"], "end_time")
    )
    if err is not None:
        return err
    if p["end_time"] <= p["start_time"]:
        return error("invalid_time_range", "end_time must be after start_time")
    return None


def _overlaps(room: dict[str, Any], day: str, start: str, end: str) -> bool:
    return any(
        b.get("date") == day and b.get("start_time", "") < end and start < b.get("end_time", "")
        for b in room.get("bookings") or []
    )


@TOOLS.tool
def check_room_availability(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Rooms free for the window with enough seats and all required equipment."""
    err = _window_error(params) or require_auth(db)
    if err is not None:
        return err
    building, err = resolve_building(db, params["building_code"])
    if building is None:
        return err or {}
    floor = _floor(params["floor_code"]) if params.get("floor_code") else None
    need = set(params.get("equipment_required") or [])
    rooms = [
        {
            "room_code": code,
            "floor_code": r.get("floor_code"),
            "capacity": r.get("capacity"),
            "equipment": r.get("equipment"),
        }
        for code, r in _fac(db, "conference_rooms").items()
        if r.get("building_code") == building
        and (floor is None or r.get("floor_code") == floor)
        and int(r.get("capacity") or 0) >= params["min_capacity"]
        and need <= set(r.get("equipment") or [])
        and not _overlaps(r, params["date"], params["start_time"], params["end_time"])
    ]
    return success(available_rooms=rooms, message=f"{len(rooms)} room(s)")


@TOOLS.tool
def submit_room_booking(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Book a room the caller chose for a free window."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    err = _window_error(params) or require_auth(db)
    if err is not None:
        return err
    code = params["room_code"].strip().upper()
    room = _fac(db, "conference_rooms").get(code)
    if not isinstance(room, dict):
        return error("room_not_found", f"Room {code} not found")
    if params["attendee_count"] > int(room.get("capacity") or 0):
        return error("capacity_exceeded", f"Room {code} seats {room.get('capacity')}")
    day, start, end = params["date"], params["start_time"], params["end_time"]
    if _overlaps(room, day, start, end):
        return error("room_unavailable", f"Room {code} is already booked {day} {start}-{end}")
    booking: dict[str, Any] = {
        "booking_id": None,
        "date": day,
        "start_time": start,
        "end_time": end,
        "employee_id": emp["employee_id"],
        "attendee_count": params["attendee_count"],
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
    """Create the organizer's calendar event for a confirmed booking."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    err = _window_error(params) or require_auth(db)
    if err is not None:
        return err
    rid, code = params["request_id"], params["room_code"].strip().upper()
    room = _fac(db, "conference_rooms").get(code)
    booking = next(
        (b for b in (room or {}).get("bookings") or [] if b.get("booking_id") == rid),
        None,
    )
    if booking is None:
        return error("booking_not_found", f"No booking {rid} for room {code}")
    if (booking.get("date"), booking.get("start_time"), booking.get("end_time")) != (
        params["date"],
        params["start_time"],
        params["end_time"],
    ):
        return error(
            "booking_mismatch",
            f"Booking {rid} is for {booking.get('date')} {booking.get('start_time')}-{booking.get('end_time')}",
        )
    events = db.setdefault("calendar_events", {})
    if any(isinstance(e, dict) and e.get("request_id") == rid for e in events.values()):
        return error("invite_already_sent", f"A calendar invite was already sent for {rid}")
    eid = "CAL-" + rid[-6:]
    events[eid] = {
        "calendar_event_id": eid,
        "request_id": rid,
        "employee_id": emp["employee_id"],
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
