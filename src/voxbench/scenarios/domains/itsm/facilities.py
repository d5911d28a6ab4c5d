"""Facilities tools: desks, parking, waitlists and ergonomic equipment (EVA's rules).

Rooms and calendar invites are in `rooms.py`. As in EVA, codes are used as given, an
assignment for an unknown employee still assigns the desk or space, and a waitlist
entry stores the place exactly as given.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    add_days,
    employee,
    new_id,
    not_found,
    parse_date,
    require_auth,
    resolve_building,
    resolve_zone,
    today,
    verified_employee,
)

_COOLDOWN = {"desk": 90, "parking": 180}


def fac(db: dict[str, Any], table: str) -> dict[str, Any]:
    t = db.setdefault("facilities", {}).get(table)
    return t if isinstance(t, dict) else {}


def _cooldown_error(db: dict[str, Any], emp: dict[str, Any], kind: str) -> Result | None:
    last = parse_date(emp.get(f"last_{kind}_assignment_date"))
    if last is None:
        return None
    days = (today(db) - last).days
    n = _COOLDOWN[kind]
    if days >= n:
        return None
    eligible = add_days(last, n)
    return error(
        "too_soon",
        f"{kind.capitalize()} reassignment cooldown: last assignment was {days} days ago; must wait at "
        f"least {n} days. Eligible again after {eligible}.",
        days_since_last=days,
        cooldown_days=n,
        last_assignment_date=last.isoformat(),
    )


@TOOLS.tool
def check_desk_availability(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Free desks on a building floor (building by code, name or alias)."""
    err = require_auth(db)
    if err is not None:
        return err
    building, err = resolve_building(db, params["building_code"])
    if building is None:
        return err or {}
    floor = params["floor_code"]
    desks = [
        {"desk_code": code, "zone": d.get("zone"), "near_window": d.get("near_window", False)}
        for code, d in fac(db, "desks").items()
        if d.get("building_code") == building
        and d.get("floor_code") == floor
        and d.get("status") == "available"
    ]
    return success(building_code=building, available_desks=desks, message=f"{len(desks)} desk(s)")


def _assign(params: dict[str, Any], db: dict[str, Any], kind: str, code_field: str, table: str) -> Result:
    """EVA's desk/parking assignment: already assigned, cooldown, exists, available."""
    err = require_auth(db)
    if err is not None:
        return err
    eid, code = params["employee_id"], params[code_field]
    emp = employee(db, eid)
    held = f"assigned_{kind}"
    if emp is not None:
        if emp.get(held):
            what = (
                f"desk {emp[held]}. Release it first to request a new one."
                if kind == "desk"
                else (f"parking {emp[held]}. Release it first.")
            )
            return error("already_assigned", f"Employee already has {what}")
        err = _cooldown_error(db, emp, kind)
        if err is not None:
            return err
    rec = fac(db, table).get(code)
    if not isinstance(rec, dict):
        return not_found(f"Desk {code} not found" if kind == "desk" else "Space not found")
    if rec.get("status") != "available":
        return error("not_available", "Not available")
    rid = "REQ-FAC-" + new_id(
        {
            "employee_id": eid,
            code_field: code,
            "request_type": f"{kind}_assignment",
            "created_date": today(db).isoformat(),
        }
    )
    rec["status"] = "assigned"
    rec["assigned_employee_id"] = eid
    if emp is not None:
        emp[held] = code
        emp[f"last_{kind}_assignment_date"] = today(db).isoformat()
    return success(request_id=rid, **{code_field: code}, message=f"Assigned {code}")


@TOOLS.tool
def submit_desk_assignment(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Assign an available desk, unless one is held or the 90-day cooldown applies."""
    return _assign(params, db, "desk", "desk_code", "desks")


@TOOLS.tool
def submit_parking_assignment(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Assign an available space, unless one is held or the 180-day cooldown applies."""
    return _assign(params, db, "parking", "parking_space_id", "parking")


def _space_view(sid: str, s: dict[str, Any]) -> dict[str, Any]:
    return {
        "parking_space_id": sid,
        "zone_code": s.get("zone_code"),
        "level": s.get("level"),
        "covered": s.get("covered", False),
    }


@TOOLS.tool
def check_parking_availability(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Free parking spaces in one zone, or in every zone when none is given."""
    err = require_auth(db)
    if err is not None:
        return err
    spaces = fac(db, "parking")
    if params.get("zone_code") is None:
        free = [_space_view(k, s) for k, s in spaces.items() if s.get("status") == "available"]
        return success(zone_code=None, available_spaces=free, message=f"{len(free)} space(s) (all zones)")
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
def submit_waitlist(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Queue the caller for a desk or parking place (stored as given; never twice)."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    kind, place = params["resource_type"], params["zone_or_building"]
    queue = db.setdefault("waitlists", {}).setdefault(kind, [])
    for w in queue:
        if w.get("employee_id") == emp["employee_id"] and w.get("zone_or_building") == place:
            return error("already_waitlisted", f"Already on waitlist position {w.get('position')}")
    position = len(queue) + 1
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


@TOOLS.tool
def check_ergonomic_assessment(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Whether a completed assessment is on file (the policy needs it for chairs and converters)."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    a = emp.get("ergonomic_assessment")
    if not (isinstance(a, dict) and a.get("status") == "completed"):
        return error(
            "assessment_required",
            "No completed ergonomic assessment. Complete one at occupational health portal.",
        )
    return success(
        employee_id=emp["employee_id"],
        assessment_date=a.get("completed_date"),
        message="Assessment on file",
    )


@TOOLS.tool
def submit_equipment_request(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Order office/ergonomic equipment (EVA: no employee or assessment check)."""
    err = require_auth(db)
    if err is not None:
        return err
    kind = params["equipment_type"]
    building, err = resolve_building(db, params["delivery_building"])
    if building is None:
        return err or {}
    record: dict[str, Any] = {
        "request_id": None,
        "employee_id": params["employee_id"],
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
