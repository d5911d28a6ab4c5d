"""Incident tools: troubleshooting, unlock/reset, tickets, SLA, outages, dispatch, wrap-up."""

from __future__ import annotations

import re
from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    SYSTEM_KEYS,
    Result,
    check_asset_tag,
    check_date,
    check_format,
    get_employee,
    new_id,
    require_auth,
    resolve_building,
    today,
    verified_employee,
)

_DIAG_RE = re.compile(r"^DIAG-[A-Z0-9]{8}$")
_SLA = {"tier_1": ("high", 1, 4), "tier_2": ("medium", 4, 8), "tier_3": ("low", 8, 24)}
_WINDOWS = {"morning": ["morning"], "afternoon": ["afternoon"], "full_day": ["morning", "afternoon"]}


def _ticket(db: dict[str, Any], ticket_number: str) -> tuple[dict[str, Any] | None, Result | None]:
    t = db.get("tickets", {}).get(ticket_number)
    if not isinstance(t, dict):
        return None, error("ticket_not_found", f"Ticket {ticket_number} not found")
    return t, None


def _account(emp: dict[str, Any], target_system: str) -> dict[str, Any] | None:
    accounts = emp.get("account_status") or {}
    acct = accounts.get(target_system, accounts.get(SYSTEM_KEYS.get(target_system, target_system)))
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
        return error("guide_not_found", f"No troubleshooting guide for {cat}")
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
    if acct is None or not acct.get("locked"):
        return error("account_not_locked", f"Account on {system} is not locked.")
    reason = acct.get("lock_reason")
    if reason in ("security_investigation", "admin_hold", "security_hold"):
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
        return error("account_not_found", f"No {system} account on file for {emp['employee_id']}")
    if acct.get("requires_in_person_reset"):
        return error(
            "in_person_required",
            f"Password reset on {system} requires in-person verification with IT security.",
        )
    if acct.get("locked") and acct.get("lock_reason") in (
        "security_investigation",
        "admin_hold",
        "security_hold",
    ):
        return error(
            "cannot_reset_security_hold",
            f"Account on {system} is under a security hold and cannot be reset from the service desk.",
            lock_reason=acct.get("lock_reason"),
        )
    phone = str(emp.get("phone_last_four"))
    return success(
        employee_id=emp["employee_id"],
        target_system=system,
        resolved=True,
        message=f"Temporary password for {system} sent to ***{phone}",
    )


@TOOLS.tool
def create_incident_ticket(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Open an incident; login and network tickets need troubleshooting done first."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    cat = params["category"]
    if cat in ("login_issue", "network_connectivity") and not params["troubleshooting_completed"]:
        return error(
            "troubleshooting_required",
            f"Troubleshooting must be completed before creating a {cat} ticket.",
        )
    if cat == "hardware_malfunction":
        err = check_asset_tag(params["affected_system"], "affected_system")
        if err is not None:
            return err
    record: dict[str, Any] = {
        "ticket_number": None,
        "employee_id": emp["employee_id"],
        "category": cat,
        "urgency": params["urgency"],
        "affected_system": params["affected_system"],
        "troubleshooting_completed": params["troubleshooting_completed"],
        "status": "open",
        "sla_tier": None,
        "created_date": today(db).isoformat(),
    }
    number = "INC" + new_id({k: v for k, v in record.items() if k != "sla_tier"}, "ticket_number")
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
    urgency, resp, resol = _SLA[tier]
    if t.get("urgency") != urgency:
        want = next(k for k, v in _SLA.items() if v[0] == t.get("urgency")) if t.get("urgency") else None
        return error(
            "sla_tier_mismatch",
            f"Ticket urgency is {t.get('urgency')}; {tier} is for {urgency} urgency (use {want}).",
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
    if isinstance(o, dict) and o.get("status") not in ("resolved", "closed"):
        return o
    return None


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
        affected_user_count=o.get("affected_user_count", len(o.get("affected_users") or [])),
        message=f"Active outage: {o.get('ticket_number')}",
    )


@TOOLS.tool
def add_affected_user(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Attach the caller to an outage already on file instead of a new ticket."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    number = params["ticket_number"]
    o = next(
        (
            x
            for x in db.get("active_outages", {}).values()
            if isinstance(x, dict) and x.get("ticket_number") == number
        ),
        None,
    )
    if o is None:
        return error("outage_not_found", f"No active outage with ticket {number}")
    users = o.setdefault("affected_users", [])
    if emp["employee_id"] in users:
        return error("already_affected", f"{emp['employee_id']} is already on {number}")
    users.append(emp["employee_id"])
    o["affected_user_count"] = int(o.get("affected_user_count", len(users) - 1)) + 1
    return success(
        ticket_number=number,
        employee_id=emp["employee_id"],
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
    ke = next(
        (
            k
            for k in db.get("known_errors", {}).values()
            if isinstance(k, dict) and k.get("service_name") == service
        ),
        None,
    )
    if ke is None:
        return success(linked=False, ticket_number=t["ticket_number"], message="No known error found.")
    t["linked_known_error_id"] = ke.get("known_error_id")
    return success(
        linked=True,
        ticket_number=t["ticket_number"],
        known_error_id=ke.get("known_error_id"),
        workaround=ke.get("workaround"),
        message=f"Linked {ke.get('known_error_id')}",
    )


def _day_slots(db: dict[str, Any], building: str, day: str) -> dict[str, Any] | None:
    fda = db.get("field_dispatch_availability", {})
    slots = fda.get(day)
    if not isinstance(slots, dict):
        slots = (fda.get(building) or {}).get(day)
    return slots if isinstance(slots, dict) else None


@TOOLS.tool
def schedule_field_dispatch(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Book a technician visit in an available window for a hardware ticket."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    err = check_date(params["preferred_date"], "preferred_date") or require_auth(db)
    if err is not None:
        return err
    t, err = _ticket(db, params["ticket_number"])
    if t is None:
        return err or {}
    building, err = resolve_building(db, params["building_code"])
    if building is None:
        return err or {}
    day, window = params["preferred_date"], params["time_window"]
    slots = _day_slots(db, building, day) or {}
    wanted = [slots.get(w) for w in _WINDOWS[window]]
    if not all(isinstance(s, dict) and s.get("available") for s in wanted):
        free = [w for w, s in slots.items() if isinstance(s, dict) and s.get("available")]
        return error(
            "no_availability",
            f"No technician available on {day} ({window}).",
            available_windows=free,
        )
    for s in wanted:
        if isinstance(s, dict):
            s["available"] = False
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
    err = check_format(code, _DIAG_RE, "diagnostic_ref_code", "DIAG-4KM29X7B") or require_auth(db)
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
