"""FMLA leave cases and PTO / sick-leave requests (EVA's rules).

FMLA tools take a verified OTP alone; the FMLA submission checks nothing else. PTO
counts weekdays minus holidays for `standard` schedules and the employee's shift dates
for any other; the request itself checks only the date range and the balance.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    Result,
    case_id,
    date_range,
    employee,
    parse_date,
    require,
)

FMLA_MIN_MONTHS = 12
FMLA_MIN_HOURS = 1250

# ── FMLA ─────────────────────────────────────────────────────────────────────


def _fmla_block(emp: dict[str, Any]) -> Result | None:
    """The ineligibility reason on file, if any (EVA: a missing `eligible` is false)."""
    fe = emp.get("fmla_eligibility") or {}
    if fe.get("eligible"):
        return None
    reason = fe.get("reason") or "Employee does not meet FMLA eligibility requirements"
    return error(
        "not_eligible",
        reason,
        months_employed=fe.get("months_employed"),
        hours_worked_past_year=fe.get("hours_worked_past_year"),
    )


def _leave_employee(
    params: dict[str, Any], db: dict[str, Any]
) -> tuple[dict[str, Any] | None, Result | None]:
    if err := require(db, "otp_auth"):
        return None, err
    return employee(db, params["employee_id"])


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
    """Open an FMLA case (EVA: OTP and the employee; no eligibility, date or balance check)."""
    start, err = parse_date(params["leave_start_date"], "leave_start_date")
    if err or start is None:
        return err or {}
    end, err = parse_date(params["leave_end_date"], "leave_end_date")
    if err or end is None:
        return err or {}
    emp, err = _leave_employee(params, db)
    if err or emp is None:
        return err or {}
    emp_id = params["employee_id"]
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
    """Days that consume PTO: weekdays minus org holidays for `standard` schedules; for
    any other schedule, the dates of all the employee's shifts in the range (EVA)."""
    days = [d.isoformat() for d in date_range(start, end)]
    if _schedule_type(emp) != "standard":
        shift_days = {
            str(s.get("date"))
            for s in (db.get("shifts") or {}).values()
            if s.get("employee_id") == emp.get("employee_id")
        }
        return [d for d in days if d in shift_days]
    holidays = {str(h) for h in db.get("org_holidays") or []}
    return [d for d in days if date.fromisoformat(d).weekday() < 5 and d not in holidays]


def _pto_check(
    params: dict[str, Any], db: dict[str, Any], *, full: bool
) -> tuple[dict[str, Any], Result | None]:
    """Dates and balance; with `full`, EVA's eligibility check adds blackouts and overlaps."""
    start, err = parse_date(params["start_date"], "start_date")
    if err or start is None:
        return {}, err
    end, err = parse_date(params["end_date"], "end_date")
    if err or end is None:
        return {}, err
    if err := require(db, "employee_auth"):
        return {}, err
    emp, err = employee(db, params["employee_id"])
    if err or emp is None:
        return {}, err
    if end < start:
        return {}, error("invalid_date_range", "Start date must be on or before end date")
    pto_type = params["pto_type"]
    days = _pto_days(db, emp, start, end)
    required = float(len(days))
    balance = (emp.get("pto_balances") or {}).get(pto_type, 0)
    if required > balance:
        return {}, error(
            "insufficient_pto_balance",
            f"Insufficient {pto_type} balance: {required} days required but only {balance} available",
            pto_days_required=required,
            current_balance=balance,
        )
    if full:
        err = _blackout_or_overlap(db, emp, days, start.isoformat(), end.isoformat())
        if err:
            return {}, err
    return {
        "emp": emp,
        "pto_type": pto_type,
        "start": start.isoformat(),
        "end": end.isoformat(),
        "days": days,
        "required": required,
        "balance": balance,
    }, None


def _blackout_or_overlap(
    db: dict[str, Any], emp: dict[str, Any], days: list[str], start: str, end: str
) -> Result | None:
    blackout = set((db.get("department_blackout_dates") or {}).get(emp.get("department_code")) or [])
    conflicts = [d for d in days if d in blackout]
    if conflicts:
        return error(
            "blackout_date_conflict",
            f"Requested dates overlap with department blackout dates: {conflicts}",
            conflicting_dates=conflicts,
        )
    for req in emp.get("pto_requests") or []:
        if req.get("status") not in ("pending", "approved"):
            continue
        if not (str(req.get("end_date")) < start or str(req.get("start_date")) > end):
            return error(
                "pto_overlap",
                f"Requested dates overlap with existing PTO request {req.get('start_date')} to "
                f"{req.get('end_date')} (case {req.get('case_id')})",
                overlapping_case_id=req.get("case_id"),
            )
    return None


@TOOLS.tool
def get_pto_balance(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Both balances plus the schedule type that decides how days are counted."""
    emp_id = params["employee_id"]
    if err := require(db, "employee_auth"):
        return err
    emp, err = employee(db, emp_id)
    if err or emp is None:
        return err or {}
    sched = _schedule_type(emp)
    balances = emp.get("pto_balances")
    if not balances:
        return error("pto_record_not_found", f"No PTO balance record found for {emp_id}")
    return success(
        employee_id=emp_id,
        schedule_type=sched,
        pto_balances=dict(balances),
        message=f"PTO balances retrieved. Schedule type: {sched}",
    )


@TOOLS.tool
def check_pto_eligibility(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The exact days that count and the deduction, so the caller can confirm them."""
    c, err = _pto_check(params, db, full=True)
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
    """Deduct the counted days and file the request (EVA: date range and balance only)."""
    c, err = _pto_check(params, db, full=False)
    if err:
        return err
    emp = c["emp"]
    emp_id = params["employee_id"]
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
