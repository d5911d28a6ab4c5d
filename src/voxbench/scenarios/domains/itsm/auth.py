"""Identity verification tools: standard, OTP (elevated) and manager verification.

Auth state lives in `db["session"]`; the expected databases check `employee_auth`,
`authenticated_employee_id`, `otp_auth`, `manager_auth` and `manager_employee_id`.
"""

from __future__ import annotations

import re
from typing import Any

from voxbench.scenarios.domains._common import error, session, success
from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.domains.itsm._base import (
    Result,
    check_format,
    display_name,
    get_employee,
    require_auth,
)

_PHONE_RE = re.compile(r"^\d{4}$")
_OTP_RE = re.compile(r"^\d{6}$")
_MGR_CODE_RE = re.compile(r"^[A-Z0-9]{6}$")


def _check_phone(emp: dict[str, Any], phone: str) -> Result | None:
    err = check_format(phone, _PHONE_RE, "phone_last_four", "7294")
    if err is not None:
        return err
    if str(emp.get("phone_last_four")) != phone:
        return error("authentication_failed", "Employee ID and phone number do not match our records.")
    return None


@TOOLS.tool
def verify_employee_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Standard verification: employee ID + phone last four."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or error("employee_not_found", "Employee not found")
    err = _check_phone(emp, params["phone_last_four"])
    if err is not None:
        return err
    s = session(db)
    s["employee_auth"] = True
    s["authenticated_employee_id"] = emp["employee_id"]
    return success(
        authenticated=True,
        employee_id=emp["employee_id"],
        first_name=display_name(emp.get("first_name")),
        last_name=display_name(emp.get("last_name")),
        message=f"Employee {emp['employee_id']} authenticated",
    )


@TOOLS.tool
def initiate_otp_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Send an OTP; elevated verification always starts from standard verification."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or error("employee_not_found", "Employee not found")
    err = require_auth(db)
    if err is not None:
        return err
    s = session(db)
    if s.get("authenticated_employee_id") not in (None, emp["employee_id"]):
        return error("authentication_required", "OTP can only be sent to the verified caller.")
    s["otp_issued"] = True
    s["otp_employee_id"] = emp["employee_id"]
    phone = str(emp.get("phone_last_four"))
    return success(phone_last_four=phone, message=f"OTP sent to ***{phone}")


@TOOLS.tool
def verify_otp_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Check the 6-digit code read back by the caller."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or error("employee_not_found", "Employee not found")
    err = check_format(params["otp_code"], _OTP_RE, "otp_code", "483920")
    if err is not None:
        return err
    s = session(db)
    if not s.get("otp_issued") or s.get("otp_employee_id") != emp["employee_id"]:
        return error("otp_not_initiated", "No OTP has been sent to this employee. Initiate OTP first.")
    if str(emp.get("otp_code")) != params["otp_code"]:
        return error("invalid_otp", "The code does not match. Ask the caller to check their messages.")
    s["otp_auth"] = True
    return success(authenticated=True, employee_id=emp["employee_id"], message="OTP verified")


@TOOLS.tool
def verify_manager_auth(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Standard + manager verification in one step (acting for another employee)."""
    emp, err = get_employee(db, params["employee_id"])
    if emp is None:
        return err or error("employee_not_found", "Employee not found")
    code = params["manager_auth_code"].strip().upper()
    err = check_format(code, _MGR_CODE_RE, "manager_auth_code", "K4M2P9")
    if err is not None:
        return err
    err = _check_phone(emp, params["phone_last_four"])
    if err is not None:
        return err
    if not emp.get("is_manager") or not emp.get("manager_auth_code"):
        return error("not_a_manager", f"Employee {emp['employee_id']} is not an authorized manager.")
    if str(emp.get("manager_auth_code")).upper() != code:
        return error("authentication_failed", "Manager authorization code does not match.")
    s = session(db)
    s["employee_auth"] = True
    s["authenticated_employee_id"] = emp["employee_id"]
    s["manager_auth"] = True
    s["manager_employee_id"] = emp["employee_id"]
    return success(
        confirmed=True,
        employee_id=emp["employee_id"],
        first_name=display_name(emp.get("first_name")),
        last_name=display_name(emp.get("last_name")),
        department_code=emp.get("department_code"),
        direct_reports=list(emp.get("direct_reports") or []),
        message="Standard + manager auth confirmed",
    )
