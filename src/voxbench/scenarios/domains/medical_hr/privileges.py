"""Clinical privilege reactivation after leave, and the EHR access that follows it.

Flow: employee (or provider) verification + OTP, occupational-health clearance code,
competency review booked, then only the privileges the caller confirmed are
reactivated, then EHR access is restored.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    Result,
    case_id,
    fmt,
    otp_auth,
    provider,
)


def _privileged_provider(
    params: dict[str, Any], db: dict[str, Any]
) -> tuple[dict[str, Any] | None, Result | None]:
    npi, err = fmt("npi", params["npi"], "npi")
    if err:
        return None, err
    if err := otp_auth(db):
        return None, err
    return provider(db, npi)


def _clearance(prov: dict[str, Any], raw: str) -> Result | None:
    code, err = fmt("clearance_code", raw, "clearance_code")
    if err:
        return err
    if not prov.get("clearance_code") or code != str(prov.get("clearance_code")).upper():
        return error("invalid_clearance_code", "Clearance code does not match occupational health records")
    return None


def _suspended(prov: dict[str, Any]) -> list[str]:
    return [
        p.get("code")
        for p in (prov.get("privileges") or {}).get("privilege_list") or []
        if p.get("status") == "suspended"
    ]


@TOOLS.tool
def get_privilege_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """All privileges with their status, so the caller can pick which to reactivate."""
    prov, err = _privileged_provider(params, db)
    if err or prov is None:
        return err or {}
    privileges = prov.get("privileges")
    if not isinstance(privileges, dict):
        return error("record_not_found", f"No privilege record found for NPI {prov.get('npi')}")
    return success(privileges=privileges)


@TOOLS.tool
def check_reactivation_eligibility(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Validate the clearance code and list what is suspended (and so reactivatable)."""
    prov, err = _privileged_provider(params, db)
    if err or prov is None:
        return err or {}
    if err := _clearance(prov, params["clearance_code"]):
        return err
    suspended = _suspended(prov)
    if not suspended:
        return error("no_suspended_privileges", "There are no suspended privileges to reactivate")
    return success(
        eligible=True,
        suspended_privilege_codes=suspended,
        message=f"Clearance verified. {len(suspended)} suspended privilege(s) available for reactivation",
    )


@TOOLS.tool
def reactivate_privileges(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Reactivate exactly the confirmed suspended privileges, after a competency review is booked."""
    prov, err = _privileged_provider(params, db)
    if err or prov is None:
        return err or {}
    codes: list[str] = []
    for raw in params["privilege_codes"]:
        code, err = fmt("privilege_code", raw, "privilege_codes")
        if err:
            return err
        if code not in codes:
            codes.append(code)
    if not codes:
        return error("invalid_privilege_codes", "At least one privilege code is required")
    if err := _clearance(prov, params["clearance_code"]):
        return err
    by_code = {p.get("code"): p for p in (prov.get("privileges") or {}).get("privilege_list") or []}
    for code in codes:
        if code not in by_code:
            return error("privilege_not_found", f"Privilege {code} not found for NPI {prov.get('npi')}")
        if by_code[code].get("status") != "suspended":
            return error(
                "privilege_not_suspended", f"Privilege {code} is not suspended and cannot be reactivated"
            )
    booked = any(
        a.get("type") == "competency_review" and a.get("status") == "scheduled"
        for a in prov.get("scheduled_appointments") or []
    )
    if not booked:
        return error(
            "competency_review_required",
            "A competency review appointment must be scheduled before privileges can be reactivated",
        )
    cid = case_id("PRV", str(prov.get("employee_id")))
    for code in codes:
        by_code[code]["status"] = "active"
    prov["privileges"]["reactivation_case_id"] = cid
    return success(
        npi=prov.get("npi"),
        activated_privileges=codes,
        leave_type_on_record=params["leave_type_on_record"],
        case_id=cid,
        message=f"Privileges reactivated. Case ID: {cid}",
    )


@TOOLS.tool
def update_ehr_access(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Restore EHR access (full or restricted) under the reactivation case."""
    prov, err = _privileged_provider(params, db)
    if err or prov is None:
        return err or {}
    cid, err = fmt("case_id", params["case_id"], "case_id")
    if err:
        return err
    if cid != (prov.get("privileges") or {}).get("reactivation_case_id"):
        return error(
            "case_not_found", f"No privilege reactivation case {cid} found for NPI {prov.get('npi')}"
        )
    change = params["access_change_type"]
    prov["ehr_access_status"] = change
    prov["ehr_access_case_id"] = cid
    return success(
        npi=prov.get("npi"),
        case_id=cid,
        access_change_type=change,
        message=f"EHR access updated to {change}",
    )
