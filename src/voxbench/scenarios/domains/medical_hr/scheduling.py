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
    base_auth,
    case_id,
    employee,
    fmt,
    otp_auth,
    parse_date,
    parse_datetime,
    provider,
    take_slot,
    today,
)


@TOOLS.tool
def check_appointment_availability(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Open slots on the preferred date, else up to three other dates that have openings."""
    if err := base_auth(db):
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
    now = today(db).isoformat()
    alternatives = [d for d in sorted(table) if table[d] and d != day.isoformat() and d >= now][:3]
    msg = f"No {appt_type} slots available on {day.isoformat()} for {dept}."
    msg += (
        f" Alternative dates with openings: {', '.join(alternatives)}"
        if alternatives
        else " No alternative dates."
    )
    return success(
        available_slots=[],
        date=day.isoformat(),
        alternative_dates=alternatives,
        message=msg,
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
    if err := base_auth(db):
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
    if err := otp_auth(db):
        return err
    emp, err = employee(db, emp_id)
    if err or emp is None:
        return err or {}
    case = next((r for r in emp.get("leave_records") or [] if r.get("case_id") == fmla_id), None)
    if case is None:
        return error("case_not_found", f"FMLA case {fmla_id} not found for {emp_id}")
    leave_end = str(case.get("leave_end_date") or case.get("end_date") or "")
    if when[0] < leave_end:
        return error(
            "appointment_before_leave_end",
            f"The check-in must be on or after the leave end date {leave_end}",
            leave_end_date=leave_end,
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
    if err := otp_auth(db):
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
