"""Software tools: catalog lookups, access and license requests, approvals, renewals."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    add_days,
    add_years,
    check_employee_id,
    check_format,
    employee,
    employee_not_found,
    full_name,
    get_employee,
    new_id,
    parse_date,
    require_auth,
    require_otp,
    resolve_code,
    today,
    verified_employee,
)

_LASGN_RE = re.compile(r"^LASGN-\d{6}$")
_APP_FIELDS = (
    "catalog_id",
    "name",
    "vendor",
    "requires_manager_approval",
    "available_access_levels",
    "department_restrictions",
)
_LIC_FIELDS = ("catalog_id", "name", "vendor", "license_cost_usd", "license_types_supported")
_APPROVAL_HOURS = 48


def _catalog(db: dict[str, Any], prefix: str) -> dict[str, Any]:
    """Catalog entries of one kind; the catalog is flat or split into applications/licenses."""
    cat = db.get("software_catalog", {})
    section = cat.get("applications" if prefix == "APP-" else "licenses")
    out = {k: v for k, v in cat.items() if k.startswith(prefix) and isinstance(v, dict)}
    if isinstance(section, dict):
        out.update({k: v for k, v in section.items() if isinstance(v, dict)})
    return out


def _deadline(start: date) -> str:
    return f"{add_days(start, _APPROVAL_HOURS // 24)} 00:00"


def _deadline_date(deadline: Any) -> date | None:
    return parse_date(str(deadline).split(" ")[0]) if deadline else None


@TOOLS.tool
def get_application_details(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Resolve a spoken application name (exact, case-insensitive, or alias) to its entry."""
    err = require_auth(db)
    if err is not None:
        return err
    apps = _catalog(db, "APP-")
    cid = resolve_code(apps, params["application_name"])
    if cid is None:
        return error(
            "application_not_found",
            f"No application matches '{params['application_name']}'. Ask the caller for the exact product name.",
        )
    app = apps[cid]
    return success(catalog_id=cid, application={f: app.get(f) for f in _APP_FIELDS})


@TOOLS.tool
def submit_access_request(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Request application access; approval-gated apps start pending."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    err = require_otp(db)
    if err is not None:
        return err
    app = _catalog(db, "APP-").get(params["catalog_id"])
    if app is None:
        return error("application_not_found", f"Catalog item {params['catalog_id']} not found")
    level = params["access_level"]
    levels = app.get("available_access_levels") or []
    if levels and level not in levels:
        return error(
            "invalid_access_level",
            f"{app.get('name')} offers {', '.join(levels)} access, not {level}.",
            available_access_levels=levels,
        )
    restricted = app.get("department_restrictions") or []
    if restricted and emp.get("department_code") not in restricted:
        return error(
            "department_restricted",
            f"{app.get('name')} is restricted to departments {', '.join(restricted)}.",
        )
    needs = bool(app.get("requires_manager_approval"))
    record: dict[str, Any] = {
        "request_id": None,
        "employee_id": emp["employee_id"],
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
    """Send a pending request to the approver and start the 48-hour SLA clock."""
    err = check_employee_id(params["employee_id"]) or check_employee_id(
        params["approver_employee_id"], "approver_employee_id"
    )
    if err is None:
        err = require_auth(db)
    if err is not None:
        return err
    req = db.get("requests", {}).get(params["request_id"])
    if not isinstance(req, dict):
        return error("request_not_found", f"Request {params['request_id']} not found")
    if req.get("employee_id") != params["employee_id"]:
        return error(
            "request_not_found", f"Request {params['request_id']} does not belong to {params['employee_id']}"
        )
    if req.get("status") != "pending_approval":
        return error("approval_not_required", f"Request {req['request_id']} is not pending approval")
    if req.get("approval_routed_to"):
        return error(
            "already_routed", f"Request {req['request_id']} is already routed to {req['approval_routed_to']}"
        )
    approver = employee(db, params["approver_employee_id"])
    if approver is None:
        return employee_not_found(params["approver_employee_id"])
    deadline = _deadline(today(db))
    req["approval_routed_to"] = approver["employee_id"]
    req["approval_sla_deadline"] = deadline
    name = full_name(approver)
    return success(
        request_id=req["request_id"],
        approver_name=name,
        approval_deadline=deadline,
        message=f"Routed to {name}. 48h window.",
    )


@TOOLS.tool
def get_license_catalog_item(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Resolve a spoken license name to its catalog entry."""
    err = require_auth(db)
    if err is not None:
        return err
    lics = _catalog(db, "LIC-")
    cid = resolve_code(lics, params["license_name"])
    if cid is None:
        return error(
            "license_not_found",
            f"No license matches '{params['license_name']}'. Ask the caller for the exact product name.",
        )
    lic = lics[cid]
    return success(catalog_id=cid, license={f: lic.get(f) for f in _LIC_FIELDS})


def _cost_center(db: dict[str, Any], emp: dict[str, Any]) -> dict[str, Any] | None:
    cc = db.get("cost_centers", {}).get(emp.get("cost_center_code"))
    return cc if isinstance(cc, dict) else None


@TOOLS.tool
def submit_license_request(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """A permanent license, or a temporary one of exactly 30, 60 or 90 days."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    lic = _catalog(db, "LIC-").get(params["catalog_id"])
    if lic is None:
        return error("license_not_found", f"Catalog item {params['catalog_id']} not found")
    duration = params.get("duration_days")
    if duration in (0, "0"):
        duration = None
    kind = "permanent" if duration is None else "temporary"
    supported = lic.get("license_types_supported") or ["permanent", "temporary"]
    if kind not in supported:
        return error("license_type_not_supported", f"{lic.get('name')} has no {kind} license option.")
    record: dict[str, Any] = {
        "request_id": None,
        "employee_id": emp["employee_id"],
        "catalog_id": params["catalog_id"],
        "status": "submitted",
        "created_date": today(db).isoformat(),
    }
    if duration is None:
        if _cost_center(db, emp) is None:
            return error("invalid_cost_center", f"No active cost center on file for {emp['employee_id']}")
        record["request_type"] = "license_request"
    else:
        days = int(duration)
        record["request_type"] = "temporary_license"
        record["duration_days"] = days
        record["expiration_date"] = add_days(today(db), days)
    rid = "REQ-SW-" + new_id(record, "request_id")
    record["request_id"] = rid
    db.setdefault("requests", {})[rid] = record
    if duration is None:
        return success(
            request_id=rid,
            catalog_id=params["catalog_id"],
            license_type="permanent",
            message=f"License request: {rid}",
        )
    return success(
        request_id=rid,
        catalog_id=params["catalog_id"],
        license_type="temporary",
        duration_days=record["duration_days"],
        expiration_date=record["expiration_date"],
        message=f"Temp license: {rid}. Expires {record['expiration_date']}.",
    )


@TOOLS.tool
def validate_cost_center(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Check the caller's department charge code before a permanent license."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    cc = _cost_center(db, emp)
    if cc is None or cc.get("active") is False or cc.get("status") not in (None, "active"):
        return error("invalid_cost_center", f"Cost center {emp.get('cost_center_code')} is not active")
    code = cc.get("cost_center_code", emp.get("cost_center_code"))
    return success(
        cost_center_code=code,
        department_code=cc.get("department_code", emp.get("department_code")),
        validated=True,
        message=f"Cost center {code} validated",
    )


@TOOLS.tool
def get_employee_licenses(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The caller's license assignments (to find the one to renew)."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    return success(
        employee_id=emp["employee_id"], licenses=[dict(x) for x in emp.get("software_licenses") or []]
    )


@TOOLS.tool
def submit_license_renewal(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Renew for a year if within 30 days before or 14 days after expiry."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    aid = params["license_assignment_id"]
    err = check_format(aid, _LASGN_RE, "license_assignment_id", "LASGN-048271") or require_auth(db)
    if err is not None:
        return err
    lic = next((x for x in emp.get("software_licenses") or [] if x.get("license_assignment_id") == aid), None)
    if lic is None:
        return error("license_not_found", f"License assignment {aid} not found for {emp['employee_id']}")
    expires = parse_date(lic.get("expiration_date"))
    if expires is None:
        return error("not_in_renewal_window", f"License {aid} has no expiration date to renew.")
    days_left = (expires - today(db)).days
    if days_left > 30 or days_left < -14:
        return error(
            "not_in_renewal_window",
            f"License expires {expires.isoformat()}; renewal is allowed from 30 days before to 14 days after "
            "expiration. Submit a new license request instead.",
            expiration_date=expires.isoformat(),
        )
    new_exp = add_years(expires, 1).isoformat()
    record: dict[str, Any] = {
        "request_id": None,
        "employee_id": emp["employee_id"],
        "license_assignment_id": aid,
        "request_type": "license_renewal",
        "new_expiration_date": new_exp,
        "status": "submitted",
        "created_date": today(db).isoformat(),
    }
    rid = "REQ-SW-" + new_id(record, "request_id")
    record["request_id"] = rid
    db.setdefault("requests", {})[rid] = record
    lic["expiration_date"] = new_exp
    lic["status"] = "active"
    return success(
        request_id=rid, new_expiration_date=new_exp, message=f"Renewed. Expires {new_exp}. ID: {rid}"
    )


def _breached(db: dict[str, Any], req: dict[str, Any]) -> bool:
    deadline = _deadline_date(req.get("escalation_sla_deadline") or req.get("approval_sla_deadline"))
    return deadline is not None and today(db) >= deadline


@TOOLS.tool
def get_request_status(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Status, approver, SLA deadline and breach flag of a prior request."""
    err = require_auth(db)
    if err is not None:
        return err
    req = db.get("requests", {}).get(params["request_id"])
    if not isinstance(req, dict):
        return error("request_not_found", f"Request {params['request_id']} not found")
    return success(
        request_id=req.get("request_id", params["request_id"]),
        request_status=req.get("status"),
        employee_id=req.get("employee_id"),
        approval_routed_to=req.get("approval_routed_to"),
        approval_sla_deadline=req.get("approval_sla_deadline"),
        escalated_to=req.get("escalated_to"),
        sla_breached=_breached(db, req) if req.get("status") == "pending_approval" else False,
        request=dict(req),
    )


@TOOLS.tool
def escalate_approval(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Move a breached approval to a skip-level approver with a new 48-hour window."""
    err = check_employee_id(params["escalate_to_employee_id"], "escalate_to_employee_id") or require_auth(db)
    if err is not None:
        return err
    req = db.get("requests", {}).get(params["request_id"])
    if not isinstance(req, dict):
        return error("request_not_found", f"Request {params['request_id']} not found")
    if req.get("status") != "pending_approval":
        return error("not_pending_approval", f"Request {req.get('request_id')} is not pending approval")
    if not _breached(db, req):
        return error(
            "sla_not_breached",
            f"The approval SLA has not been breached yet (deadline {req.get('approval_sla_deadline')}).",
            approval_sla_deadline=req.get("approval_sla_deadline"),
        )
    target = employee(db, params["escalate_to_employee_id"])
    if target is None:
        return employee_not_found(params["escalate_to_employee_id"])
    deadline = _deadline(today(db))
    req["escalated_to"] = target["employee_id"]
    req["escalation_date"] = today(db).isoformat()
    req["escalation_sla_deadline"] = deadline
    name = full_name(target)
    return success(
        request_id=req.get("request_id"),
        escalated_to=target["employee_id"],
        escalated_to_name=name,
        new_approval_deadline=deadline,
        message=f"Escalated to {name}. New 48h window ends {deadline}.",
    )
