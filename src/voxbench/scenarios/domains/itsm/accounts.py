"""Account and access tools: employee records, provisioning, groups and permissions."""

from __future__ import annotations

import re
from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    add_days,
    check_date,
    check_employee_id,
    check_format,
    display_name,
    employee,
    get_employee,
    new_id,
    parse_date,
    require_auth,
    require_manager,
    require_otp,
    today,
    verified_employee,
)

_GROUP_RE = re.compile(r"^GRP-[A-Z0-9]+$")
_REVIEW_DAYS, _REVIEW_TOLERANCE = 90, 3


def _active_accounts(emp: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        a for a in emp.get("system_accounts") or [] if isinstance(a, dict) and a.get("status") == "active"
    ]


def reports_to(db: dict[str, Any], manager_id: str, emp: dict[str, Any]) -> bool:
    mgr = employee(db, manager_id) or {}
    return emp.get("manager_employee_id") == manager_id or emp.get("employee_id") in (
        mgr.get("direct_reports") or []
    )


@TOOLS.tool
def get_employee_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Basic profile: name, department, role, status, location and manager."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    fields = ("employee_id", "department_code", "role_code", "hire_date", "employment_status")
    view = {f: emp.get(f) for f in fields}
    view["first_name"] = display_name(emp.get("first_name"))
    view["last_name"] = display_name(emp.get("last_name"))
    view.update(
        building_code=emp.get("building_code"),
        floor_code=emp.get("floor_code"),
        manager_employee_id=emp.get("manager_employee_id"),
    )
    return success(employee=view)


@TOOLS.tool
def lookup_new_hire(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Confirm the new hire exists in HR before provisioning."""
    eid = params["new_hire_employee_id"]
    err = check_employee_id(eid, "new_hire_employee_id") or require_auth(db)
    if err is not None:
        return err
    emp = employee(db, eid)
    if emp is None:
        return error("new_hire_not_found", f"No HR record for new hire {eid}")
    view = {f: emp.get(f) for f in ("employee_id", "first_name", "last_name", "department_code", "role_code")}
    view["start_date"] = emp.get("start_date", emp.get("hire_date"))
    return success(employee=view)


@TOOLS.tool
def check_existing_accounts(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Refuse to provision twice: report any active system accounts."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    active = _active_accounts(emp)
    if active:
        return error("accounts_already_exist", f"{len(active)} active account(s)")
    return success(employee_id=emp["employee_id"], existing_accounts=[], message="Ready to provision")


def _email(emp: dict[str, Any]) -> str:
    def part(s: Any) -> str:
        return re.sub(r"[^a-z0-9]+", "", str(s or "").lower())

    return f"{part(emp.get('first_name'))}.{part(emp.get('last_name'))}@company.com"


@TOOLS.tool
def provision_new_account(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Create a new hire's accounts with initial groups (manager + OTP only)."""
    mgr_id, hire_id = params["manager_employee_id"], params["new_hire_employee_id"]
    err = (
        check_employee_id(mgr_id, "manager_employee_id")
        or check_employee_id(hire_id, "new_hire_employee_id")
        or check_date(params["start_date"], "start_date")
        or require_manager(db, mgr_id)
    )
    if err is not None:
        return err
    hire = employee(db, hire_id)
    if hire is None:
        return error("new_hire_not_found", f"No HR record for new hire {hire_id}")
    if not reports_to(db, mgr_id, hire):
        return error("not_direct_report", f"{hire_id} does not report to {mgr_id}")
    for f in ("department_code", "role_code"):
        if hire.get(f) and str(params[f]).upper() != str(hire.get(f)).upper():
            return error(f"{f}_mismatch", f"HR record has {f} {hire.get(f)}, not {params[f]}")
    if _active_accounts(hire):
        return error("accounts_already_exist", f"{len(_active_accounts(hire))} active account(s)")
    groups = list(params["access_groups"])
    unknown = [g for g in groups if g not in db.get("access_groups", {})]
    if unknown:
        return error("group_not_found", f"Unknown access group(s): {', '.join(unknown)}")
    account: dict[str, Any] = {
        "case_id": None,
        "status": "active",
        "provisioned_date": today(db).isoformat(),
        "access_groups": groups,
    }
    case_id = "CASE-ACCT-" + new_id(account, "case_id")
    account["case_id"] = case_id
    hire["system_accounts"] = [*(hire.get("system_accounts") or []), account]
    hire["employment_status"] = "active"
    email = _email(hire)
    hire["email"] = email
    return success(
        case_id=case_id,
        new_hire_employee_id=hire_id,
        email=email,
        access_groups=groups,
        message=f"Provisioned. Case: {case_id}. Email: {email}",
    )


@TOOLS.tool
def get_group_memberships(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The employee's current access groups."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    return success(
        employee_id=emp["employee_id"], memberships=[dict(m) for m in emp.get("group_memberships") or []]
    )


def _group(db: dict[str, Any], code: str) -> tuple[dict[str, Any] | None, Result | None]:
    err = check_format(code, _GROUP_RE, "group_code", "GRP-ENGCORE")
    if err is not None:
        return None, err
    g = db.get("access_groups", {}).get(code)
    if not isinstance(g, dict):
        return None, error("group_not_found", f"Access group {code} not found")
    return g, None


@TOOLS.tool
def get_group_details(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Approval and eligibility rules of one access group."""
    err = require_auth(db)
    if err is not None:
        return err
    g, err = _group(db, params["group_code"])
    if g is None:
        return err or {}
    fields = (
        "group_code",
        "name",
        "description",
        "requires_approval",
        "member_count",
        "eligible_departments",
        "eligible_roles",
    )
    return success(group={f: g.get(f) for f in fields})


@TOOLS.tool
def submit_group_membership_change(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Add (maybe pending approval) or remove (immediate) a group membership."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    err = require_otp(db)
    if err is not None:
        return err
    code, action = params["group_code"], params["action"]
    g, err = _group(db, code)
    if g is None:
        return err or {}
    members = emp.setdefault("group_memberships", [])
    current = next((m for m in members if m.get("group_code") == code and m.get("status") != "removed"), None)
    now = today(db).isoformat()
    if action == "remove":
        if current is None:
            return error("not_a_member", f"{emp['employee_id']} is not a member of {code}")
        case_id = "CASE-ACCT-" + new_id(
            {
                "case_id": None,
                "employee_id": emp["employee_id"],
                "group_code": code,
                "action": "remove",
                "date": now,
            },
            "case_id",
        )
        members.remove(current)
        return success(
            case_id=case_id,
            action=action,
            group_code=code,
            requires_approval=False,
            message=f"Removed from {code}. Case: {case_id}",
        )
    if current is not None:
        return error("already_member", f"{emp['employee_id']} is already in {code} ({current.get('status')})")
    depts, roles = g.get("eligible_departments") or [], g.get("eligible_roles") or []
    if (depts and emp.get("department_code") not in depts) or (roles and emp.get("role_code") not in roles):
        return error(
            "group_not_eligible",
            f"{code} is restricted to departments {depts or 'any'} and roles {roles or 'any'}; "
            f"{emp['employee_id']} is {emp.get('department_code')}/{emp.get('role_code')}.",
        )
    if not g.get("requires_approval"):
        entry: dict[str, Any] = {
            "group_code": code,
            "group_name": g.get("name"),
            "status": "active",
            "case_id": None,
            "added_date": now,
        }
        case_id = "CASE-ACCT-" + new_id(entry, "case_id")
        entry["case_id"] = case_id
        members.append(entry)
        return success(
            case_id=case_id,
            action=action,
            group_code=code,
            requires_approval=False,
            message=f"Added to {code}. Case: {case_id}",
        )
    entry = {
        "group_code": code,
        "group_name": g.get("name"),
        "status": "pending_approval",
        "case_id": None,
        "request_id": None,
        "requested_date": now,
    }
    request: dict[str, Any] = {
        "request_id": None,
        "case_id": None,
        "employee_id": emp["employee_id"],
        "group_code": code,
        "action": action,
        "status": "pending_approval",
        "requires_manager_approval": True,
        "created_date": now,
    }
    case_id = "CASE-ACCT-" + new_id(entry, "case_id", "request_id")
    request_id = "REQ-ACCT-" + new_id(request, "request_id", "case_id")
    entry.update(case_id=case_id, request_id=request_id)
    request.update(request_id=request_id, case_id=case_id)
    members.append(entry)
    db.setdefault("requests", {})[request_id] = request
    return success(
        case_id=case_id,
        request_id=request_id,
        action=action,
        group_code=code,
        requires_approval=True,
        message=f"Pending approval. Case: {case_id}. Request: {request_id}",
    )


def _hr_approval(emp: dict[str, Any], new_role: str) -> dict[str, Any] | None:
    a = emp.get("pending_role_approval")
    if (
        isinstance(a, dict)
        and a.get("approved_by_hr")
        and str(a.get("new_role_code")).upper() == new_role.upper()
    ):
        return a
    return None


def _not_authorized(emp: dict[str, Any], new_role: str) -> Result:
    return error(
        "not_authorized",
        f"HR has not approved a role change to {new_role} for {emp['employee_id']}. Direct the caller to HR.",
    )


@TOOLS.tool
def check_role_change_authorized(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """HR pre-approval (case and effective date) before any permission change."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    appr = _hr_approval(emp, params["new_role_code"])
    if appr is None:
        return _not_authorized(emp, params["new_role_code"])
    return success(
        employee_id=emp["employee_id"],
        new_role_code=appr.get("new_role_code"),
        hr_case_id=appr.get("hr_case_id"),
        effective_date=appr.get("effective_date"),
        message="Role change authorized by HR",
    )


@TOOLS.tool
def get_permission_templates(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Templates available for a role, for the caller to choose from."""
    err = require_auth(db)
    if err is not None:
        return err
    role = params["role_code"]
    templates = {
        k: dict(t)
        for k, t in db.get("permission_templates", {}).items()
        if isinstance(t, dict) and str(t.get("role_code")).upper() == role.upper()
    }
    if not templates:
        return error("templates_not_found", f"No permission templates for role {role}")
    return success(role_code=role, templates=templates)


@TOOLS.tool
def submit_permission_change(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Apply an HR-approved role change on the HR effective date (OTP required)."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    eff = params["effective_date"]
    err = check_date(eff, "effective_date") or require_otp(db)
    if err is not None:
        return err
    new_role = params["new_role_code"]
    appr = _hr_approval(emp, new_role)
    if appr is None:
        return _not_authorized(emp, new_role)
    tpl = db.get("permission_templates", {}).get(params["permission_template_id"])
    if not isinstance(tpl, dict):
        return error(
            "template_not_found", f"Permission template {params['permission_template_id']} not found"
        )
    if str(tpl.get("role_code")).upper() != new_role.upper():
        return error(
            "template_role_mismatch", f"Template {tpl.get('template_id')} is for role {tpl.get('role_code')}"
        )
    eff_date = parse_date(eff)
    if eff_date is not None and eff_date < today(db):
        return error("invalid_effective_date", f"Effective date {eff} is in the past")
    if appr.get("effective_date") and eff != appr.get("effective_date"):
        return error(
            "effective_date_mismatch",
            f"Effective date must match the HR-approved date {appr.get('effective_date')}",
            hr_effective_date=appr.get("effective_date"),
        )
    change: dict[str, Any] = {
        "case_id": None,
        "new_role_code": new_role,
        "permission_template_id": params["permission_template_id"],
        "effective_date": eff,
        "status": "pending",
    }
    case_id = "CASE-ACCT-" + new_id(change, "case_id")
    change["case_id"] = case_id
    emp["pending_role_change"] = change
    return success(
        case_id=case_id,
        employee_id=emp["employee_id"],
        effective_date=eff,
        message=f"Permission change submitted. Case: {case_id}",
    )


@TOOLS.tool
def schedule_access_review(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The compliance review 90 (+/-3) days after a permission change takes effect."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    review = params["review_date"]
    err = check_date(review, "review_date") or require_auth(db)
    if err is not None:
        return err
    change = emp.get("pending_role_change")
    if not isinstance(change, dict) or change.get("case_id") != params["case_id"]:
        return error(
            "case_not_found", f"No permission change case {params['case_id']} for {emp['employee_id']}"
        )
    eff, rd = parse_date(change.get("effective_date")), parse_date(review)
    if eff is not None and rd is not None and abs((rd - eff).days - _REVIEW_DAYS) > _REVIEW_TOLERANCE:
        return error(
            "invalid_review_date",
            f"Review date must be {_REVIEW_DAYS} days after the effective date "
            f"({add_days(eff, _REVIEW_DAYS)}, +/-{_REVIEW_TOLERANCE} days).",
        )
    review_id = "ARVW-" + params["case_id"][-6:]
    change["access_review_id"] = review_id
    change["review_date"] = review
    return success(
        review_id=review_id, review_date=review, message=f"90-day review on {review}. ID: {review_id}"
    )
