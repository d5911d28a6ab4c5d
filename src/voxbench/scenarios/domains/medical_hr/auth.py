"""Identity verification, shared lookups and the live-agent transfer (EVA's rules).

Names are returned as stored; records list only the fields they hold; each failure
has its own message (unknown id, wrong date of birth, wrong facility, wrong PIN).
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, session, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import Result, employee, provider, require

_PROVIDER_FIELDS = (
    "npi",
    "employee_id",
    "first_name",
    "last_name",
    "facility_code",
    "role_code",
    "department_code",
    "hire_date",
)
_EMPLOYEE_FIELDS = (
    "employee_id",
    "first_name",
    "last_name",
    "department_code",
    "role_code",
    "unit_code",
    "hire_date",
    "employment_status",
)


@TOOLS.tool
def verify_employee_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Standard verification: employee ID plus date of birth."""
    emp_id = params["employee_id"]
    emp, err = employee(db, emp_id)
    if err or emp is None:
        return err or {}
    if emp.get("date_of_birth") != params["date_of_birth"]:
        return error("authentication_failed", "Date of birth does not match records for this employee ID")
    s = session(db)
    s["employee_auth"] = True
    s["authenticated_employee_id"] = emp_id
    return success(
        authenticated=True,
        employee_id=emp_id,
        first_name=emp.get("first_name"),
        last_name=emp.get("last_name"),
        message=f"Employee {emp_id} authenticated successfully",
    )


@TOOLS.tool
def verify_provider_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Provider verification: NPI, home facility code and PIN."""
    npi = params["npi"]
    prov, err = provider(db, npi)
    if err or prov is None:
        return err or {}
    if prov.get("facility_code") != params["facility_code"]:
        return error("authentication_failed", "Facility code does not match records for this NPI")
    if str(prov.get("pin")) != params["pin"]:
        return error("authentication_failed", "PIN does not match records for this NPI")
    s = session(db)
    s["provider_auth"] = True
    s["authenticated_npi"] = npi
    s["authenticated_employee_id"] = prov.get("employee_id")
    return success(
        authenticated=True,
        npi=npi,
        first_name=prov.get("first_name"),
        last_name=prov.get("last_name"),
        employee_id=prov.get("employee_id"),
        message=f"Provider NPI {npi} authenticated successfully",
    )


@TOOLS.tool
def initiate_otp_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Send an OTP to the employee's phone on file (EVA: no prior verification needed)."""
    emp_id = params["employee_id"]
    emp, err = employee(db, emp_id)
    if err or emp is None:
        return err or {}
    last_four = emp.get("phone_last_four")
    s = session(db)
    s["otp_issued"] = True
    s["otp_employee_id"] = emp_id
    return success(
        phone_last_four=last_four,
        message=f"OTP sent to number ending in {last_four}. Ask the caller to read the code.",
    )


@TOOLS.tool
def verify_otp_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Check the passcode the caller reads back; success also sets the authenticated id."""
    emp_id = params["employee_id"]
    s = session(db)
    if s.get("otp_issued") is not True:
        return error("otp_not_initiated", "OTP has not been initiated. Call initiate_otp_auth first.")
    emp, err = employee(db, emp_id)
    if err or emp is None:
        return err or {}
    if str(emp.get("otp_code")) != params["otp_code"]:
        return error(
            "authentication_failed", "OTP code does not match. Ask the caller to read the code again."
        )
    s["otp_auth"] = True
    s["authenticated_employee_id"] = emp_id
    return success(
        authenticated=True,
        employee_id=emp_id,
        first_name=emp.get("first_name"),
        message=f"OTP verified. Employee {emp_id} authenticated successfully.",
    )


@TOOLS.tool
def get_provider_profile(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Public profile fields only: PINs, OTPs and clearance codes never leave the record."""
    if err := require(db, "provider_auth", "otp_auth"):
        return err
    prov, err = provider(db, params["npi"])
    if err or prov is None:
        return err or {}
    return success(provider={f: prov[f] for f in _PROVIDER_FIELDS if f in prov})


@TOOLS.tool
def get_employee_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Employment summary; sensitive fields (DOB, phone, OTP) stay out of the response."""
    if err := require(db, "employee_auth", "otp_auth"):
        return err
    emp, err = employee(db, params["employee_id"])
    if err or emp is None:
        return err or {}
    return success(employee={f: emp[f] for f in _EMPLOYEE_FIELDS if f in emp})


@TOOLS.tool
def transfer_to_agent(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Hand the call to a person; writes nothing, works even before verification."""
    emp_id = params["employee_id"]
    return success(
        transfer_id=f"TRF-{emp_id}-{call_index:03d}",
        employee_id=emp_id,
        transfer_reason=params["transfer_reason"],
        issue_summary=params["issue_summary"],
        estimated_wait="2-3 minutes",
        message="Transferring to live agent",
    )
