"""Account tools: employee records, new-hire provisioning and group memberships (EVA's rules).

Role and permission changes are in `permissions.py`.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    get_employee,
    new_id,
    not_found,
    require_manager,
    require_manager_otp,
    require_otp_only,
    today,
    verified_employee,
)

_RECORD_FIELDS = (
    "employee_id",
    "first_name",
    "last_name",
    "department_code",
    "role_code",
    "hire_date",
    "employment_status",
    "building_code",
    "floor_code",
    "manager_employee_id",
)


def _active_accounts(emp: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        a for a in emp.get("system_accounts") or [] if isinstance(a, dict) and a.get("status") == "active"
    ]


@TOOLS.tool
def get_employee_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Basic profile: name, department, role, status, location and manager (the fields
    present in the record, names as stored)."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    return success(employee={f: emp[f] for f in _RECORD_FIELDS if f in emp})


@TOOLS.tool
def lookup_new_hire(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Confirm the new hire exists in HR, pending start (manager auth)."""
    err = require_manager(db)
    if err is not None:
        return err
    emp, err = get_employee(db, params["new_hire_employee_id"])
    if emp is None:
        return err or {}
    status = emp.get("employment_status")
    if status != "pending_start":
        return error("not_new_hire", f"Status '{status}', not 'pending_start'")
    view = {f: emp.get(f) for f in ("employee_id", "first_name", "last_name", "department_code", "role_code")}
    view["start_date"] = emp.get("start_date")
    return success(employee=view)


@TOOLS.tool
def check_existing_accounts(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Refuse to provision twice: report any active system accounts (manager auth)."""
    err = require_manager(db)
    if err is not None:
        return err
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    active = _active_accounts(emp)
    if active:
        return error("accounts_already_exist", f"{len(active)} active account(s)")
    return success(employee_id=emp["employee_id"], existing_accounts=[], message="Ready to provision")


def _email(db: dict[str, Any], hire: dict[str, Any]) -> str:
    """EVA: `first.last@company.com` lower-cased as is; `base2`, `base3`... if taken."""
    base = f"{str(hire.get('first_name') or '').lower()}.{str(hire.get('last_name') or '').lower()}"
    taken = {
        e.get("email")
        for eid, e in db.get("employees", {}).items()
        if isinstance(e, dict) and eid != hire.get("employee_id")
    }
    email, n = f"{base}@company.com", 1
    while email in taken:
        n += 1
        email = f"{base}{n}@company.com"
    return email


def _ineligible(db: dict[str, Any], hire: dict[str, Any], groups: list[str]) -> Result | None:
    """EVA rejects a known group the hire's department or role is not eligible for."""
    for gc in groups:
        g = db.get("access_groups", {}).get(gc)
        if not isinstance(g, dict):
            continue
        depts, roles = g.get("eligible_departments") or [], g.get("eligible_roles") or []
        d, r = hire.get("department_code"), hire.get("role_code")
        if (depts and d not in depts) or (roles and r not in roles):
            return error(
                "group_not_eligible",
                f"New hire {hire.get('employee_id')} (department {d}, role {r}) is not eligible for {gc}. "
                "Use a permission template that matches the role.",
                group_code=gc,
            )
    return None


@TOOLS.tool
def provision_new_account(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Create a new hire's account with initial groups (manager + OTP)."""
    err = require_manager_otp(db)
    if err is not None:
        return err
    mgr_id, hire_id = params["manager_employee_id"], params["new_hire_employee_id"]
    mgr, err = get_employee(db, mgr_id)
    if mgr is None:
        return err or {}
    if hire_id not in (mgr.get("direct_reports") or []):
        return error("not_authorized", "Not in direct reports")
    hire, err = get_employee(db, hire_id)
    if hire is None:
        return err or {}
    groups = list(params["access_groups"])
    err = _ineligible(db, hire, groups)
    if err is not None:
        return err
    account: dict[str, Any] = {
        "case_id": None,
        "status": "active",
        "provisioned_date": today(db).isoformat(),
        "access_groups": groups,
    }
    case_id = "CASE-ACCT-" + new_id(account, "case_id")
    account["case_id"] = case_id
    hire["system_accounts"] = [account]
    hire["employment_status"] = "active"
    email = _email(db, hire)
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
    """The employee's current access groups (OTP auth)."""
    err = require_otp_only(db)
    if err is not None:
        return err
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    return success(
        employee_id=emp["employee_id"], memberships=[dict(m) for m in emp.get("group_memberships") or []]
    )


def _group(db: dict[str, Any], code: str) -> tuple[dict[str, Any] | None, Result | None]:
    g = db.get("access_groups", {}).get(code)
    if not isinstance(g, dict):
        return None, not_found(f"Group {code} not found")
    return g, None


@TOOLS.tool
def get_group_details(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The whole access-group record: approval and eligibility rules (OTP auth)."""
    err = require_otp_only(db)
    if err is not None:
        return err
    g, err = _group(db, params["group_code"])
    if g is None:
        return err or {}
    return success(group=dict(g))


def _remove(db: dict[str, Any], emp: dict[str, Any], code: str) -> Result:
    members = emp.setdefault("group_memberships", [])
    if not any(m.get("group_code") == code for m in members):
        return error("not_member", f"Not in {code}")
    emp["group_memberships"] = [m for m in members if m.get("group_code") != code]
    case_id = "CASE-ACCT-" + new_id(
        {
            "employee_id": emp["employee_id"],
            "group_code": code,
            "action": "remove",
            "created_date": today(db).isoformat(),
        }
    )
    return success(case_id=case_id, action="remove", group_code=code, message=f"Removed. Case: {case_id}")


@TOOLS.tool
def submit_group_membership_change(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Add (maybe pending approval) or remove (immediate) a group membership (OTP auth)."""
    err = require_otp_only(db)
    if err is not None:
        return err
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    code, action = params["group_code"], params["action"]
    g, err = _group(db, code)
    if g is None:
        return err or {}
    if action == "remove":
        return _remove(db, emp, code)
    members = emp.setdefault("group_memberships", [])
    if any(m.get("group_code") == code for m in members):
        return error("already_member", f"Already in {code}")
    depts, roles = g.get("eligible_departments") or [], g.get("eligible_roles") or []
    d, r = emp.get("department_code"), emp.get("role_code")
    if (depts and d not in depts) or (roles and r not in roles):
        return error(
            "group_not_eligible",
            f"Employee {emp['employee_id']} (department {d}, role {r}) is not eligible for {code}. "
            f"Eligible departments: {', '.join(depts) if depts else 'any'}; "
            f"eligible roles: {', '.join(roles) if roles else 'any'}.",
        )
    now = today(db).isoformat()
    if not g.get("requires_approval"):
        members.append(
            {"group_code": code, "group_name": g.get("name"), "status": "active", "added_date": now}
        )
        case_id = "CASE-ACCT-" + new_id(
            {
                "employee_id": emp["employee_id"],
                "group_code": code,
                "action": "add",
                "auto_approved": True,
                "created_date": now,
            }
        )
        return success(
            case_id=case_id,
            action=action,
            group_code=code,
            requires_approval=False,
            message=f"Added. Case: {case_id}",
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
