"""New-hire onboarding tasks and I-9 work-authorization verification (EVA's rules:
employee auth; the I-9 submission checks only that the employee exists)."""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains._common import error, success
from voxbench.scenarios.domains.medical_hr import TOOLS
from voxbench.scenarios.domains.medical_hr._base import (
    Result,
    case_id,
    employee,
    notify,
    parse_date,
    require,
)


def _employee(
    params: dict[str, Any], db: dict[str, Any], *levels: str
) -> tuple[dict[str, Any] | None, Result | None]:
    if err := require(db, *(levels or ("employee_auth",))):
        return None, err
    return employee(db, params["employee_id"])


def _checklist(emp: dict[str, Any]) -> dict[str, Any] | None:
    """The checklist, or None when it is missing or empty (EVA: any falsy value)."""
    cl = emp.get("onboarding_checklist")
    return cl if isinstance(cl, dict) and cl else None


@TOOLS.tool
def get_onboarding_checklist(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """All onboarding tasks with their status."""
    emp, err = _employee(params, db, "employee_auth", "otp_auth")
    if err or emp is None:
        return err or {}
    cl = _checklist(emp)
    if cl is None:
        return error("checklist_not_found", f"No onboarding checklist found for {emp.get('employee_id')}")
    return success(onboarding_checklist=cl)


@TOOLS.tool
def complete_onboarding_task(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Mark a task done once its completion code checks out (any case; a task without a
    stored code takes any code)."""
    code = params["completion_code"]
    emp, err = _employee(params, db, "employee_auth", "otp_auth")
    if err or emp is None:
        return err or {}
    emp_id = emp.get("employee_id")
    cl = _checklist(emp)
    if cl is None:
        return error("checklist_not_found", f"No onboarding checklist found for {emp_id}")
    tasks: dict[str, Any] = cl.get("tasks") or {}
    task_code = params["task_code"]
    task = tasks.get(task_code)
    if not isinstance(task, dict):
        return error("task_not_found", f"Task {task_code} not in checklist for {emp_id}")
    if task.get("status") == "complete":
        return error("task_already_complete", f"Task {task_code} is already marked complete")
    stored = task.get("completion_code")
    if stored and str(stored).upper() != code.upper():
        return error(
            "invalid_completion_code",
            f"Completion code does not match for task {task_code}. Please verify and try again.",
        )
    task["status"] = "complete"
    remaining = [k for k, t in tasks.items() if isinstance(t, dict) and t.get("status") != "complete"]
    return success(
        employee_id=emp_id,
        task_code=task_code,
        remaining_tasks=remaining,
        message=f"Task {task_code} marked complete. {len(remaining)} task(s) remaining.",
    )


# ── I-9 ──────────────────────────────────────────────────────────────────────


@TOOLS.tool
def get_i9_record(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """The I-9 on file; a missing one is what makes reverification impossible."""
    emp, err = _employee(params, db)
    if err or emp is None:
        return err or {}
    rec = emp.get("i9_record")
    if not isinstance(rec, dict):
        return error("i9_record_not_found", f"No I-9 record found for {emp.get('employee_id')}")
    return success(i9_record=rec)


@TOOLS.tool
def submit_i9_verification(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Record the I-9 verification (EVA: creates the record when absent; no list, checklist
    or prior-record checks)."""
    doc_number, country = params["document_number"], params["issuing_country_code"]
    expires, err = parse_date(params["document_expiration_date"], "document_expiration_date")
    if err or expires is None:
        return err or {}
    list_type, doc_type = params["document_list_type"], params["document_type_code"]
    emp, err = _employee(params, db)
    if err or emp is None:
        return err or {}
    emp_id = params["employee_id"]
    action = params["verification_action"]
    rec = emp.get("i9_record")
    cid = case_id("I9V", emp_id)
    fields = {
        "verification_action": action,
        "document_list_type": list_type,
        "document_type_code": doc_type,
        "document_number": doc_number,
        "document_expiration_date": expires.isoformat(),
        "issuing_country_code": country,
    }
    if not isinstance(rec, dict):
        rec = {}
        emp["i9_record"] = rec
    rec.update(fields, verification_status="verified", case_id=cid)
    return success(
        employee_id=emp_id,
        **fields,
        case_id=cid,
        message=f"I-9 {action} completed. Case ID: {cid}",
    )


@TOOLS.tool
def notify_hr_compliance(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Report a completed I-9 verification or reverification to HR compliance."""
    cid = params["case_id"]
    emp, err = _employee(params, db)
    if err or emp is None:
        return err or {}
    emp_id = emp.get("employee_id")
    kind = params["notification_type"]
    notify(
        db, {"recipient": "hr_compliance", "employee_id": emp_id, "case_id": cid, "notification_type": kind}
    )
    return success(
        employee_id=emp_id,
        case_id=cid,
        notification_type=kind,
        message=f"HR compliance notified: {kind}",
    )
