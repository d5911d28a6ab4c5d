"""Identity verification, shared lookups and the live-agent transfer."""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, session, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    Result,
    base_auth,
    display_name,
    employee,
    fmt,
    parse_date,
    provider,
)


@TOOLS.tool
def verify_employee_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Standard verification: employee ID plus date of birth."""
    emp_id, err = fmt("employee_id", params["employee_id"], "employee_id")
    if err:
        return err
    dob, err = parse_date(params["date_of_birth"], "date_of_birth")
    if err or dob is None:
        return err or {}
    emp = (db.get("employees") or {}).get(emp_id)
    if not isinstance(emp, dict) or emp.get("date_of_birth") != dob.isoformat():
        # One message for both cases so a caller cannot probe which ids exist.
        return error("authentication_failed", "Employee ID and date of birth do not match our records")
    s = session(db)
    s["employee_auth"] = True
    s["authenticated_employee_id"] = emp_id
    return success(
        authenticated=True,
        employee_id=emp_id,
        first_name=display_name(emp.get("first_name")),
        last_name=display_name(emp.get("last_name")),
        message=f"Employee {emp_id} authenticated successfully",
    )


@TOOLS.tool
def verify_provider_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Provider verification: NPI, home facility code and PIN."""
    npi, err = fmt("npi", params["npi"], "npi")
    if err:
        return err
    facility, err = fmt("facility_code", params["facility_code"], "facility_code")
    if err:
        return err
    pin, err = fmt("pin", params["pin"], "pin")
    if err:
        return err
    prov = (db.get("providers") or {}).get(npi)
    if not isinstance(prov, dict) or prov.get("facility_code") != facility or str(prov.get("pin")) != pin:
        return error("authentication_failed", "NPI, facility code and PIN do not match our records")
    s = session(db)
    s["provider_auth"] = True
    s["authenticated_npi"] = npi
    s["authenticated_employee_id"] = prov.get("employee_id")
    return success(
        authenticated=True,
        npi=npi,
        first_name=display_name(prov.get("first_name")),
        last_name=display_name(prov.get("last_name")),
        employee_id=prov.get("employee_id"),
        message=f"Provider NPI {npi} authenticated successfully",
    )


def _phone_record(db: dict[str, Any], emp_id: str) -> dict[str, Any] | None:
    """The record holding the caller's phone and OTP: employee file, else provider file."""
    emp = (db.get("employees") or {}).get(emp_id)
    if isinstance(emp, dict):
        return emp
    for prov in (db.get("providers") or {}).values():
        if isinstance(prov, dict) and prov.get("employee_id") == emp_id:
            return prov
    return None


@TOOLS.tool
def initiate_otp_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Send an OTP to the phone on file; only after base verification, as policy requires."""
    emp_id, err = fmt("employee_id", params["employee_id"], "employee_id")
    if err:
        return err
    if err := base_auth(db):
        return err
    s = session(db)
    if s.get("authenticated_employee_id") not in (None, emp_id):
        return error(
            "authentication_mismatch",
            f"Employee {emp_id} is not the verified caller; the passcode must go to the verified caller's phone",
        )
    rec = _phone_record(db, emp_id)
    if rec is None:
        return error("employee_not_found", f"No employee found with ID {emp_id}")
    last_four = rec.get("phone_last_four")
    s["otp_issued"] = True
    s["otp_employee_id"] = emp_id
    return success(
        phone_last_four=last_four,
        message=f"OTP sent to number ending in {last_four}. Ask the caller to read the code.",
    )


@TOOLS.tool
def verify_otp_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Check the passcode the caller reads back from their text message."""
    emp_id, err = fmt("employee_id", params["employee_id"], "employee_id")
    if err:
        return err
    code = "".join(params["otp_code"].split())
    s = session(db)
    if s.get("otp_issued") is not True or s.get("otp_employee_id") != emp_id:
        return error(
            "otp_not_initiated", f"No one-time passcode has been sent for {emp_id}; initiate OTP first"
        )
    rec = _phone_record(db, emp_id)
    if rec is None:
        return error("employee_not_found", f"No employee found with ID {emp_id}")
    if not code.isdigit() or len(code) != 6:
        return error("invalid_otp_code", f"Invalid otp_code '{params['otp_code']}': expected 6 digits")
    if str(rec.get("otp_code")) != code:
        return error(
            "invalid_otp", "The one-time passcode does not match. Ask the caller to check their messages."
        )
    s["otp_auth"] = True
    return success(
        authenticated=True,
        employee_id=emp_id,
        first_name=display_name(rec.get("first_name")),
        message=f"OTP verified. Employee {emp_id} authenticated successfully.",
    )


@TOOLS.tool
def get_provider_profile(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Public profile fields only: PINs, OTPs and clearance codes never leave the record."""
    npi, err = fmt("npi", params["npi"], "npi")
    if err:
        return err
    if err := base_auth(db):
        return err
    prov, err = provider(db, npi)
    if err or prov is None:
        return err or {}
    return success(
        provider={
            "npi": prov.get("npi"),
            "employee_id": prov.get("employee_id"),
            "first_name": display_name(prov.get("first_name")),
            "last_name": display_name(prov.get("last_name")),
            "facility_code": prov.get("facility_code"),
            "role_code": prov.get("role_code"),
            "department_code": prov.get("department_code"),
            "hire_date": prov.get("hire_date"),
        }
    )


@TOOLS.tool
def get_employee_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Employment summary; sensitive fields (DOB, phone, OTP) stay out of the response."""
    emp_id, err = fmt("employee_id", params["employee_id"], "employee_id")
    if err:
        return err
    if err := base_auth(db):
        return err
    emp, err = employee(db, emp_id)
    if err or emp is None:
        return err or {}
    return success(
        employee={
            "employee_id": emp.get("employee_id"),
            "first_name": display_name(emp.get("first_name")),
            "last_name": display_name(emp.get("last_name")),
            "department_code": emp.get("department_code"),
            "role_code": emp.get("role_code"),
            "unit_code": emp.get("unit_code"),
            "hire_date": emp.get("hire_date"),
            "employment_status": emp.get("employment_status"),
        }
    )


@TOOLS.tool
def transfer_to_agent(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Hand the call to a person; writes nothing, works even before verification."""
    emp_id = params["employee_id"].strip().upper()
    summary = params["issue_summary"]
    if not summary.strip():
        return error("invalid_issue_summary", "issue_summary must describe the caller's request")
    return success(
        transfer_id=f"TRF-{emp_id}-{call_index:03d}",
        employee_id=emp_id,
        transfer_reason=params["transfer_reason"],
        issue_summary=summary,
        estimated_wait="2-3 minutes",
        message="Transferring to live agent",
    )
