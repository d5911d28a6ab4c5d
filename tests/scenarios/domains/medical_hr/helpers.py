"""Login and assertion helpers shared by the medical_hr tool tests."""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.executor import ToolExecutor


def ok(out: dict[str, Any]) -> dict[str, Any]:
    assert out["status"] == "success", out
    return out


def employee_login(ex: ToolExecutor, emp_id: str, otp: bool = False) -> None:
    """Standard verification (and optionally OTP) as the employee on file."""
    emp = ex.db["employees"][emp_id]
    ok(ex.execute("verify_employee_auth", {"employee_id": emp_id, "date_of_birth": emp["date_of_birth"]}))
    if otp:
        ok(ex.execute("initiate_otp_auth", {"employee_id": emp_id}))
        ok(ex.execute("verify_otp_auth", {"employee_id": emp_id, "otp_code": emp["otp_code"]}))


def provider_login(ex: ToolExecutor, npi: str, otp: bool = False) -> None:
    """Provider verification (and optionally OTP) as the provider on file."""
    prov = ex.db["providers"][npi]
    ok(
        ex.execute(
            "verify_provider_auth", {"npi": npi, "facility_code": prov["facility_code"], "pin": prov["pin"]}
        )
    )
    if otp:
        ok(ex.execute("initiate_otp_auth", {"employee_id": prov["employee_id"]}))
        ok(ex.execute("verify_otp_auth", {"employee_id": prov["employee_id"], "otp_code": prov["otp_code"]}))
