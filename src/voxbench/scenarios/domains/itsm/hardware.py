"""Hardware tools: assets, entitlement, budget, replacement requests and returns (EVA's rules).

EVA's request and return tools check little beyond auth: the agent's policy (the
entitlement and budget checks it is told to run first) does the rest.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    add_days,
    employee,
    get_employee,
    months_between,
    new_id,
    not_found,
    parse_date,
    require_auth,
    resolve_building,
    today,
    verified_employee,
)

_MIN_AGE = {"laptop_replacement": 36, "monitor_bundle": 12}
_LAPTOP_ONLY = ("laptop_os", "laptop_size")


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
    return error(
        "replaced_too_recently", f"Monitor is {age} months old; minimum 12 months between replacements."
    )


def _device_age(db: dict[str, Any], asset: dict[str, Any] | None) -> int | None:
    bought = parse_date(asset.get("purchase_date")) if asset else None
    return months_between(bought, today(db)) if bought else None


@TOOLS.tool
def get_asset_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """One asset by tag."""
    err = require_auth(db)
    if err is not None:
        return err
    tag = params["asset_tag"]
    a = _asset(db, tag)
    if a is None:
        return not_found(f"Asset {tag} not found")
    return success(asset=dict(a))


@TOOLS.tool
def get_employee_assets(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """All assets assigned to an employee (EVA: an unknown id simply has none)."""
    err = require_auth(db)
    if err is not None:
        return err
    eid = params["employee_id"]
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
        return error("no_entitlement", f"No entitlement for {rtype}")
    if ent.get("pending_request"):
        return error("request_already_pending", f"Pending: {ent.get('pending_request_id')}")
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


def _request_fields(params: dict[str, Any]) -> dict[str, Any]:
    """EVA's params model drops the fields of the other request type (and the asset tag of
    a monitor `new_setup`)."""
    p = dict(params)
    if p["request_type"] == "laptop_replacement":
        p.pop("monitor_size", None)
    else:
        for f in _LAPTOP_ONLY:
            p.pop(f, None)
        if p["justification"] == "new_setup":
            p.pop("current_asset_tag", None)
    return p


@TOOLS.tool
def submit_hardware_request(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """File a laptop replacement or monitor bundle (EVA: auth and the building only)."""
    err = require_auth(db)
    if err is not None:
        return err
    p = _request_fields(params)
    building, err = resolve_building(db, p["delivery_building"])
    if building is None:
        return err or {}
    rtype, why, tag = p["request_type"], p["justification"], p.get("current_asset_tag")
    record: dict[str, Any] = {
        "request_id": None,
        "employee_id": p["employee_id"],
        "request_type": rtype,
        "justification": why,
        "current_asset_tag": tag,
        "monitor_size": p.get("monitor_size"),
        "laptop_os": p.get("laptop_os"),
        "laptop_size": p.get("laptop_size"),
        "delivery_building": building,
        "delivery_floor": p["delivery_floor"],
        "status": "submitted",
        "created_date": today(db).isoformat(),
    }
    rid = "REQ-HW-" + new_id(record, "request_id")
    record["request_id"] = rid
    db.setdefault("requests", {})[rid] = record
    if why == "lost_or_stolen" and tag is not None:
        asset = _asset(db, tag)
        if asset is not None:
            asset["lifecycle_status"] = "lost_or_stolen"
            asset["status"] = "inactive"
    emp = employee(db, p["employee_id"])
    ent = ((emp or {}).get("hardware_entitlements") or {}).get(rtype)
    if isinstance(ent, dict):
        ent["pending_request"] = True
        ent["pending_request_id"] = rid
    return success(request_id=rid, request_type=rtype, message=f"Submitted: {rid}")


@TOOLS.tool
def initiate_asset_return(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Return label and 14-day deadline for a device (EVA: only the asset must exist)."""
    err = require_auth(db)
    if err is not None:
        return err
    tag = params["asset_tag"]
    asset = _asset(db, tag)
    if asset is None:
        return not_found(f"Asset {tag} not found")
    rma = "RMA-" + tag.rsplit("-", 1)[-1]
    deadline = add_days(today(db), 14)
    asset["return_authorization"] = {
        "return_auth_id": rma,
        "request_id": params["request_id"],
        "return_deadline": deadline,
        "status": "pending_return",
    }
    return success(
        return_auth_id=rma,
        asset_tag=tag,
        return_deadline=deadline,
        message=f"RMA {rma}: return by {deadline}",
    )


def cost_center(
    db: dict[str, Any], emp: dict[str, Any], mismatch: str
) -> tuple[dict[str, Any], Result | None]:
    """EVA's cost-center lookup: on file, exists, and belongs to the employee's department.

    `mismatch` is the department-mismatch message template ({cc}, {cc_dept}, {dept}).
    """
    code = emp.get("cost_center_code")
    if not code:
        return {}, error("cc_not_on_file", f"No cost center on file for {emp['employee_id']}")
    cc = db.get("cost_centers", {}).get(code)
    if not isinstance(cc, dict):
        return {}, not_found(f"Cost center {code} not found")
    dept, cc_dept = emp.get("department_code"), cc.get("department_code")
    if cc_dept is not None and cc_dept != dept:
        return {}, error("department_mismatch", mismatch.format(cc=code, cc_dept=cc_dept, dept=dept))
    return cc, None


@TOOLS.tool
def verify_cost_center_budget(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Whether the caller's department can fund a hardware purchase."""
    err = require_auth(db)
    if err is not None:
        return err
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    cc, err = cost_center(db, emp, "{cc} belongs to {cc_dept}, not {dept}")
    if err is not None:
        return err
    if not cc.get("has_budget", True):
        return error(
            "insufficient_budget",
            f"Cost center {cc.get('cost_center_code')} has insufficient budget",
            cost_center_code=cc.get("cost_center_code"),
            remaining_budget_usd=cc.get("remaining_budget_usd", 0),
        )
    return success(
        cost_center_code=cc.get("cost_center_code"),
        department_code=emp.get("department_code"),
        has_budget=True,
        remaining_budget_usd=cc.get("remaining_budget_usd", 0),
        message="Budget verified",
    )
