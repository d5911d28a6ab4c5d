"""New-hire onboarding tasks and I-9 work-authorization verification."""

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
    notify,
    parse_date,
)

# Which I-9 list each document belongs to (USCIS Form I-9 lists of acceptable documents).
DOCUMENT_LIST = {
    "US_PASSPORT": "LIST_A",
    "PERM_RESIDENT_CARD": "LIST_A",
    "EAD": "LIST_A",
    "DRIVERS_LICENSE": "LIST_B",
    "STATE_ID": "LIST_B",
    "SSN_CARD": "LIST_C",
    "BIRTH_CERT": "LIST_C",
}


def _employee(params: dict[str, Any], db: dict[str, Any]) -> tuple[dict[str, Any] | None, Result | None]:
    emp_id, err = fmt("employee_id", params["employee_id"], "employee_id")
    if err:
        return None, err
    if err := base_auth(db):
        return None, err
    return employee(db, emp_id)


def _checklist(emp: dict[str, Any]) -> dict[str, Any] | None:
    """The checklist, or None when HR never initialised it (no `tasks` table at all)."""
    cl = emp.get("onboarding_checklist")
    if not isinstance(cl, dict) or not isinstance(cl.get("tasks"), dict):
        return None
    return cl


@TOOLS.tool
def get_onboarding_checklist(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """All onboarding tasks with their status."""
    emp, err = _employee(params, db)
    if err or emp is None:
        return err or {}
    cl = _checklist(emp)
    if cl is None:
        return error("checklist_not_found", f"No onboarding checklist found for {emp.get('employee_id')}")
    return success(onboarding_checklist=cl)


@TOOLS.tool
def complete_onboarding_task(params: dict[str, Any], db: dict[str, Any], call_index: int) -> Result:
    """Mark one pending task done once its completion code checks out."""
    code, err = fmt("completion_code", params["completion_code"], "completion_code")
    if err:
        return err
    emp, err = _employee(params, db)
    if err or emp is None:
        return err or {}
    emp_id = emp.get("employee_id")
    cl = _checklist(emp)
    if cl is None:
        return error("checklist_not_found", f"No onboarding checklist found for {emp_id}")
    tasks: dict[str, Any] = cl["tasks"]
    task_code = params["task_code"]
    task = tasks.get(task_code)
    if not isinstance(task, dict):
        return error("task_not_found", f"Task {task_code} is not on the onboarding checklist for {emp_id}")
    if task.get("status") != "pending":
        return error("task_not_pending", f"Task {task_code} is already {task.get('status')}")
    if str(task.get("completion_code") or "").upper() != code:
        return error("invalid_completion_code", f"The completion code for {task_code} does not match")
    task["status"] = "complete"
    remaining = [k for k, t in tasks.items() if isinstance(t, dict) and t.get("status") == "pending"]
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
    """Initial verification needs a live new-hire record; reverification needs a prior I-9."""
    doc_number, err = fmt("document_number", params["document_number"], "document_number", upper=False)
    if err:
        return err
    country, err = fmt("country_code", params["issuing_country_code"], "issuing_country_code")
    if err:
        return err
    expires, err = parse_date(params["document_expiration_date"], "document_expiration_date")
    if err or expires is None:
        return err or {}
    list_type, doc_type = params["document_list_type"], params["document_type_code"]
    if DOCUMENT_LIST.get(doc_type) != list_type:
        return error(
            "document_list_mismatch",
            f"{doc_type} is a {DOCUMENT_LIST.get(doc_type)} document, not {list_type}",
        )
    emp, err = _employee(params, db)
    if err or emp is None:
        return err or {}
    emp_id = str(emp.get("employee_id"))
    action = params["verification_action"]
    rec = emp.get("i9_record")
    if action == "initial_verification":
        cl = _checklist(emp)
        if cl is None or not cl["tasks"]:
            return error(
                "onboarding_not_initialized",
                f"The new-hire record for {emp_id} is not fully set up (empty onboarding checklist); refer to HR",
            )
    elif not isinstance(rec, dict):
        return error(
            "i9_record_not_found", f"No I-9 record found for {emp_id}; reverification is not possible"
        )
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
    cid, err = fmt("case_id", params["case_id"], "case_id")
    if err:
        return err
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
