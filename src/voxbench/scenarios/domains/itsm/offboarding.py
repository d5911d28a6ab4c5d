"""Off-boarding tools: HR's record, permanent access removal and hardware recovery."""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    add_days,
    check_date,
    check_employee_id,
    employee,
    new_id,
    parse_date,
    require_manager,
    today,
    verified_employee,
)
from voxbench.scenarios.domains.itsm.accounts import reports_to


def _offboarding(emp: dict[str, Any]) -> dict[str, Any] | None:
    rec = emp.get("offboarding_record")
    return rec if isinstance(rec, dict) and rec.get("status") else None


@TOOLS.tool
def get_offboarding_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """HR's off-boarding record; without one, access removal cannot start."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    rec = _offboarding(emp)
    if rec is None:
        return error(
            "no_offboarding_record", f"HR has not filed an off-boarding record for {emp['employee_id']}"
        )
    return success(employee_id=emp["employee_id"], offboarding=dict(rec))


@TOOLS.tool
def submit_access_removal(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Permanently remove a departing report's access (manager + OTP only)."""
    mgr_id, dep_id, lwd = (
        params["manager_employee_id"],
        params["departing_employee_id"],
        params["last_working_day"],
    )
    err = (
        check_employee_id(mgr_id, "manager_employee_id")
        or check_employee_id(dep_id, "departing_employee_id")
        or check_date(lwd, "last_working_day")
        or require_manager(db, mgr_id)
    )
    if err is not None:
        return err
    dep = employee(db, dep_id)
    if dep is None:
        return error("employee_not_found", f"Employee {dep_id} not found")
    if not reports_to(db, mgr_id, dep):
        return error("not_direct_report", f"{dep_id} does not report to {mgr_id}")
    rec = _offboarding(dep)
    if rec is None:
        return error("no_offboarding_record", f"HR has not filed an off-boarding record for {dep_id}")
    if rec.get("access_removed"):
        return error(
            "access_already_removed",
            f"Access for {dep_id} was already removed ({rec.get('removal_case_id')})",
        )
    if rec.get("last_working_day") and lwd != rec.get("last_working_day"):
        return error(
            "last_working_day_mismatch",
            f"Last working day must match the off-boarding record ({rec.get('last_working_day')}).",
        )
    lwd_date = parse_date(lwd)
    if lwd_date is not None and lwd_date < today(db):
        return error("invalid_last_working_day", f"Last working day {lwd} is in the past")
    scope = params["removal_scope"]
    rec["access_removed"] = True
    rec["removal_scope"] = scope
    rec["removal_case_id"] = None
    case_id = "CASE-ACCT-" + new_id(rec, "removal_case_id")
    rec["removal_case_id"] = case_id
    dep["employment_status"] = "terminated"
    dep["group_memberships"] = []
    dep["system_accounts"] = []
    if scope == "staged" and lwd_date is not None:
        dep["email_preserved_until"] = add_days(lwd_date, 30)
    return success(
        case_id=case_id,
        departing_employee_id=dep_id,
        removal_scope=scope,
        message=f"Access removed. Case: {case_id}",
    )


@TOOLS.tool
def initiate_asset_recovery(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Recover all company hardware of an employee whose access was removed."""
    dep_id = params["departing_employee_id"]
    err = check_employee_id(dep_id, "departing_employee_id") or require_manager(db)
    if err is not None:
        return err
    dep = employee(db, dep_id)
    if dep is None:
        return error("employee_not_found", f"Employee {dep_id} not found")
    rec = _offboarding(dep)
    case_id = params["case_id"]
    if rec is None or not rec.get("access_removed") or rec.get("removal_case_id") != case_id:
        return error("case_not_found", f"No access removal case {case_id} for {dep_id}")
    recoveries = db.setdefault("asset_recoveries", {})
    if any(isinstance(r, dict) and r.get("case_id") == case_id for r in recoveries.values()):
        return error("recovery_already_initiated", f"Asset recovery already started for {case_id}")
    assets = [
        a
        for a in db.get("assets", {}).values()
        if isinstance(a, dict) and a.get("assigned_employee_id") == dep_id
    ]
    rid = "RECV-" + case_id[-6:]
    method = params["recovery_method"]
    recoveries[rid] = {
        "recovery_id": rid,
        "case_id": case_id,
        "departing_employee_id": dep_id,
        "recovery_method": method,
        "assets_to_recover": [a.get("asset_tag") for a in assets],
        "created_date": today(db).isoformat(),
    }
    return success(
        recovery_id=rid,
        recovery_method=method,
        assets_to_recover=[
            {"asset_tag": a.get("asset_tag"), "asset_type": a.get("asset_type"), "model": a.get("model")}
            for a in assets
        ],
        message=f"Recovery {rid}: {len(assets)} device(s) via {method}",
    )
