"""Role and permission changes and the 90-day access review (EVA's rules: OTP auth; the
permission change itself does not require the HR approval, only matches its date)."""

from __future__ import annotations

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
    require_otp_only,
    today,
)

_REVIEW_DAYS, _REVIEW_TOLERANCE = 90, 3


def _otp_employee(db: dict[str, Any], employee_id: str) -> tuple[dict[str, Any] | None, Result | None]:
    err = require_otp_only(db)
    if err is not None:
        return None, err
    return get_employee(db, employee_id)


@TOOLS.tool
def check_role_change_authorized(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """HR pre-approval (case and effective date) before any permission change."""
    emp, err = _otp_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    appr = emp.get("pending_role_approval")
    if not (isinstance(appr, dict) and appr.get("approved_by_hr")):
        return error(
            "not_authorized",
            "HR has not approved a role change for this employee. Ask the caller to contact HR first.",
        )
    if appr.get("new_role_code") != params["new_role_code"]:
        return error(
            "role_mismatch",
            f"HR-approved role is '{appr.get('new_role_code')}', not '{params['new_role_code']}'",
        )
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
    err = require_otp_only(db)
    if err is not None:
        return err
    role = params["role_code"]
    templates = {
        k: dict(t)
        for k, t in db.get("permission_templates", {}).items()
        if isinstance(t, dict) and t.get("role_code") == role
    }
    if not templates:
        return not_found(f"No templates for {role}")
    return success(role_code=role, templates=templates)


@TOOLS.tool
def submit_permission_change(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Apply a role change on the HR effective date (EVA's order of checks)."""
    err = require_otp_only(db)
    if err is not None:
        return err
    eff, new_role, tpl_id = (
        params["effective_date"],
        params["new_role_code"],
        params["permission_template_id"],
    )
    eff_date = parse_date(eff)
    if eff_date is not None and eff_date < today(db):
        return error("invalid_effective_date", f"effective_date {eff} is in the past")
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    appr = emp.get("pending_role_approval")
    hr_eff = appr.get("effective_date") if isinstance(appr, dict) else None
    if hr_eff and eff != hr_eff:
        return error(
            "effective_date_mismatch",
            f"effective_date {eff} does not match the HR-approved effective date {hr_eff}",
        )
    tpl = db.get("permission_templates", {}).get(tpl_id)
    if not isinstance(tpl, dict):
        return not_found(f"Template {tpl_id} not found")
    if tpl.get("role_code") != new_role:
        return error("template_role_mismatch", f"Template for '{tpl.get('role_code')}', not '{new_role}'")
    change: dict[str, Any] = {
        "case_id": None,
        "new_role_code": new_role,
        "permission_template_id": tpl_id,
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
    """The compliance review 90 (+/-3) days after the pending change takes effect."""
    emp, err = _otp_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    change = emp.get("pending_role_change")
    if not isinstance(change, dict) or not change:
        return error("no_pending_role_change", "No pending role change to schedule a review for")
    review = params["review_date"]
    eff, rd = parse_date(change.get("effective_date")), parse_date(review)
    if eff is not None and rd is not None and abs((rd - eff).days - _REVIEW_DAYS) > _REVIEW_TOLERANCE:
        return error(
            "invalid_review_date",
            f"review_date must be within {_REVIEW_TOLERANCE} days of effective_date + {_REVIEW_DAYS} "
            f"(expected near {add_days(eff, _REVIEW_DAYS)})",
        )
    review_id = "ARVW-" + params["case_id"][-6:]
    change["access_review_id"] = review_id
    change["review_date"] = review
    return success(
        review_id=review_id, review_date=review, message=f"90-day review on {review}. ID: {review_id}"
    )
