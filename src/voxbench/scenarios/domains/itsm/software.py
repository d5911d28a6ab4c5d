"""Software tools: catalog lookups, access requests, approvals and escalation (EVA's rules).

License requests and renewals are in `licenses.py`.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    add_days,
    employee,
    employee_not_found,
    fold,
    full_name,
    new_id,
    not_found,
    parse_date,
    require_auth,
    require_otp,
    today,
)

_APPROVAL_HOURS = 48


def catalog(db: dict[str, Any], prefix: str) -> dict[str, Any]:
    """Catalog entries of one kind; the catalog is flat or split into applications/licenses."""
    cat = db.get("software_catalog", {})
    section = cat.get("applications" if prefix == "APP-" else "licenses")
    out = {k: v for k, v in cat.items() if k.startswith(prefix) and isinstance(v, dict)}
    if isinstance(section, dict):
        out.update({k: v for k, v in section.items() if isinstance(v, dict)})
    return out


def _by_name(entries: dict[str, Any], spoken: str) -> str | None:
    """EVA: `name` and `name_aliases` only (not the catalog id), compared after `fold`."""
    key = fold(spoken)
    for cid, e in entries.items():
        names = [e.get("name"), *(e.get("name_aliases") or [])]
        if any(isinstance(n, str) and fold(n) == key for n in names):
            return cid
    return None


def _deadline(start: date) -> str:
    return f"{add_days(start, _APPROVAL_HOURS // 24)} 00:00"


def _deadline_date(deadline: Any) -> date | None:
    return parse_date(str(deadline).split(" ")[0]) if deadline else None


def _lookup(db: dict[str, Any], params: dict[str, Any], prefix: str, field: str, kind: str) -> Result:
    err = require_auth(db)
    if err is not None:
        return err
    entries = catalog(db, prefix)
    cid = _by_name(entries, params[field])
    if cid is None:
        return not_found(f"No {kind} matching '{params[field]}'. Please confirm the exact product name.")
    return success(
        catalog_id=cid,
        **{"application" if prefix == "APP-" else "license": {**entries[cid], "catalog_id": cid}},
    )


@TOOLS.tool
def get_application_details(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Resolve a spoken application name (or alias) to its whole catalog entry."""
    return _lookup(db, params, "APP-", "application_name", "application")


@TOOLS.tool
def get_license_catalog_item(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Resolve a spoken license name (or alias) to its whole catalog entry."""
    return _lookup(db, params, "LIC-", "license_name", "license")


@TOOLS.tool
def submit_access_request(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Request application access; approval-gated apps start pending (EVA: no
    employee or department-restriction check)."""
    err = require_otp(db)
    if err is not None:
        return err
    app = catalog(db, "APP-").get(params["catalog_id"])
    if app is None:
        return not_found(f"App {params['catalog_id']} not found")
    level = params["access_level"]
    levels = app.get("available_access_levels") or []
    if level not in levels:
        return error("invalid_access_level", f"'{level}' not available. Options: {levels}")
    needs = bool(app.get("requires_manager_approval"))
    record: dict[str, Any] = {
        "request_id": None,
        "employee_id": params["employee_id"],
        "catalog_id": params["catalog_id"],
        "application_name": app.get("name"),
        "access_level": level,
        "status": "pending_approval" if needs else "approved",
        "requires_manager_approval": needs,
        "created_date": today(db).isoformat(),
    }
    rid = "REQ-SW-" + new_id(record, "request_id")
    record["request_id"] = rid
    db.setdefault("requests", {})[rid] = record
    return success(
        request_id=rid,
        application_name=app.get("name"),
        access_level=level,
        requires_approval=needs,
        message=f"{rid} ({'pending approval' if needs else 'auto-approved'})",
    )


@TOOLS.tool
def route_approval_workflow(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Send a request to the approver and start the 48-hour SLA clock (EVA: the request
    and the approver must exist; nothing else is checked)."""
    err = require_auth(db)
    if err is not None:
        return err
    req = db.get("requests", {}).get(params["request_id"])
    if not isinstance(req, dict):
        return not_found(f"Request {params['request_id']} not found")
    approver = employee(db, params["approver_employee_id"])
    if approver is None:
        return employee_not_found(params["approver_employee_id"])
    deadline = _deadline(today(db))
    req["approval_routed_to"] = approver["employee_id"]
    req["approval_sla_deadline"] = deadline
    name = full_name(approver)
    return success(
        request_id=req.get("request_id", params["request_id"]),
        approver_name=name,
        approval_deadline=deadline,
        message=f"Routed to {name}. 48h window.",
    )


def _breached(db: dict[str, Any], req: dict[str, Any]) -> bool:
    """EVA: today strictly after the approval deadline's date, whatever the status."""
    deadline = _deadline_date(req.get("approval_sla_deadline"))
    return deadline is not None and today(db) > deadline


@TOOLS.tool
def get_request_status(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Status, approver, SLA deadline and breach flag of a prior request."""
    err = require_auth(db)
    if err is not None:
        return err
    rid = params["request_id"]
    req = db.get("requests", {}).get(rid)
    if not isinstance(req, dict):
        return not_found(f"Request {rid} not found")
    breached = _breached(db, req)
    status = req.get("status")
    return success(
        request_id=rid,
        request_status=status,
        approval_routed_to=req.get("approval_routed_to"),
        approval_sla_deadline=req.get("approval_sla_deadline"),
        sla_breached=breached,
        created_date=req.get("created_date"),
        message=f"Request {rid} is {status}" + (" (SLA breached)" if breached else ""),
    )


@TOOLS.tool
def escalate_approval(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Move a breached approval to a skip-level approver with a new 48-hour window."""
    err = require_auth(db)
    if err is not None:
        return err
    req = db.get("requests", {}).get(params["request_id"])
    if not isinstance(req, dict):
        return not_found(f"Request {params['request_id']} not found")
    if not req.get("approval_sla_deadline"):
        return error("no_pending_approval", "Request has no pending approval routing to escalate")
    if not _breached(db, req):
        return error("sla_not_breached", "Original approval SLA has not yet been breached")
    target = employee(db, params["escalate_to_employee_id"])
    if target is None:
        return employee_not_found(params["escalate_to_employee_id"])
    deadline = _deadline(today(db))
    req["escalated_to"] = target["employee_id"]
    req["escalation_sla_deadline"] = deadline
    req["status"] = "escalated"
    name = full_name(target)
    return success(
        request_id=req.get("request_id", params["request_id"]),
        escalated_to=target["employee_id"],
        approver_name=name,
        escalation_deadline=deadline,
        message=f"Escalated to {name}. 48h window.",
    )
