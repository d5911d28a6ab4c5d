"""Hardware tools: assets, entitlement, budget, replacement requests and returns."""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    add_days,
    check_asset_tag,
    get_employee,
    months_between,
    new_id,
    parse_date,
    require_auth,
    resolve_building,
    today,
    verified_employee,
)

_MIN_AGE = {"laptop_replacement": 36, "monitor_bundle": 12}
_JUSTIFICATIONS = {
    "laptop_replacement": ("end_of_life", "performance_degradation", "physical_damage", "lost_or_stolen"),
    "monitor_bundle": ("new_setup", "replacement"),
}
# Reasons that replace a device regardless of its age.
_AGE_EXEMPT = ("physical_damage", "lost_or_stolen", "new_setup")


def _asset(db: dict[str, Any], tag: str) -> dict[str, Any] | None:
    a = db.get("assets", {}).get(tag)
    return a if isinstance(a, dict) else None


def _age_error(request_type: str, age: int) -> Result:
    if request_type == "laptop_replacement":
        return error(
            "device_too_new",
            f"Laptop is {age} months old; minimum 36 months for standard replacement. "
            "File a security incident if lost/stolen/damaged.",
        )
    return error("device_too_new", f"Monitor is {age} months old; minimum 12 months for replacement.")


def _device_age(db: dict[str, Any], asset: dict[str, Any] | None) -> int | None:
    bought = parse_date(asset.get("purchase_date")) if asset else None
    return months_between(bought, today(db)) if bought else None


def _budget(db: dict[str, Any], emp: dict[str, Any]) -> tuple[dict[str, Any] | None, Result | None]:
    code = emp.get("cost_center_code")
    cc = db.get("cost_centers", {}).get(code) if code else None
    if not isinstance(cc, dict):
        return None, error("cost_center_not_found", f"No cost center on file for {emp['employee_id']}")
    return cc, None


@TOOLS.tool
def get_asset_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """One asset by tag."""
    tag = params["asset_tag"]
    err = check_asset_tag(tag) or require_auth(db)
    if err is not None:
        return err
    a = _asset(db, tag)
    if a is None:
        return error("asset_not_found", f"Asset {tag} not found")
    return success(asset=dict(a))


@TOOLS.tool
def get_employee_assets(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """All assets assigned to an employee."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    eid = emp["employee_id"]
    assets = [
        dict(a)
        for a in db.get("assets", {}).values()
        if isinstance(a, dict) and a.get("assigned_employee_id") == eid
    ]
    return success(employee_id=eid, assets=assets, message=f"{len(assets)} asset(s)")


@TOOLS.tool
def check_hardware_entitlement(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Role entitlement, device age and pending-request check before a hardware request."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    rtype = params["request_type"]
    ent = (emp.get("hardware_entitlements") or {}).get(rtype)
    if not isinstance(ent, dict):
        return error("not_entitled", f"Role {emp.get('role_code')} is not provisioned for {rtype}.")
    if ent.get("pending_request"):
        return error(
            "pending_request_exists",
            f"A {rtype} request is already pending: {ent.get('pending_request_id')}",
            pending_request_id=ent.get("pending_request_id"),
        )
    tag = ent.get("current_asset_tag")
    asset = _asset(db, tag) if tag else None
    age = _device_age(db, asset)
    if age is not None and age < _MIN_AGE[rtype]:
        return _age_error(rtype, age)
    current = (
        {
            "asset_tag": asset.get("asset_tag"),
            "os": asset.get("os"),
            "size": asset.get("size"),
            "model": asset.get("model"),
        }
        if asset
        else None
    )
    return success(
        eligible=True,
        employee_id=emp["employee_id"],
        request_type=rtype,
        current_asset_tag=tag,
        device_age_months=age,
        current_asset=current,
        message="Eligible",
    )


def _hardware_params_error(p: dict[str, Any]) -> Result | None:
    rtype, why = p["request_type"], p["justification"]
    if why not in _JUSTIFICATIONS[rtype]:
        return error(
            "invalid_justification",
            f"Justification for {rtype} must be one of {', '.join(_JUSTIFICATIONS[rtype])}.",
        )
    if rtype == "laptop_replacement":
        if p.get("monitor_size") is not None:
            return error("invalid_monitor_size", "monitor_size applies to monitor bundles only.")
        for f in ("laptop_os", "laptop_size"):
            if p.get(f) is None:
                return error(f"missing_{f}", f"{f} is required for a laptop replacement.")
        if why != "lost_or_stolen" and p.get("current_asset_tag") is None:
            return error("missing_current_asset_tag", "current_asset_tag is required to replace a laptop.")
    else:
        for f in ("laptop_os", "laptop_size"):
            if p.get(f) is not None:
                return error(f"invalid_{f}", f"{f} applies to laptop replacements only.")
        if p.get("monitor_size") is None:
            return error("missing_monitor_size", "monitor_size is required for a monitor bundle.")
        if why == "replacement" and p.get("current_asset_tag") is None:
            return error("missing_current_asset_tag", "current_asset_tag is required to replace a monitor.")
    if p.get("current_asset_tag") is not None:
        return check_asset_tag(p["current_asset_tag"], "current_asset_tag")
    return None


@TOOLS.tool
def submit_hardware_request(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """File a laptop replacement or monitor bundle against the department's budget."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    err = _hardware_params_error(params) or require_auth(db)
    if err is not None:
        return err
    rtype, why = params["request_type"], params["justification"]
    ent = (emp.get("hardware_entitlements") or {}).get(rtype)
    if not isinstance(ent, dict):
        return error("not_entitled", f"Role {emp.get('role_code')} is not provisioned for {rtype}.")
    if ent.get("pending_request"):
        return error(
            "pending_request_exists",
            f"A {rtype} request is already pending: {ent.get('pending_request_id')}",
            pending_request_id=ent.get("pending_request_id"),
        )
    tag = params.get("current_asset_tag")
    if tag is not None:
        asset = _asset(db, tag)
        if asset is None:
            return error("asset_not_found", f"Asset {tag} not found")
        if asset.get("assigned_employee_id") != emp["employee_id"]:
            return error("asset_not_assigned", f"Asset {tag} is not assigned to {emp['employee_id']}")
        age = _device_age(db, asset)
        if why not in _AGE_EXEMPT and age is not None and age < _MIN_AGE[rtype]:
            return _age_error(rtype, age)
    cc, err = _budget(db, emp)
    if cc is None:
        return err or {}
    if not cc.get("has_budget"):
        return error(
            "insufficient_budget",
            f"Cost center {cc.get('cost_center_code')} has insufficient budget",
            cost_center_code=cc.get("cost_center_code"),
            remaining_budget_usd=cc.get("remaining_budget_usd"),
        )
    building, err = resolve_building(db, params["delivery_building"])
    if building is None:
        return err or {}
    record: dict[str, Any] = {
        "request_id": None,
        "employee_id": emp["employee_id"],
        "request_type": rtype,
        "justification": why,
        "current_asset_tag": tag,
        "monitor_size": params.get("monitor_size"),
        "laptop_os": params.get("laptop_os"),
        "laptop_size": params.get("laptop_size"),
        "delivery_building": building,
        "delivery_floor": params["delivery_floor"],
        "status": "submitted",
        "created_date": today(db).isoformat(),
    }
    rid = "REQ-HW-" + new_id(record, "request_id")
    record["request_id"] = rid
    db.setdefault("requests", {})[rid] = record
    ent["pending_request"] = True
    ent["pending_request_id"] = rid
    return success(request_id=rid, request_type=rtype, message=f"Submitted: {rid}")


@TOOLS.tool
def initiate_asset_return(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Return label and 14-day deadline for the device being replaced."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    tag = params["asset_tag"]
    err = check_asset_tag(tag) or require_auth(db)
    if err is not None:
        return err
    asset = _asset(db, tag)
    if asset is None:
        return error("asset_not_found", f"Asset {tag} not found")
    if asset.get("assigned_employee_id") != emp["employee_id"]:
        return error("asset_not_assigned", f"Asset {tag} is not assigned to {emp['employee_id']}")
    req = db.get("requests", {}).get(params["request_id"])
    if not isinstance(req, dict):
        return error("request_not_found", f"Request {params['request_id']} not found")
    if req.get("justification") == "lost_or_stolen":
        return error("return_not_applicable", "A lost or stolen device cannot be returned.")
    if isinstance(asset.get("return_authorization"), dict):
        return error("return_already_initiated", f"A return is already open for {tag}")
    rma = "RMA-" + tag.rsplit("-", 1)[-1]
    deadline = add_days(today(db), 14)
    asset["return_authorization"] = {
        "return_auth_id": rma,
        "request_id": req["request_id"],
        "return_deadline": deadline,
        "status": "pending_return",
    }
    return success(
        return_auth_id=rma,
        asset_tag=tag,
        return_deadline=deadline,
        message=f"RMA {rma}: return by {deadline}",
    )


@TOOLS.tool
def verify_cost_center_budget(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Whether the caller's department can fund a hardware purchase."""
    emp, err = verified_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    cc, err = _budget(db, emp)
    if cc is None:
        return err or {}
    if not cc.get("has_budget"):
        return error(
            "insufficient_budget",
            f"Cost center {cc.get('cost_center_code')} has insufficient budget",
            cost_center_code=cc.get("cost_center_code"),
            remaining_budget_usd=cc.get("remaining_budget_usd"),
        )
    return success(
        cost_center_code=cc.get("cost_center_code"),
        department_code=cc.get("department_code", emp.get("department_code")),
        has_budget=True,
        remaining_budget_usd=cc.get("remaining_budget_usd"),
        message="Budget verified",
    )
