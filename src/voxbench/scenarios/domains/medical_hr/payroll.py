"""Payroll corrections for a logged shift, accepted only while its pay period is open.

EVA's submission checks only the pay-period end date; its eligibility check allows
logged or approved shifts and reads the closed flag.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    Result,
    caller_shift,
    case_id,
    fnum,
    today,
)


def _correction_block(shift: dict[str, Any], db: dict[str, Any]) -> Result | None:
    """Why the shift cannot be corrected (pending, period closed, not logged), if so."""
    if shift.get("correction_status") == "pending":
        return error("correction_already_pending", "A correction is already pending for this shift")
    if shift.get("pay_period_closed"):
        return error("pay_period_closed", "The pay period for this shift is closed and cannot be corrected")
    if shift.get("status") not in ("logged", "approved"):
        return error("shift_not_logged", "Shift must be in logged or approved status to submit a correction")
    return None


@TOOLS.tool
def get_timesheet_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The caller's timesheet entry for a shift (logged hours, pay period end)."""
    shift, err = caller_shift(params, db, owned=True)
    if err or shift is None:
        return err or {}
    return success(shift=shift)


@TOOLS.tool
def check_correction_eligibility(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Eligibility gate before collecting the corrected hours."""
    shift, err = caller_shift(params, db)
    if err or shift is None:
        return err or {}
    if err := _correction_block(shift, db):
        return err
    return success(
        eligible=True,
        shift_id=shift.get("shift_id"),
        logged_hours=shift.get("hours_logged"),
        message="Shift is eligible for payroll correction",
    )


@TOOLS.tool
def submit_payroll_correction(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Record the corrected total hours for one category (not a delta, not shift hours)."""
    hours = fnum(params["corrected_hours"])
    shift, err = caller_shift(params, db)
    if err or shift is None:
        return err or {}
    end = shift.get("pay_period_end_date")
    if not end:
        return error("pay_period_not_set", f"No pay period end date found for shift {params['shift_id']}")
    now = today(db).isoformat()
    if str(end) < now:
        return error(
            "pay_period_closed",
            f"Pay period ending {end} has already closed (current date: {now}). Correction cannot be submitted.",
        )
    emp_id = params["employee_id"]
    cid = case_id("PAY", emp_id)
    kind = params["correction_type"]
    shift.update(
        corrected_hours=hours, correction_type=kind, correction_case_id=cid, correction_status="pending"
    )
    return success(
        employee_id=emp_id,
        shift_id=shift.get("shift_id"),
        correction_type=kind,
        corrected_hours=hours,
        pay_period_end_date=shift.get("pay_period_end_date"),
        case_id=cid,
        message=f"Payroll correction submitted. Case ID: {cid}",
    )
