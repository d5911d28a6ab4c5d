"""medical_hr shifts, payroll, onboarding, I-9, leave, on-call, visa and PTO matched to
EVA's tool code (`eva-tool-semantics.md` sections 3.3-3.5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .hand_db import EMP, PAST_SHIFT, PEER, SHIFT, login

Run = Callable[..., dict[str, Any]]


# --- shifts and payroll -----------------------------------------------------------------------


def test_swap_eligibility_ignores_ownership_and_unknown_unit(run: Run, db: dict[str, Any]) -> None:
    login(run)
    r = run("check_swap_eligibility", employee_id=EMP, shift_id=SHIFT)  # PEER's shift, unit 9Z-NEW
    assert (r["status"], r["required_cert_codes"]) == ("success", [])
    r = run("check_swap_eligibility", employee_id=EMP, shift_id=PAST_SHIFT)
    assert (
        r["message"]
        == "Shift date 2026-06-01 is in the past (current date: 2026-06-10). Cannot swap a past shift."
    )
    db["shifts"][SHIFT]["status"] = "cancelled"
    assert (
        run("check_swap_eligibility", employee_id=EMP, shift_id=SHIFT)["message"]
        == "Cannot swap a cancelled shift"
    )
    db["shifts"][SHIFT]["status"] = "swapped"
    assert run("check_swap_eligibility", employee_id=EMP, shift_id=SHIFT)["message"] == (
        "This shift has already been swapped"
    )


def test_record_reads_keep_the_ownership_check(run: Run) -> None:
    login(run)
    assert run("get_shift_record", employee_id=EMP, shift_id=SHIFT)["error_type"] == "shift_not_owned"


def test_colleague_certifications_for_unknown_unit(run: Run) -> None:
    login(run)
    r = run("verify_colleague_certifications", colleague_employee_id=PEER, unit_code="9Z-NEW")
    assert r["status"] == "success"


def test_swap_confirmation_rechecks_nothing(run: Run, db: dict[str, Any]) -> None:
    login(run)
    r = run(
        "confirm_shift_swap",
        employee_id=EMP,
        shift_id=PAST_SHIFT,
        colleague_employee_id=EMP,
        unit_code="9Z-NEW",
    )
    assert r["status"] == "success" and r["case_id"] == "CASE-SWP-100001"
    assert db["shifts"][PAST_SHIFT]["swapped_to_employee_id"] == EMP


def test_correction_eligibility_rules(run: Run, db: dict[str, Any]) -> None:
    login(run)
    r = run("check_correction_eligibility", employee_id=EMP, shift_id=PAST_SHIFT)
    assert r["status"] == "success"  # approved status, past period end ignored without the flag
    db["shifts"][PAST_SHIFT]["correction_status"] = "pending"
    r = run("check_correction_eligibility", employee_id=EMP, shift_id=PAST_SHIFT)
    assert (r["error_type"], r["message"]) == (
        "correction_already_pending",
        "A correction is already pending for this shift",
    )
    db["shifts"][PAST_SHIFT].update(correction_status=None, status="scheduled")
    assert run("check_correction_eligibility", employee_id=EMP, shift_id=PAST_SHIFT)["message"] == (
        "Shift must be in logged or approved status to submit a correction"
    )


def test_payroll_submission_checks_only_the_period_end(run: Run, db: dict[str, Any]) -> None:
    login(run)
    p = {"employee_id": EMP, "correction_type": "overtime_hours", "corrected_hours": 2.5}
    r = run("submit_payroll_correction", shift_id=PAST_SHIFT, **p)
    assert r["message"] == f"No pay period end date found for shift {PAST_SHIFT}"
    db["shifts"][PAST_SHIFT]["pay_period_end_date"] = "2026-06-05"
    assert run("submit_payroll_correction", shift_id=PAST_SHIFT, **p)["message"] == (
        "Pay period ending 2026-06-05 has already closed (current date: 2026-06-10). Correction cannot be submitted."
    )
    r = run("submit_payroll_correction", shift_id=SHIFT, **p)  # someone else's shift, still logged
    assert r["status"] == "success" and r["case_id"] == "CASE-PAY-100001"
    assert run("submit_payroll_correction", shift_id=SHIFT, **{**p, "corrected_hours": 0})["error_type"] == (
        "invalid_hours"
    )


# --- onboarding and I-9 -----------------------------------------------------------------------


def test_onboarding_task_rules(run: Run, db: dict[str, Any]) -> None:
    login(run)
    r = run("complete_onboarding_task", employee_id=EMP, task_code="BLS_UPLOAD", completion_code="zz99")
    assert r["message"] == "Completion code does not match for task BLS_UPLOAD. Please verify and try again."
    r = run("complete_onboarding_task", employee_id=EMP, task_code="BLS_UPLOAD", completion_code="bl42")
    assert r["remaining_tasks"] == ["BADGE_PICKUP"]  # in_progress still counts as remaining
    r = run("complete_onboarding_task", employee_id=EMP, task_code="BLS_UPLOAD", completion_code="BL42")
    assert (r["error_type"], r["message"]) == (
        "task_already_complete",
        "Task BLS_UPLOAD is already marked complete",
    )
    r = run("complete_onboarding_task", employee_id=EMP, task_code="BADGE_PICKUP", completion_code="AAAA")
    assert r["status"] == "success"  # in progress, no stored code: any code
    r = run("complete_onboarding_task", employee_id=EMP, task_code="HIPAA_TRAIN", completion_code="AAAA")
    assert r["message"] == f"Task HIPAA_TRAIN not in checklist for {EMP}"


def test_checklist_missing_when_falsy(run: Run, db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True
    db["employees"][EMP]["onboarding_checklist"] = {"owner": "hr"}  # no tasks table, still a checklist
    assert run("get_onboarding_checklist", employee_id=EMP)["status"] == "success"
    db["employees"][EMP]["onboarding_checklist"] = {}
    assert run("get_onboarding_checklist", employee_id=EMP)["status"] == "error"


def test_i9_submission_creates_without_checks(run: Run, db: dict[str, Any]) -> None:
    login(run)
    r = run("submit_i9_verification", employee_id=EMP, verification_action="reverification",
            document_list_type="LIST_C", document_type_code="US_PASSPORT", document_number="X1234567",
            document_expiration_date="2030-01-01", issuing_country_code="US")  # fmt: skip
    assert r["status"] == "success" and db["employees"][EMP]["i9_record"]["case_id"] == "CASE-I9V-100001"


def test_hr_compliance_needs_employee_auth(run: Run, db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True
    r = run(
        "notify_hr_compliance", employee_id=EMP, case_id="CASE-I9V-100001", notification_type="i9_verified"
    )
    assert r["error_type"] == "authentication_required"


# --- leave ------------------------------------------------------------------------------------


def test_fmla_missing_eligible_is_false_and_submission_checks_nothing(run: Run, db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True
    r = run("check_leave_eligibility", employee_id=EMP)
    assert (r["error_type"], r["message"]) == (
        "not_eligible",
        "Employee does not meet FMLA eligibility requirements",
    )
    r = run("submit_fmla_case", employee_id=EMP, leave_category="employee_medical_condition",
            leave_start_date="2026-01-01", leave_end_date="2025-12-01")  # fmt: skip
    assert r["status"] == "success" and r["case_id"] == "CASE-FMLA-100001"


# --- on-call ----------------------------------------------------------------------------------


def test_oncall_schedule_is_whole_and_unknown_unit_eligible(run: Run) -> None:
    login(run)
    r = run("get_oncall_schedule", employee_id=EMP, unit_code="4B-ICU")
    assert r["oncall_schedule"] == {"registrations": [{"unit_code": "2A-MED"}], "notes": "x"}
    assert run("check_oncall_eligibility", employee_id=EMP, unit_code="9Z-NEW")["status"] == "success"
    r = run("check_oncall_eligibility", employee_id=EMP, unit_code="4B-ICU")
    assert r["message"] == "Missing certifications for unit 4B-ICU: ['ACLS']"


def test_oncall_registration_rules(run: Run, db: dict[str, Any]) -> None:
    login(run)
    p = {"employee_id": EMP, "unit_code": "4B-ICU", "oncall_tier": "primary"}
    r = run("register_oncall_availability", availability_start_date="2026-07-01", availability_end_date="2026-07-10",
            blackout_dates=["2026-07-12"], **p)  # fmt: skip
    assert (
        r["message"]
        == "Blackout date 2026-07-12 is outside the availability window (2026-07-01 \u2013 2026-07-10)"
    )
    r = run("register_oncall_availability", availability_start_date="2026-07-01", availability_end_date="2026-07-10",
            blackout_dates=["2026-07-03", "2026-07-03"], **p)  # fmt: skip
    assert r["status"] == "success" and r["blackout_dates"] == [
        "2026-07-03",
        "2026-07-03",
    ]  # no cert re-check


# --- visa -------------------------------------------------------------------------------------


def test_visa_dependent_and_counsel(run: Run, db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True
    p = {"employee_id": EMP, "visa_petition_number": "WAC2190012345"}
    r = run("add_visa_dependent", dependent_first_name="-Al", dependent_last_name="Lima", relationship="child",
            dependent_date_of_birth="2020-01-01", dependent_country_of_birth="BR",
            uscis_receipt_number="WAC2190012345", **p)  # fmt: skip
    assert r["status"] == "success"  # leading hyphen and receipt = petition both allowed
    r = run("notify_immigration_counsel", employee_id=EMP, visa_petition_number="EAC0000000001",
            notification_type="dependent_added")  # fmt: skip
    assert r["status"] == "success" and db["notifications"][0]["visa_petition_number"] == "EAC0000000001"


# --- PTO --------------------------------------------------------------------------------------


def test_pto_balance_as_stored_and_missing(run: Run, db: dict[str, Any]) -> None:
    login(run)
    assert run("get_pto_balance", employee_id=EMP)["pto_balances"] == {"pto": 5, "sick": 2.0}
    db["employees"][EMP]["pto_balances"] = {}
    r = run("get_pto_balance", employee_id=EMP)
    assert (r["error_type"], r["message"]) == (
        "pto_record_not_found",
        f"No PTO balance record found for {EMP}",
    )


def test_pto_blackout_on_working_days_only_and_overlap(run: Run, db: dict[str, Any]) -> None:
    login(run)
    p = {"employee_id": EMP, "pto_type": "pto"}
    r = run("check_pto_eligibility", start_date="2026-06-12", end_date="2026-06-15", **p)
    assert r["status"] == "success"  # 2026-06-13 is a blackout Saturday: not a working day
    r = run("check_pto_eligibility", start_date="2026-06-15", end_date="2026-06-16", **p)
    assert (r["error_type"], r["conflicting_dates"]) == ("blackout_date_conflict", ["2026-06-16"])
    db["employees"][EMP]["pto_requests"] = [
        {"case_id": "CASE-PTO-1", "start_date": "2026-06-11", "end_date": "2026-06-11", "status": "denied"},
        {"case_id": "CASE-PTO-2", "start_date": "2026-06-12", "end_date": "2026-06-12", "status": "approved"},
    ]
    r = run("check_pto_eligibility", start_date="2026-06-11", end_date="2026-06-12", **p)
    assert (
        r["message"]
        == "Requested dates overlap with existing PTO request 2026-06-12 to 2026-06-12 (case CASE-PTO-2)"
    )
    r = run("check_pto_eligibility", start_date="2026-06-12", end_date="2026-06-11", **p)
    assert r["message"] == "Start date must be on or before end date"


def test_pto_request_skips_blackout_and_overlap(run: Run, db: dict[str, Any]) -> None:
    login(run)
    r = run(
        "submit_pto_request", employee_id=EMP, pto_type="pto", start_date="2026-06-15", end_date="2026-06-16"
    )
    assert r["status"] == "success" and db["employees"][EMP]["pto_balances"]["pto"] == 3


def test_non_standard_schedule_counts_every_shift_date(run: Run, db: dict[str, Any]) -> None:
    login(run)
    db["employees"][EMP]["schedule_type"] = "rotating"
    db["shifts"]["S-X"] = {"shift_id": "S-X", "employee_id": EMP, "date": "2026-06-14", "status": "cancelled"}
    p = {"employee_id": EMP, "pto_type": "sick"}
    r = run("check_pto_eligibility", start_date="2026-06-14", end_date="2026-06-15", **p)
    assert r["working_days_in_range"] == ["2026-06-14"]  # a cancelled Sunday shift counts
    db["employees"][EMP]["pto_balances"]["sick"] = 1
    r = run("check_pto_eligibility", start_date="2026-06-01", end_date="2026-06-14", **p)
    assert r["message"] == "Insufficient sick balance: 2.0 days required but only 1 available"
