"""Clinical privilege reactivation after leave, and the EHR access that follows it.

Flow (policy): OTP, occupational-health clearance code, competency review booked, then
the privileges the caller confirmed are reactivated, then EHR access is restored. EVA's
tools check only OTP and the clearance code; a reactivation sets each found code active
as it goes, so found codes stay active even when another code is unknown.
"""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    Result,
    case_id,
    provider,
    require,
)


def _privileged_provider(
    params: dict[str, Any], db: dict[str, Any]
) -> tuple[dict[str, Any] | None, Result | None]:
    if err := require(db, "otp_auth"):
        return None, err
    return provider(db, params["npi"])


def _clearance(prov: dict[str, Any], code: str) -> Result | None:
    if not prov.get("clearance_code") or code != str(prov.get("clearance_code")):
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
        return error("privilege_record_not_found", f"No privilege record found for NPI {prov.get('npi')}")
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
    return success(
        eligible=True,
        suspended_privilege_codes=suspended,
        message=f"Clearance verified. {len(suspended)} suspended privilege(s) available for reactivation",
    )


@TOOLS.tool
def reactivate_privileges(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Reactivate the confirmed privileges (EVA: no suspended or competency-review check)."""
    prov, err = _privileged_provider(params, db)
    if err or prov is None:
        return err or {}
    codes: list[str] = list(params["privilege_codes"])
    if err := _clearance(prov, params["clearance_code"]):
        return err
    by_code = {p.get("code"): p for p in (prov.get("privileges") or {}).get("privilege_list") or []}
    missing = []
    for code in codes:  # EVA writes as it goes: found codes stay active on a later miss
        if code in by_code:
            by_code[code]["status"] = "active"
        else:
            missing.append(code)
    if missing:
        return error("privilege_not_found", f"Privilege code(s) not found: {', '.join(missing)}")
    cid = case_id("PRV", str(prov.get("employee_id")))
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
    cid = params["case_id"]
    change = params["access_change_type"]
    prov["ehr_access_status"] = change
    prov["ehr_access_case_id"] = cid
    return success(
        npi=prov.get("npi"),
        case_id=cid,
        access_change_type=change,
        message=f"EHR access updated to {change}",
    )
