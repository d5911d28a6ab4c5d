"""Security tools: lost/stolen devices, remote wipe, and MFA phone-of-record changes (EVA's rules)."""

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


@TOOLS.tool
def report_security_incident(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Open a security case for a device of the caller; a lost or stolen device is marked so."""
    err = require_auth(db)
    if err is not None:
        return err
    tag, eid, kind = params["asset_tag"], params["employee_id"], params["incident_type"]
    asset = db.get("assets", {}).get(tag)
    if not isinstance(asset, dict):
        return not_found(f"Asset {tag} not found")
    if asset.get("assigned_employee_id") != eid:
        return error("not_assigned_to_caller", f"Asset {tag} is not assigned to {eid}")
    case: dict[str, Any] = {
        "security_case_id": None,
        "employee_id": eid,
        "asset_tag": tag,
        "incident_type": kind,
        "status": "open",
        "opened_date": today(db).isoformat(),
    }
    case_id = "SEC-" + new_id(case, "security_case_id")
    case["security_case_id"] = case_id
    db.setdefault("security_cases", {})[case_id] = case
    if kind in ("lost", "stolen"):
        asset["lifecycle_status"] = "lost_or_stolen"
    return success(
        security_case_id=case_id,
        asset_tag=tag,
        incident_type=kind,
        message=f"Security case {case_id} opened",
    )


@TOOLS.tool
def initiate_remote_wipe(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Wipe the device named in a security case: the asset records the wipe, the case its id."""
    err = require_auth(db)
    if err is not None:
        return err
    tag, case_id = params["asset_tag"], params["security_case_id"]
    case = db.get("security_cases", {}).get(case_id)
    if not isinstance(case, dict):
        return not_found(f"Security case {case_id} not found")
    asset = db.get("assets", {}).get(tag)
    if not isinstance(asset, dict):
        return not_found(f"Asset {tag} not found")
    if case.get("asset_tag") != tag:
        return error("case_asset_mismatch", "asset_tag does not match the security case")
    wipe_id = "WIPE-" + tag[-6:]
    asset["remote_wipe"] = {
        "wipe_id": wipe_id,
        "status": "dispatched",
        "dispatched_date": today(db).isoformat(),
    }
    asset["status"] = "wiped"
    case["remote_wipe_id"] = wipe_id
    return success(wipe_id=wipe_id, asset_tag=tag, message=f"Remote wipe dispatched: {wipe_id}")


@TOOLS.tool
def submit_mfa_reset(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Phone-of-record changes always need an in-person visit; open a case to track it."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    case: dict[str, Any] = {
        "security_case_id": None,
        "employee_id": emp["employee_id"],
        "incident_type": "mfa_reset_request",
        "requested_new_phone_last_four": params["new_phone_last_four"],
        "status": "requires_in_person",
        "opened_date": today(db).isoformat(),
    }
    case_id = "SEC-" + new_id(case, "security_case_id")
    case["security_case_id"] = case_id
    db.setdefault("security_cases", {})[case_id] = case
    return error(
        "in_person_required",
        "Phone-of-record changes cannot be made over the phone. Please visit the IT security office in "
        "person with a government-issued ID. A security case has been opened to track this request.",
        security_case_id=case_id,
    )
