"""Identity verification tools: standard, OTP (elevated) and manager verification.

Auth state lives in `db["session"]`; the expected databases check `employee_auth`,
`authenticated_employee_id`, `otp_auth`, `manager_auth` and `manager_employee_id`.
Names are returned as stored, as EVA does.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, session, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import Result, get_employee, require_auth

_PHONE_MISMATCH = "Phone number does not match"


@TOOLS.tool
def verify_employee_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Standard verification: employee ID + phone last four."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    if str(emp.get("phone_last_four")) != params["phone_last_four"]:
        return error("authentication_failed", _PHONE_MISMATCH)
    s = session(db)
    s["employee_auth"] = True
    s["authenticated_employee_id"] = emp["employee_id"]
    return success(
        authenticated=True,
        employee_id=emp["employee_id"],
        first_name=emp.get("first_name"),
        last_name=emp.get("last_name"),
        message=f"Employee {emp['employee_id']} authenticated",
    )


@TOOLS.tool
def initiate_otp_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Send an OTP (EVA: after employee auth, to any existing employee)."""
    err = require_auth(db)
    if err is not None:
        return err
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    s = session(db)
    s["otp_issued"] = True
    s["otp_employee_id"] = emp["employee_id"]
    phone = str(emp.get("phone_last_four"))
    return success(phone_last_four=phone, message=f"OTP sent to ***{phone}")


@TOOLS.tool
def verify_otp_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Check the 6-digit code; a verified OTP is consumed (EVA clears the issue flags)."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    s = session(db)
    if not s.get("otp_issued"):
        return error("otp_not_initiated", "Call initiate_otp_auth first")
    if str(emp.get("otp_code")) != params["otp_code"]:
        return error("authentication_failed", "OTP does not match")
    s["otp_auth"] = True
    s.pop("otp_employee_id", None)
    s.pop("otp_issued", None)
    return success(authenticated=True, employee_id=emp["employee_id"], message="OTP verified")


@TOOLS.tool
def verify_manager_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Standard + manager verification in one step (acting for another employee)."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or {}
    if str(emp.get("phone_last_four")) != params["phone_last_four"]:
        return error("authentication_failed", _PHONE_MISMATCH)
    if emp.get("manager_auth_code") != params["manager_auth_code"]:
        return error("authentication_failed", "Manager auth code does not match")
    if not emp.get("is_manager"):
        return error("not_authorized", f"{emp['employee_id']} is not a manager")
    s = session(db)
    s["employee_auth"] = True
    s["authenticated_employee_id"] = emp["employee_id"]
    s["manager_auth"] = True
    s["manager_employee_id"] = emp["employee_id"]
    return success(
        confirmed=True,
        employee_id=emp["employee_id"],
        first_name=emp.get("first_name"),
        last_name=emp.get("last_name"),
        department_code=emp.get("department_code"),
        direct_reports=list(emp.get("direct_reports") or []),
        message="Standard + manager auth confirmed",
    )
