"""Incident tools: troubleshooting, unlock/reset, tickets, SLA, outages, dispatch, wrap-up.

EVA's rules: account keys are the `target_system` names as given, a password reset
marks the temporary password on the account, outages and tickets need no employee
check, and a dispatch reads `field_dispatch_availability[date][window]` only.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    new_id,
    not_found,
    require_auth,
    today,
    verified_employee,
)

_SLA = {"tier_1": ("high", 1, 4), "tier_2": ("medium", 4, 8), "tier_3": ("low", 8, 24)}


def _ticket(db: dict[str, Any], ticket_number: str) -> tuple[dict[str, Any] | None, Result | None]:
    t = db.get("tickets", {}).get(ticket_number)
    if not isinstance(t, dict):
        return None, not_found(f"Ticket {ticket_number} not found")
    return t, None


def _account(emp: dict[str, Any], target_system: str) -> dict[str, Any] | None:
    acct = (emp.get("account_status") or {}).get(target_system)
    return acct if isinstance(acct, dict) else None


@TOOLS.tool
def get_troubleshooting_guide(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The numbered steps to walk through before any ticket is created."""
    err = require_auth(db)
    if err is not None:
        return err
    cat = params["issue_category"]
    guide = db.get("troubleshooting_guides", {}).get(cat)
    if not isinstance(guide, dict):
        return error("guide_not_found", f"No guide for {cat}")
    steps = list(guide.get("steps") or [])
    return success(issue_category=cat, steps=steps, message=f"{len(steps)} steps")


@TOOLS.tool
def attempt_account_unlock(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Unlock a locked account unless it is under a security or admin hold."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    system = params["target_system"]
    acct = _account(emp, system)
    if acct is None:
        return error("no_account", f"No account found on {system} for {emp['employee_id']}")
    if not acct.get("locked"):
        return error("not_locked", f"Account on {system} is not locked")
    reason = acct.get("lock_reason")
    if reason in ("security_investigation", "admin_hold"):
        what = (
            "security investigation" if reason == "security_investigation" else str(reason).replace("_", " ")
        )
        return error(
            "cannot_unlock_security_hold",
            f"Account on {system} is under {what}. This cannot be unlocked from the service desk. "
            "Offer to transfer the caller to a live agent; security will contact them separately.",
            lock_reason=reason,
        )
    acct["locked"] = False
    acct["lock_reason"] = None
    return success(
        employee_id=emp["employee_id"],
        target_system=system,
        resolved=True,
        message=f"Account unlocked on {system}",
    )


@TOOLS.tool
def attempt_password_reset(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Send a temporary password, unless the account needs an in-person reset."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    system = params["target_system"]
    acct = _account(emp, system)
    if acct is None:
        return error("no_account", f"No account on {system} for {emp['employee_id']}")
    if acct.get("requires_in_person_reset"):
        return error(
            "in_person_required",
            f"Password reset for {system} requires in-person verification at the IT security office",
        )
    acct["password_expired"] = False
    acct["temp_password_issued"] = True
    return success(
        employee_id=emp["employee_id"],
        target_system=system,
        resolved=True,
        message="Temporary password sent to phone on file. Caller must change on first login.",
    )


@TOOLS.tool
def create_incident_ticket(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Open an incident; login and network tickets need troubleshooting done first."""
    err = require_auth(db)
    if err is not None:
        return err
    cat = params["category"]
    if cat in ("login_issue", "network_connectivity") and not params["troubleshooting_completed"]:
        return error("troubleshooting_required", f"Complete troubleshooting before creating {cat} ticket")
    record: dict[str, Any] = {
        "ticket_number": None,
        "employee_id": params["employee_id"],
        "category": cat,
        "urgency": params["urgency"],
        "affected_system": params["affected_system"],
        "troubleshooting_completed": params["troubleshooting_completed"],
        "status": "open",
        "sla_tier": None,
        "created_date": today(db).isoformat(),
    }
    number = "INC" + new_id(record, "ticket_number")
    record["ticket_number"] = number
    db.setdefault("tickets", {})[number] = record
    return success(
        ticket_number=number, category=cat, urgency=params["urgency"], message=f"Ticket created: {number}"
    )


@TOOLS.tool
def assign_sla_tier(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Set response/resolution targets; the tier must match the ticket's urgency."""
    err = require_auth(db)
    if err is not None:
        return err
    t, err = _ticket(db, params["ticket_number"])
    if t is None:
        return err or {}
    tier = params["sla_tier"]
    _, resp, resol = _SLA[tier]
    want = next((k for k, v in _SLA.items() if v[0] == t.get("urgency")), None)
    if want is not None and want != tier:
        return error(
            "tier_urgency_mismatch",
            f"Ticket urgency is '{t.get('urgency')}' which requires {want}, not {tier}",
        )
    t["sla_tier"] = tier
    t["sla_response_hours"] = resp
    t["sla_resolution_hours"] = resol
    return success(
        ticket_number=t["ticket_number"],
        sla_tier=tier,
        response_target=f"{resp}h",
        resolution_target=f"{resol}h",
        message=f"SLA {tier}: respond {resp}h, resolve {resol}h",
    )


def _outage(db: dict[str, Any], service: str) -> dict[str, Any] | None:
    o = db.get("active_outages", {}).get(service)
    return o if isinstance(o, dict) else None


@TOOLS.tool
def check_existing_outage(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Avoid duplicate outage tickets: report the active one for the service, if any."""
    err = require_auth(db)
    if err is not None:
        return err
    service = params["service_name"]
    o = _outage(db, service)
    if o is None:
        return success(existing_outage=False, service_name=service, message="No active outage found.")
    return success(
        existing_outage=True,
        ticket_number=o.get("ticket_number"),
        service_name=service,
        affected_user_count=o.get("affected_user_count", 0),
        message=f"Active outage: {o.get('ticket_number')}",
    )


@TOOLS.tool
def add_affected_user(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Attach the caller to an outage already on file (EVA: no employee check; a caller
    already listed is not added twice; the count is the list length)."""
    err = require_auth(db)
    if err is not None:
        return err
    number, eid = params["ticket_number"], params["employee_id"]
    o = next(
        (
            x
            for x in db.get("active_outages", {}).values()
            if isinstance(x, dict) and x.get("ticket_number") == number
        ),
        None,
    )
    if o is None:
        return error("ticket_not_found", f"No active outage {number}")
    users = o.setdefault("affected_users", [])
    if eid not in users:
        users.append(eid)
    o["affected_user_count"] = len(users)
    return success(
        ticket_number=number,
        employee_id=eid,
        total_affected=o["affected_user_count"],
        message=f"Added to {number}",
    )


@TOOLS.tool
def link_known_error(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Link the service's known error (and its workaround) to a ticket, if one exists."""
    err = require_auth(db)
    if err is not None:
        return err
    t, err = _ticket(db, params["ticket_number"])
    if t is None:
        return err or {}
    service = params["service_name"]
    ke = db.get("known_errors", {}).get(service)
    if not isinstance(ke, dict):
        return success(linked=False, ticket_number=t["ticket_number"], message="No known error found.")
    t["linked_known_error_id"] = ke.get("known_error_id")
    return success(
        linked=True,
        ticket_number=t["ticket_number"],
        known_error_id=ke.get("known_error_id"),
        workaround=ke.get("workaround"),
        message=f"Linked {ke.get('known_error_id')}",
    )


def _alternatives(db: dict[str, Any], day: str) -> list[dict[str, str]]:
    """Up to 3 open `{date, time_window}` slots on or after `day`."""
    out = []
    for d, slots in sorted((db.get("field_dispatch_availability") or {}).items()):
        if d < day or not isinstance(slots, dict):
            continue
        for w, s in slots.items():
            if isinstance(s, dict) and s.get("available"):
                out.append({"date": d, "time_window": w})
    return out[:3]


@TOOLS.tool
def schedule_field_dispatch(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Book a technician visit in an open window for a ticket (EVA ignores the building)."""
    err = require_auth(db)
    if err is not None:
        return err
    t, err = _ticket(db, params["ticket_number"])
    if t is None:
        return err or {}
    day, window = params["preferred_date"], params["time_window"]
    slot = ((db.get("field_dispatch_availability") or {}).get(day) or {}).get(window)
    if not (isinstance(slot, dict) and slot.get("available")):
        return error(
            "no_availability", f"No tech on {day} {window}", alternative_slots=_alternatives(db, day)
        )
    slot["available"] = False
    dispatch_id = "DSP-" + t["ticket_number"][-7:]
    t["dispatch_id"] = dispatch_id
    t["dispatch_date"] = day
    t["dispatch_window"] = window
    return success(
        dispatch_id=dispatch_id, date=day, time_window=window, message=f"Dispatch {dispatch_id} confirmed"
    )


@TOOLS.tool
def attach_diagnostic_log(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Attach the caller's netdiag reference code to a ticket."""
    code = params["diagnostic_ref_code"]
    err = require_auth(db)
    if err is not None:
        return err
    t, err = _ticket(db, params["ticket_number"])
    if t is None:
        return err or {}
    t["diagnostic_ref_code"] = code
    t["diagnostic_attached"] = True
    return success(ticket_number=t["ticket_number"], diagnostic_ref_code=code, message="Diagnostic attached")


@TOOLS.tool
def mark_resolved(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Record a call resolved without a ticket, so it still leaves a state change."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    table = db.setdefault("interactions", {})
    iid = f"INT-{len(table) + 1:06d}"
    table[iid] = {
        "interaction_id": iid,
        "employee_id": emp["employee_id"],
        "flow_id": params["flow_id"],
        "resolution_type": params["resolution_type"],
        "logged_date": today(db).isoformat(),
    }
    return success(
        interaction_id=iid,
        flow_id=params["flow_id"],
        resolution_type=params["resolution_type"],
        message=f"Interaction logged: {iid}",
    )


@TOOLS.tool
def transfer_to_agent(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Hand the call to a live agent; writes nothing."""
    eid = params["employee_id"]
    return success(
        transfer_id=f"TRF-{eid}-{call_index:03d}",
        employee_id=eid,
        transfer_reason=params["transfer_reason"],
        estimated_wait="2-3 minutes",
        message="Transferring",
    )
