"""On-call availability registration for a unit (EVA's rules: employee auth; an unknown
unit requires nothing; registration re-checks nothing and stores blackouts as given)."""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    Result,
    case_id,
    employee,
    parse_date,
    require,
)


def _employee_unit(
    params: dict[str, Any], db: dict[str, Any]
) -> tuple[dict[str, Any] | None, str, Result | None]:
    unit = params["unit_code"]
    if err := require(db, "employee_auth"):
        return None, unit, err
    emp, err = employee(db, params["employee_id"])
    return emp, unit, err


def _oncall_block(emp: dict[str, Any], unit: str, db: dict[str, Any]) -> Result | None:
    """Employees on leave, or lacking the unit's certifications, cannot go on call."""
    if emp.get("employment_status") == "on_leave":
        return error("employee_on_leave", "Employee is on leave and cannot register for on-call shifts")
    required = (db.get("unit_cert_requirements") or {}).get(unit) or []
    held = set(emp.get("certifications") or [])
    missing = sorted(c for c in required if c not in held)
    if missing:
        return error(
            "certification_missing",
            f"Missing certifications for unit {unit}: {missing}",
            missing_certs=missing,
        )
    return None


def _registrations(emp: dict[str, Any]) -> list[dict[str, Any]]:
    sched = emp.setdefault("oncall_schedule", {})
    regs: list[dict[str, Any]] = sched.setdefault("registrations", [])
    return regs


@TOOLS.tool
def get_oncall_schedule(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The employee's whole on-call schedule (all units), to spot conflicts."""
    emp, unit, err = _employee_unit(params, db)
    if err or emp is None:
        return err or {}
    return success(
        employee_id=emp.get("employee_id"), unit_code=unit, oncall_schedule=emp.get("oncall_schedule")
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
    blackouts: list[str] = list(params["blackout_dates"])
    for d in blackouts:
        if not start.isoformat() <= d <= end.isoformat():
            return error(
                "invalid_blackout_date",
                f"Blackout date {d} is outside the availability window ({start.isoformat()} \u2013 {end.isoformat()})",
            )
    emp, unit, err = _employee_unit(params, db)
    if err or emp is None:
        return err or {}
    emp_id = params["employee_id"]
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
