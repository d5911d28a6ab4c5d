"""FMLA leave cases and PTO / sick-leave requests."""

from __future__ import annotations

from datetime import date
from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    Result,
    base_auth,
    case_id,
    date_range,
    employee,
    fmt,
    fnum,
    otp_auth,
    parse_date,
    today,
)

FMLA_MIN_MONTHS = 12
FMLA_MIN_HOURS = 1250

# ── FMLA ─────────────────────────────────────────────────────────────────────


def _fmla_block(emp: dict[str, Any]) -> Result | None:
    """The ineligibility reason on file (12 months and 1,250 hours), if any."""
    fe = emp.get("fmla_eligibility") or {}
    months, hours = fe.get("months_employed"), fe.get("hours_worked_past_year")
    eligible = fe.get("eligible")
    if eligible is None:
        eligible = (months or 0) >= FMLA_MIN_MONTHS and (hours or 0) >= FMLA_MIN_HOURS
    if eligible:
        return None
    reason = fe.get("reason") or (
        "Employee does not meet FMLA eligibility requirements (12 months of employment and 1,250 hours "
        "worked in the past year)"
    )
    return error("not_eligible", reason, months_employed=months, hours_worked_past_year=hours)


def _leave_employee(
    params: dict[str, Any], db: dict[str, Any]
) -> tuple[dict[str, Any] | None, Result | None]:
    emp_id, err = fmt("employee_id", params["employee_id"], "employee_id")
    if err:
        return None, err
    if err := otp_auth(db):
        return None, err
    return employee(db, emp_id)


@TOOLS.tool
def check_leave_eligibility(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """FMLA eligibility and remaining weeks, checked before collecting leave details."""
    emp, err = _leave_employee(params, db)
    if err or emp is None:
        return err or {}
    if err := _fmla_block(emp):
        return err
    fe = emp.get("fmla_eligibility") or {}
    return success(
        eligible=True,
        months_employed=fe.get("months_employed"),
        hours_worked_past_year=fe.get("hours_worked_past_year"),
        fmla_weeks_remaining=fe.get("fmla_weeks_remaining"),
        message="Employee is eligible for FMLA leave",
    )


@TOOLS.tool
def submit_fmla_case(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Open an FMLA case: eligible, not backdated, and within the remaining entitlement."""
    start, err = parse_date(params["leave_start_date"], "leave_start_date")
    if err or start is None:
        return err or {}
    end, err = parse_date(params["leave_end_date"], "leave_end_date")
    if err or end is None:
        return err or {}
    emp, err = _leave_employee(params, db)
    if err or emp is None:
        return err or {}
    if err := _fmla_block(emp):
        return err
    if start < today(db):
        return error("invalid_leave_start_date", f"Leave cannot start in the past ({start.isoformat()})")
    if end < start:
        return error("invalid_leave_end_date", "The leave end date must be on or after the start date")
    weeks_left = fnum((emp.get("fmla_eligibility") or {}).get("fmla_weeks_remaining"))
    weeks = ((end - start).days + 1) / 7
    if weeks > weeks_left:
        return error(
            "exceeds_fmla_balance",
            f"Requested leave is {weeks:.1f} weeks but only {weeks_left:g} FMLA weeks remain",
            requested_weeks=round(weeks, 1),
            fmla_weeks_remaining=weeks_left,
        )
    emp_id = str(emp.get("employee_id"))
    cid = case_id("FMLA", emp_id)
    category = params["leave_category"]
    emp.setdefault("leave_records", []).append(
        {
            "case_id": cid,
            "leave_category": category,
            "leave_start_date": start.isoformat(),
            "leave_end_date": end.isoformat(),
            "status": "open",
        }
    )
    return success(
        employee_id=emp_id,
        case_id=cid,
        leave_category=category,
        leave_start_date=start.isoformat(),
        leave_end_date=end.isoformat(),
        message=f"FMLA case opened. Case ID: {cid}",
    )


# ── PTO ──────────────────────────────────────────────────────────────────────


def _schedule_type(emp: dict[str, Any]) -> str:
    return str(emp.get("schedule_type") or "standard")


def _pto_days(db: dict[str, Any], emp: dict[str, Any], start: date, end: date) -> list[str]:
    """Days that consume PTO: weekdays minus org holidays, or (shift staff) scheduled shifts."""
    days = [d.isoformat() for d in date_range(start, end)]
    if _schedule_type(emp) == "shift":
        shift_days = {
            str(s.get("date"))
            for s in (db.get("shifts") or {}).values()
            if s.get("employee_id") == emp.get("employee_id")
            and s.get("status") not in ("cancelled", "swapped")
        }
        return [d for d in days if d in shift_days]
    holidays = {str(h) for h in db.get("org_holidays") or []}
    return [
        d.isoformat() for d in date_range(start, end) if d.weekday() < 5 and d.isoformat() not in holidays
    ]


def _pto_check(params: dict[str, Any], db: dict[str, Any]) -> tuple[dict[str, Any], Result | None]:
    """Everything submit and check share: dates, balance, blackouts, overlaps."""
    emp_id, err = fmt("employee_id", params["employee_id"], "employee_id")
    if err:
        return {}, err
    start, err = parse_date(params["start_date"], "start_date")
    if err or start is None:
        return {}, err
    end, err = parse_date(params["end_date"], "end_date")
    if err or end is None:
        return {}, err
    if err := base_auth(db):
        return {}, err
    emp, err = employee(db, emp_id)
    if err or emp is None:
        return {}, err
    if end < start:
        return {}, error("invalid_date_range", "The end date must be on or after the start date")
    pto_type = params["pto_type"]
    days = _pto_days(db, emp, start, end)
    required = float(len(days))
    balance = fnum((emp.get("pto_balances") or {}).get(pto_type))
    if required > balance:
        return {}, error(
            "insufficient_pto_balance",
            f"Insufficient {pto_type} balance: {required} days required but only {balance} available",
            pto_days_required=required,
            current_balance=balance,
        )
    blackout = set((db.get("department_blackout_dates") or {}).get(emp.get("department_code")) or [])
    conflicts = [d.isoformat() for d in date_range(start, end) if d.isoformat() in blackout]
    if conflicts:
        return {}, error(
            "blackout_conflict",
            f"The {emp.get('department_code')} department does not allow PTO on {', '.join(conflicts)}",
            blackout_dates=conflicts,
        )
    for req in emp.get("pto_requests") or []:
        if req.get("status") in ("cancelled", "denied", "rejected"):
            continue
        if not (str(req.get("end_date")) < start.isoformat() or str(req.get("start_date")) > end.isoformat()):
            return {}, error(
                "overlapping_request",
                f"This overlaps an existing PTO request {req.get('case_id')} "
                f"({req.get('start_date')} to {req.get('end_date')})",
            )
    return {
        "emp": emp,
        "pto_type": pto_type,
        "start": start.isoformat(),
        "end": end.isoformat(),
        "days": days,
        "required": required,
        "balance": balance,
    }, None


@TOOLS.tool
def get_pto_balance(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Both balances plus the schedule type that decides how days are counted."""
    emp_id, err = fmt("employee_id", params["employee_id"], "employee_id")
    if err:
        return err
    if err := base_auth(db):
        return err
    emp, err = employee(db, emp_id)
    if err or emp is None:
        return err or {}
    sched = _schedule_type(emp)
    balances = {k: fnum(v) for k, v in (emp.get("pto_balances") or {}).items()}
    return success(
        employee_id=emp_id,
        schedule_type=sched,
        pto_balances=balances,
        message=f"PTO balances retrieved. Schedule type: {sched}",
    )


@TOOLS.tool
def check_pto_eligibility(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The exact days that count and the deduction, so the caller can confirm them."""
    c, err = _pto_check(params, db)
    if err:
        return err
    remaining = c["balance"] - c["required"]
    return success(
        eligible=True,
        employee_id=c["emp"].get("employee_id"),
        schedule_type=_schedule_type(c["emp"]),
        pto_type=c["pto_type"],
        pto_days_required=c["required"],
        working_days_in_range=c["days"],
        current_balance=c["balance"],
        remaining_after=remaining,
        message=f"Eligible. {c['required']} {c['pto_type']} day(s) required, {remaining} remaining after.",
    )


@TOOLS.tool
def submit_pto_request(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Deduct the counted days and file the request (same checks as eligibility)."""
    c, err = _pto_check(params, db)
    if err:
        return err
    emp = c["emp"]
    emp_id = str(emp.get("employee_id"))
    cid = case_id("PTO", emp_id)
    remaining = c["balance"] - c["required"]
    emp.setdefault("pto_balances", {})[c["pto_type"]] = remaining
    emp.setdefault("pto_requests", []).append(
        {
            "case_id": cid,
            "pto_type": c["pto_type"],
            "start_date": c["start"],
            "end_date": c["end"],
            "pto_days_deducted": c["required"],
            "working_days": c["days"],
            "status": "pending",
        }
    )
    return success(
        employee_id=emp_id,
        case_id=cid,
        pto_type=c["pto_type"],
        start_date=c["start"],
        end_date=c["end"],
        pto_days_deducted=c["required"],
        working_days=c["days"],
        remaining_balance=remaining,
        message=f"PTO request submitted. {c['required']} {c['pto_type']} day(s) deducted. Case ID: {cid}",
    )
