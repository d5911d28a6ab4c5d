"""License tools: requests, cost-center validation, assignments and renewals (EVA's rules)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    add_days,
    get_employee,
    new_id,
    not_found,
    parse_date,
    require_auth,
    today,
    verified_employee,
)
from voxbench.scenarios.domains.itsm.hardware import cost_center


@TOOLS.tool
def submit_license_request(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """A permanent license, or a temporary one of 30, 60 or 90 days (EVA: auth and the
    `LIC-` format only; no catalog, type or cost-center check)."""
    err = require_auth(db)
    if err is not None:
        return err
    duration = params.get("duration_days")
    if duration in (0, "0"):
        duration = None
    record: dict[str, Any] = {
        "request_id": None,
        "employee_id": params["employee_id"],
        "catalog_id": params["catalog_id"],
        "status": "submitted",
        "created_date": today(db).isoformat(),
    }
    if duration is None:
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
    cc, err = cost_center(db, emp, "{cc} not for {dept}")
    if err is not None:
        return err
    code = cc.get("cost_center_code", emp.get("cost_center_code"))
    return success(
        cost_center_code=code,
        department_code=emp.get("department_code"),
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


def _window_error(days_left: int, expires: str) -> Result | None:
    if days_left > 30:
        return error(
            "not_in_renewal_window",
            f"License expires in {days_left} days. Renewal is only available within 30 days of "
            "expiration. Please call back closer to the expiration date.",
            expiration_date=expires,
        )
    if days_left < -14:
        return error(
            "not_in_renewal_window",
            f"License expired {-days_left} days ago. Renewal is only available up to 14 days past "
            "expiration. Submit a new license request instead.",
            expiration_date=expires,
        )
    return None


@TOOLS.tool
def submit_license_renewal(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Renew for 365 days from max(expiry, today) within 30 days before / 14 days after expiry."""
    err = require_auth(db)
    if err is not None:
        return err
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    aid = params["license_assignment_id"]
    lic = next((x for x in emp.get("software_licenses") or [] if x.get("license_assignment_id") == aid), None)
    if lic is None:
        return not_found(f"License {aid} not found")
    now = today(db)
    expires = parse_date(lic.get("expiration_date"))
    if expires is not None:
        err = _window_error((expires - now).days, expires.isoformat())
        if err is not None:
            return err
    new_exp = (max(expires or now, now) + timedelta(days=365)).isoformat()
    record: dict[str, Any] = {
        "request_id": None,
        "employee_id": emp["employee_id"],
        "license_assignment_id": aid,
        "request_type": "license_renewal",
        "new_expiration_date": new_exp,
        "status": "submitted",
        "created_date": now.isoformat(),
    }
    rid = "REQ-SW-" + new_id(record, "request_id")
    record["request_id"] = rid
    db.setdefault("requests", {})[rid] = record
    lic["expiration_date"] = new_exp
    lic["status"] = "active"
    return success(
        request_id=rid, new_expiration_date=new_exp, message=f"Renewed. Expires {new_exp}. ID: {rid}"
    )
