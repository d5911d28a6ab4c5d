"""Security tools: lost/stolen devices, remote wipe, and MFA phone-of-record changes."""

from __future__ import annotations

import re
from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    check_asset_tag,
    check_format,
    get_employee,
    new_id,
    require_auth,
    today,
)

_PHONE_RE = re.compile(r"^\d{4}$")


@TOOLS.tool
def report_security_incident(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Open a security case for a lost, stolen or compromised device of the caller."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    tag = params["asset_tag"]
    err = check_asset_tag(tag) or require_auth(db)
    if err is not None:
        return err
    asset = db.get("assets", {}).get(tag)
    if not isinstance(asset, dict):
        return error("asset_not_found", f"Asset {tag} not found")
    if asset.get("assigned_employee_id") != emp["employee_id"]:
        return error("asset_not_assigned", f"Asset {tag} is not assigned to {emp['employee_id']}")
    case: dict[str, Any] = {
        "security_case_id": None,
        "employee_id": emp["employee_id"],
        "asset_tag": tag,
        "incident_type": params["incident_type"],
        "status": "open",
        "created_date": today(db).isoformat(),
    }
    case_id = "SEC-" + new_id(case, "security_case_id")
    case["security_case_id"] = case_id
    db.setdefault("security_cases", {})[case_id] = case
    return success(
        security_case_id=case_id,
        asset_tag=tag,
        incident_type=params["incident_type"],
        message=f"Security case opened: {case_id}",
    )


@TOOLS.tool
def initiate_remote_wipe(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Wipe the device named in an open security case."""
    tag = params["asset_tag"]
    err = check_asset_tag(tag) or require_auth(db)
    if err is not None:
        return err
    case_id = params["security_case_id"]
    case = db.get("security_cases", {}).get(case_id)
    if not isinstance(case, dict):
        return error("security_case_not_found", f"Security case {case_id} not found")
    if case.get("asset_tag") != tag:
        return error("asset_mismatch", f"Security case {case_id} is for {case.get('asset_tag')}, not {tag}")
    if case.get("remote_wipe_status"):
        return error("wipe_already_initiated", f"A remote wipe was already sent for {tag}")
    case["remote_wipe_status"] = "dispatched"
    case["remote_wipe_date"] = today(db).isoformat()
    return success(
        security_case_id=case_id,
        asset_tag=tag,
        wipe_status="dispatched",
        message=f"Remote wipe dispatched to {tag}",
    )


@TOOLS.tool
def submit_mfa_reset(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Phone-of-record changes always need an in-person visit; open a case to track it."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    phone = params["new_phone_last_four"]
    err = check_format(phone, _PHONE_RE, "new_phone_last_four", "9912") or require_auth(db)
    if err is not None:
        return err
    case: dict[str, Any] = {
        "security_case_id": None,
        "employee_id": emp["employee_id"],
        "case_type": "mfa_phone_change",
        "new_phone_last_four": phone,
        "status": "pending_in_person",
        "created_date": today(db).isoformat(),
    }
    case_id = "SEC-" + new_id(case, "security_case_id")
    case["security_case_id"] = case_id
    db.setdefault("security_cases", {})[case_id] = case
    return error(
        "in_person_required",
        "Phone-of-record changes cannot be made over the phone. The caller must visit IT security in person; "
        f"security case {case_id} tracks the visit.",
        security_case_id=case_id,
    )
