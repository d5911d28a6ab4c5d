"""Shift swaps, and the department-manager notification shared by employee flows."""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    Result,
    base_auth,
    caller_shift,
    case_id,
    employee,
    fmt,
    notify,
    today,
    unit_requirements,
)


def _swap_block(shift: dict[str, Any], db: dict[str, Any]) -> Result | None:
    """Why a shift cannot be swapped (already swapped, cancelled, past, locked), if so."""
    status = shift.get("status")
    if status == "swapped" or shift.get("swapped_to_employee_id"):
        return error("already_swapped", f"Shift {shift.get('shift_id')} has already been swapped")
    if status == "cancelled":
        return error("shift_cancelled", f"Shift {shift.get('shift_id')} has been cancelled")
    if str(shift.get("date")) < today(db).isoformat() or status == "logged":
        return error("shift_in_past", f"Shift {shift.get('shift_id')} is in the past and cannot be swapped")
    if shift.get("swap_locked"):
        return error("swap_locked", "Shift is within the 24-hour swap lockout window")
    return None


def _missing_certs(db: dict[str, Any], colleague_id: str, unit_code: str) -> tuple[list[str], Result | None]:
    """The unit's required certifications, or an error naming the ones the colleague lacks."""
    colleague, err = employee(db, colleague_id)
    if err or colleague is None:
        return [], err
    required, err = unit_requirements(db, unit_code)
    if err or required is None:
        return [], err
    held = set(colleague.get("certifications") or [])
    missing = [c for c in required if c not in held]
    if missing:
        return required, error(
            "certification_missing",
            f"Colleague {colleague_id} is missing: {missing}",
            missing_certs=missing,
        )
    return required, None


@TOOLS.tool
def get_shift_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The caller's shift as on file."""
    shift, err = caller_shift(params, db)
    if err or shift is None:
        return err or {}
    return success(shift=shift)


@TOOLS.tool
def check_swap_eligibility(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Whether the shift can be swapped, and which certifications its unit requires."""
    shift, err = caller_shift(params, db)
    if err or shift is None:
        return err or {}
    if err := _swap_block(shift, db):
        return err
    required, err = unit_requirements(db, str(shift.get("unit_code")))
    if err:
        return err
    return success(
        eligible=True,
        shift_date=shift.get("date"),
        unit_code=shift.get("unit_code"),
        required_cert_codes=required,
        message="Shift is eligible for swap",
    )


@TOOLS.tool
def verify_colleague_certifications(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Check the colleague holds every certification the unit requires."""
    colleague_id, err = fmt("employee_id", params["colleague_employee_id"], "colleague_employee_id")
    if err:
        return err
    unit, err = fmt("unit_code", params["unit_code"], "unit_code")
    if err:
        return err
    if err := base_auth(db):
        return err
    required, err = _missing_certs(db, colleague_id, unit)
    if err:
        return err
    return success(
        colleague_employee_id=colleague_id,
        unit_code=unit,
        certifications_verified=required,
        message="All required certifications verified",
    )


@TOOLS.tool
def confirm_shift_swap(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Hand the shift to a certified colleague; every precondition is re-checked here."""
    colleague_id, err = fmt("employee_id", params["colleague_employee_id"], "colleague_employee_id")
    if err:
        return err
    unit, err = fmt("unit_code", params["unit_code"], "unit_code")
    if err:
        return err
    shift, err = caller_shift(params, db)
    if err or shift is None:
        return err or {}
    emp_id = str(shift.get("employee_id"))
    if colleague_id == emp_id:
        return error(
            "invalid_colleague_employee_id", "The colleague must be a different employee from the shift owner"
        )
    if unit != shift.get("unit_code"):
        return error(
            "unit_mismatch", f"Shift {shift.get('shift_id')} is on unit {shift.get('unit_code')}, not {unit}"
        )
    if err := _swap_block(shift, db):
        return err
    _, err = _missing_certs(db, colleague_id, unit)
    if err:
        return err
    cid = case_id("SWP", emp_id)
    shift.update(status="swapped", swapped_to_employee_id=colleague_id, swap_confirmation_id=cid)
    return success(
        shift_id=shift.get("shift_id"),
        original_employee_id=emp_id,
        new_employee_id=colleague_id,
        unit_code=unit,
        case_id=cid,
        message=f"Shift swap confirmed. Case ID: {cid}",
    )


@TOOLS.tool
def notify_department_manager(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Tell the employee's department manager about a schedule, leave, payroll or PTO change."""
    emp_id, err = fmt("employee_id", params["employee_id"], "employee_id")
    if err:
        return err
    cid, err = fmt("case_id", params["case_id"], "case_id")
    if err:
        return err
    if err := base_auth(db):
        return err
    emp, err = employee(db, emp_id)
    if err or emp is None:
        return err or {}
    kind = params["notification_type"]
    notify(
        db,
        {
            "recipient": "department_manager",
            "employee_id": emp_id,
            "department_code": emp.get("department_code"),
            "case_id": cid,
            "notification_type": kind,
        },
    )
    return success(
        employee_id=emp_id,
        case_id=cid,
        notification_type=kind,
        message=f"Department manager notified: {kind}",
    )
