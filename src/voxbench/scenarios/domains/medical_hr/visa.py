"""Visa petitions: adding a dependent, then telling immigration counsel (EVA's rules:
OTP auth only; the counsel notification does not check the petition)."""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    Result,
    case_id,
    employee,
    fmt,
    notify,
    parse_date,
    require,
)


def _petition(params: dict[str, Any], db: dict[str, Any]) -> tuple[dict[str, Any] | None, str, Result | None]:
    """Validate ids, require OTP, and find the employee's petition by its number."""
    emp_id, err = fmt("employee_id", params["employee_id"], "employee_id")
    if err:
        return None, "", err
    number, err = fmt("petition_number", params["visa_petition_number"], "visa_petition_number")
    if err:
        return None, "", err
    if err := require(db, "otp_auth"):
        return None, "", err
    emp, err = employee(db, emp_id)
    if err or emp is None:
        return None, "", err
    rec = emp.get("visa_record")
    if not isinstance(rec, dict) or rec.get("petition_number") != number:
        return None, "", error("visa_record_not_found", f"Visa petition {number} not found for {emp_id}")
    return rec, emp_id, None


@TOOLS.tool
def get_visa_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The petition on file, reviewed before any amendment."""
    rec, _, err = _petition(params, db)
    if err or rec is None:
        return err or {}
    return success(visa_record=rec)


@TOOLS.tool
def add_visa_dependent(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Amend the petition with a dependent; the USCIS receipt is a separate identifier."""
    first, err = fmt("person_name", params["dependent_first_name"], "dependent_first_name", upper=False)
    if err:
        return err
    last, err = fmt("person_name", params["dependent_last_name"], "dependent_last_name", upper=False)
    if err:
        return err
    dob, err = parse_date(params["dependent_date_of_birth"], "dependent_date_of_birth")
    if err or dob is None:
        return err or {}
    country, err = fmt("country_code", params["dependent_country_of_birth"], "dependent_country_of_birth")
    if err:
        return err
    receipt, err = fmt("petition_number", params["uscis_receipt_number"], "uscis_receipt_number")
    if err:
        return err
    rec, emp_id, err = _petition(params, db)
    if err or rec is None:
        return err or {}
    amendment = case_id("VISA", emp_id)
    relationship = params["relationship"]
    rec.setdefault("dependents", []).append(
        {
            "first_name": first,
            "last_name": last,
            "relationship": relationship,
            "date_of_birth": dob.isoformat(),
            "country_of_birth": country,
            "uscis_receipt_number": receipt,
            "amendment_id": amendment,
            "status": "pending",
        }
    )
    rec["amendment_id"] = amendment
    return success(
        employee_id=emp_id,
        visa_petition_number=rec.get("petition_number"),
        dependent_name=f"{first} {last}",
        relationship=relationship,
        dependent_date_of_birth=dob.isoformat(),
        dependent_country_of_birth=country,
        uscis_receipt_number=receipt,
        amendment_id=amendment,
        message=f"Dependent added to petition {rec.get('petition_number')}. Amendment ID: {amendment}",
    )


@TOOLS.tool
def notify_immigration_counsel(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Report the petition change to immigration counsel, with the number as given."""
    if err := require(db, "otp_auth"):
        return err
    emp_id, number = params["employee_id"], params["visa_petition_number"]
    _, err = employee(db, emp_id)
    if err:
        return err
    kind = params["notification_type"]
    notify(
        db,
        {
            "recipient": "immigration_counsel",
            "employee_id": emp_id,
            "visa_petition_number": number,
            "notification_type": kind,
        },
    )
    return success(
        employee_id=emp_id,
        visa_petition_number=number,
        notification_type=kind,
        message=f"Immigration counsel notified: {kind}",
    )
