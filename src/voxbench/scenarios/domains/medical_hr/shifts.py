"""Shift swaps, and the department-manager notification shared by employee flows.

EVA's rules: employee auth; ownership is not checked; an unknown unit requires no
certification; the swap confirmation re-checks nothing and always writes.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    Result,
    caller_shift,
    case_id,
    employee,
    notify,
    require,
    today,
)


def _swap_block(shift: dict[str, Any], db: dict[str, Any]) -> Result | None:
    """Why a shift cannot be swapped (already swapped, cancelled, past, locked), if so."""
    status = shift.get("status")
    if status == "swapped":
        return error("already_swapped", "This shift has already been swapped")
    if status == "cancelled":
        return error("shift_cancelled", "Cannot swap a cancelled shift")
    now = today(db).isoformat()
    if str(shift.get("date")) < now:
        return error(
            "shift_in_past",
            f"Shift date {shift.get('date')} is in the past (current date: {now}). Cannot swap a past shift.",
        )
    if shift.get("swap_locked"):
        return error("swap_locked", "Shift is within the 24-hour swap lockout window")
    return None


def _required(db: dict[str, Any], unit_code: str) -> list[str]:
    """EVA: a unit without requirements on file requires nothing."""
    return sorted((db.get("unit_cert_requirements") or {}).get(unit_code) or [])


def _missing_certs(db: dict[str, Any], colleague_id: str, unit_code: str) -> tuple[list[str], Result | None]:
    """The unit's required certifications, or an error naming the ones the colleague lacks."""
    colleague, err = employee(db, colleague_id)
    if err or colleague is None:
        return [], err
    required = _required(db, unit_code)
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
    shift, err = caller_shift(params, db, owned=True)
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
    required = _required(db, str(shift.get("unit_code")))
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
    colleague_id, unit = params["colleague_employee_id"], params["unit_code"]
    if err := require(db, "employee_auth"):
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
    """Hand the shift to the colleague (EVA: employee auth and the shift only)."""
    colleague_id, unit = params["colleague_employee_id"], params["unit_code"]
    shift, err = caller_shift(params, db)
    if err or shift is None:
        return err or {}
    emp_id = params["employee_id"]
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
    emp_id, cid = params["employee_id"], params["case_id"]
    if err := require(db, "employee_auth", "otp_auth"):
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
