"""Off-boarding tools: HR's record, permanent access removal and hardware recovery (EVA's rules)."""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    add_days,
    get_employee,
    new_id,
    parse_date,
    require_manager,
    require_manager_otp,
    today,
)


@TOOLS.tool
def get_offboarding_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """HR's off-boarding record (manager auth); without one, access removal cannot start."""
    err = require_manager(db)
    if err is not None:
        return err
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    rec = emp.get("offboarding_record")
    if not rec:
        return error("no_offboarding_record", "No off-boarding record. HR must initiate.")
    return success(employee_id=emp["employee_id"], offboarding=dict(rec))


@TOOLS.tool
def submit_access_removal(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Permanently remove a departing report's access (EVA's order: manager + OTP, date,
    manager, reporting line, departing employee, off-boarding record)."""
    mgr_id, dep_id, lwd = (
        params["manager_employee_id"],
        params["departing_employee_id"],
        params["last_working_day"],
    )
    err = require_manager_otp(db)
    if err is not None:
        return err
    lwd_date = parse_date(lwd)
    if lwd_date is not None and lwd_date < today(db):
        return error("invalid_last_working_day", f"last_working_day {lwd} is in the past")
    mgr, err = get_employee(db, mgr_id)
    if mgr is None:
        return err or {}
    if dep_id not in (mgr.get("direct_reports") or []):
        return error("not_authorized", "Not in direct reports")
    dep, err = get_employee(db, dep_id)
    if dep is None:
        return err or {}
    rec = dep.get("offboarding_record")
    if not isinstance(rec, dict) or not rec:
        return error("no_offboarding_record", "No off-boarding record")
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
    """Recover all company hardware of a departing employee (EVA: manager auth only; the
    employee and case are not checked)."""
    err = require_manager(db)
    if err is not None:
        return err
    dep_id, case_id = params["departing_employee_id"], params["case_id"]
    recoveries = db.setdefault("asset_recoveries", {})
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
