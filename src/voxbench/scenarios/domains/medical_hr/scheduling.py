"""Appointment availability and the three bookable follow-ups.

Orientation follow-ups, return-to-work check-ins and competency reviews share one
availability table (`appointment_availability[type][department][date] -> [HH:MM]`);
booking removes the slot so it cannot be offered twice.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    Result,
    case_id,
    employee,
    fmt,
    parse_date,
    parse_datetime,
    provider,
    require,
    take_slot,
)


@TOOLS.tool
def check_appointment_availability(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Open slots on the preferred date, else up to three dates from it that have openings."""
    if err := require(db, "employee_auth", "otp_auth"):
        return err
    day, err = parse_date(params["preferred_date"], "preferred_date")
    if err or day is None:
        return err or {}
    dept = params["department_code"]
    appt_type = params["appointment_type"]
    table = ((db.get("appointment_availability") or {}).get(appt_type) or {}).get(dept) or {}
    slots = list(table.get(day.isoformat()) or [])
    if slots:
        return success(
            available_slots=slots,
            date=day.isoformat(),
            message=f"{len(slots)} slot(s) available on {day.isoformat()}",
        )
    alternatives = [
        {"date": d, "available_slots": list(table[d])}
        for d in sorted(table)
        if table[d] and d >= day.isoformat()
    ][:3]
    return success(
        available_slots=[],
        date=day.isoformat(),
        alternative_dates=alternatives,
        message=f"No availability on {day.isoformat()} for {appt_type} in {dept}",
    )


@TOOLS.tool
def schedule_orientation_followup(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Book a new hire's orientation follow-up in a slot confirmed as open."""
    emp_id, err = fmt("employee_id", params["employee_id"], "employee_id")
    if err:
        return err
    when, err = parse_datetime(params["appointment_datetime"])
    if err or when is None:
        return err or {}
    if err := require(db, "employee_auth", "otp_auth"):
        return err
    emp, err = employee(db, emp_id)
    if err or emp is None:
        return err or {}
    dept = params["department_code"]
    if err := take_slot(db, "orientation_followup", dept, *when):
        return err
    appt_id = case_id("ORI", emp_id)
    stamp = f"{when[0]} {when[1]}"
    emp.setdefault("scheduled_appointments", []).append(
        {
            "appointment_id": appt_id,
            "type": "orientation_followup",
            "department_code": dept,
            "appointment_datetime": stamp,
            "status": "scheduled",
        }
    )
    return success(
        employee_id=emp_id,
        appointment_id=appt_id,
        department_code=dept,
        appointment_datetime=stamp,
        message=f"Orientation follow-up scheduled for {stamp}. Appointment ID: {appt_id}",
    )


@TOOLS.tool
def schedule_return_to_work_checkin(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Book the check-in tied to an FMLA case, never before the leave ends."""
    emp_id, err = fmt("employee_id", params["employee_id"], "employee_id")
    if err:
        return err
    fmla_id, err = fmt("case_id", params["case_id"], "case_id")
    if err:
        return err
    when, err = parse_datetime(params["appointment_datetime"])
    if err or when is None:
        return err or {}
    if err := require(db, "otp_auth"):
        return err
    emp, err = employee(db, emp_id)
    if err or emp is None:
        return err or {}
    case = next((r for r in emp.get("leave_records") or [] if r.get("case_id") == fmla_id), None)
    leave_end = str((case or {}).get("leave_end_date") or (case or {}).get("end_date") or "")
    if case is not None and when[0] < leave_end:  # EVA books against an unknown case anyway
        return error(
            "appointment_before_leave_end",
            "Return-to-work check-in must be scheduled on or after the leave end date "
            f"({leave_end}). Requested date: {when[0]}",
        )
    if err := take_slot(db, "return_to_work_checkin", params["department_code"], *when):
        return err
    appt_id = case_id("RTW", emp_id)
    stamp = f"{when[0]} {when[1]}"
    emp.setdefault("scheduled_appointments", []).append(
        {
            "appointment_id": appt_id,
            "type": "return_to_work_checkin",
            "fmla_case_id": fmla_id,
            "appointment_datetime": stamp,
            "status": "scheduled",
        }
    )
    return success(
        employee_id=emp_id,
        appointment_id=appt_id,
        case_id=fmla_id,
        appointment_datetime=stamp,
        message=f"Return-to-work check-in scheduled for {stamp}. Appointment ID: {appt_id}",
    )


@TOOLS.tool
def schedule_competency_review(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Book the competency review that must precede privilege reactivation."""
    npi, err = fmt("npi", params["npi"], "npi")
    if err:
        return err
    when, err = parse_datetime(params["appointment_datetime"])
    if err or when is None:
        return err or {}
    if err := require(db, "otp_auth"):
        return err
    prov, err = provider(db, npi)
    if err or prov is None:
        return err or {}
    dept = params["department_code"]
    if err := take_slot(db, "competency_review", dept, *when):
        return err
    appt_id = case_id("CMP", str(prov.get("employee_id") or npi))
    stamp = f"{when[0]} {when[1]}"
    prov.setdefault("scheduled_appointments", []).append(
        {
            "appointment_id": appt_id,
            "type": "competency_review",
            "department_code": dept,
            "appointment_datetime": stamp,
            "status": "scheduled",
        }
    )
    return success(
        npi=npi,
        appointment_id=appt_id,
        department_code=dept,
        appointment_datetime=stamp,
        message=f"Competency review scheduled for {stamp}. Appointment ID: {appt_id}",
    )
