"""On-call availability registration for a unit."""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    Result,
    base_auth,
    case_id,
    employee,
    fmt,
    parse_date,
    unit_requirements,
)


def _employee_unit(
    params: dict[str, Any], db: dict[str, Any]
) -> tuple[dict[str, Any] | None, str, Result | None]:
    emp_id, err = fmt("employee_id", params["employee_id"], "employee_id")
    if err:
        return None, "", err
    unit, err = fmt("unit_code", params["unit_code"], "unit_code")
    if err:
        return None, unit, err
    if err := base_auth(db):
        return None, unit, err
    emp, err = employee(db, emp_id)
    return emp, unit, err


def _oncall_block(emp: dict[str, Any], unit: str, db: dict[str, Any]) -> Result | None:
    """Employees on leave, or lacking the unit's certifications, cannot go on call."""
    if emp.get("employment_status") == "on_leave":
        return error("employee_on_leave", "Employee is on leave and cannot register for on-call shifts")
    required, err = unit_requirements(db, unit)
    if err or required is None:
        return err
    held = set(emp.get("certifications") or [])
    missing = [c for c in required if c not in held]
    if missing:
        return error(
            "certification_missing",
            f"Employee {emp.get('employee_id')} is missing required certifications for {unit}: {missing}",
            missing_certs=missing,
        )
    return None


def _registrations(emp: dict[str, Any]) -> list[dict[str, Any]]:
    sched = emp.setdefault("oncall_schedule", {})
    regs: list[dict[str, Any]] = sched.setdefault("registrations", [])
    return regs


@TOOLS.tool
def get_oncall_schedule(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The employee's existing registrations on this unit, to spot conflicts."""
    emp, unit, err = _employee_unit(params, db)
    if err or emp is None:
        return err or {}
    regs = [
        r for r in (emp.get("oncall_schedule") or {}).get("registrations") or [] if r.get("unit_code") == unit
    ]
    return success(
        employee_id=emp.get("employee_id"), unit_code=unit, oncall_schedule={"registrations": regs}
    )


@TOOLS.tool
def check_oncall_eligibility(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Eligibility gate: not on leave and holding the unit's certifications."""
    emp, unit, err = _employee_unit(params, db)
    if err or emp is None:
        return err or {}
    if err := _oncall_block(emp, unit, db):
        return err
    return success(
        eligible=True,
        employee_id=emp.get("employee_id"),
        unit_code=unit,
        message="Employee is eligible to register for on-call on this unit",
    )


@TOOLS.tool
def register_oncall_availability(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Register a window (with blackout dates inside it) as primary or backup on-call."""
    start, err = parse_date(params["availability_start_date"], "availability_start_date")
    if err or start is None:
        return err or {}
    end, err = parse_date(params["availability_end_date"], "availability_end_date")
    if err or end is None:
        return err or {}
    if end < start:
        return error("invalid_date_range", "The availability end date must be on or after the start date")
    blackouts: list[str] = []
    for raw in params["blackout_dates"]:
        d, err = parse_date(str(raw), "blackout_dates")
        if err or d is None:
            return err or {}
        if not start <= d <= end:
            return error(
                "blackout_outside_window",
                f"Blackout date {d.isoformat()} is outside the availability window "
                f"{start.isoformat()} to {end.isoformat()}",
            )
        if d.isoformat() not in blackouts:
            blackouts.append(d.isoformat())
    emp, unit, err = _employee_unit(params, db)
    if err or emp is None:
        return err or {}
    if err := _oncall_block(emp, unit, db):
        return err
    emp_id = str(emp.get("employee_id"))
    reg_id = case_id("ONC", emp_id)
    tier = params["oncall_tier"]
    _registrations(emp).append(
        {
            "registration_id": reg_id,
            "unit_code": unit,
            "availability_start_date": start.isoformat(),
            "availability_end_date": end.isoformat(),
            "oncall_tier": tier,
            "blackout_dates": blackouts,
            "status": "registered",
        }
    )
    return success(
        employee_id=emp_id,
        registration_id=reg_id,
        unit_code=unit,
        availability_start_date=start.isoformat(),
        availability_end_date=end.isoformat(),
        oncall_tier=tier,
        blackout_dates=blackouts,
        message=f"On-call availability registered. Registration ID: {reg_id}",
    )
