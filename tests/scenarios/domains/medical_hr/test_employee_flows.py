"""Error paths of medical_hr employee flows: shifts, payroll, on-call, leave, PTO, onboarding, I-9, visa."""

from __future__ import annotations

import copy
from collections.abc import Callable

from voxbench.scenarios.executor import ToolExecutor

from .helpers import employee_login, ok

Make = Callable[[str], ToolExecutor]


# ── shift swaps ──────────────────────────────────────────────────────────────


def test_swap_to_uncertified_colleague_is_refused(make: Make) -> None:
    ex = make("A1")
    employee_login(ex, "EMP846385")
    before = copy.deepcopy(ex.db["shifts"])
    out = ex.execute(
        "confirm_shift_swap",
        {
            "employee_id": "EMP846385",
            "shift_id": "SHF-20260720-2300",
            "colleague_employee_id": "EMP844031",
            "unit_code": "3C-ER",
        },
    )
    assert out["error_type"] == "certification_missing"
    assert out["missing_certs"] == ["TNCC"]
    assert ex.db["shifts"] == before


def test_swap_checks_unit_ownership_and_repeat(make: Make) -> None:
    ex = make("2.1")
    employee_login(ex, "EMP850800")
    args = {
        "employee_id": "EMP850800",
        "shift_id": "SHF-20260914-1500",
        "colleague_employee_id": "EMP781453",
        "unit_code": "8E-SURG",
    }
    assert ex.execute("confirm_shift_swap", {**args, "unit_code": "4B-ICU"})["error_type"] == "unit_mismatch"
    assert ex.execute("confirm_shift_swap", {**args, "colleague_employee_id": "EMP850800"})["error_type"] == (
        "invalid_colleague_employee_id"
    )
    assert ex.execute("get_shift_record", {"employee_id": "EMP850800", "shift_id": "SHF-20260916-0700"})[
        "error_type"
    ] == ("shift_not_owned")
    assert ex.execute("get_shift_record", {"employee_id": "EMP850800", "shift_id": "SHF-20990101-0700"})[
        "error_type"
    ] == ("shift_not_found")
    ok(ex.execute("confirm_shift_swap", args))
    again = ex.execute(
        "check_swap_eligibility", {"employee_id": "EMP850800", "shift_id": "SHF-20260914-1500"}
    )
    assert again["error_type"] == "already_swapped"


def test_past_shift_cannot_be_swapped(make: Make) -> None:
    ex = make("2.1")
    employee_login(ex, "EMP850800")
    ex.db["shifts"]["SHF-20260914-1500"]["date"] = "2026-06-01"
    out = ex.execute("check_swap_eligibility", {"employee_id": "EMP850800", "shift_id": "SHF-20260914-1500"})
    assert out["error_type"] == "shift_in_past"


# ── payroll ──────────────────────────────────────────────────────────────────


def test_payroll_correction_rules(make: Make) -> None:
    ex = make("7.1")
    employee_login(ex, "EMP821590")
    args = {
        "employee_id": "EMP821590",
        "shift_id": "SHF-20260610-1900",
        "correction_type": "on_call_hours",
        "corrected_hours": 30,
    }
    assert ex.execute("submit_payroll_correction", args)["error_type"] == "invalid_corrected_hours"
    assert ex.execute("submit_payroll_correction", {**args, "corrected_hours": 0})["error_type"] == (
        "invalid_corrected_hours"
    )
    ok(ex.execute("submit_payroll_correction", {**args, "corrected_hours": 12}))
    pending = ex.execute(
        "check_correction_eligibility", {"employee_id": "EMP821590", "shift_id": "SHF-20260610-1900"}
    )
    assert pending["error_type"] == "correction_pending"


def test_unlogged_shift_cannot_be_corrected(make: Make) -> None:
    ex = make("2.1")
    employee_login(ex, "EMP850800")
    out = ex.execute(
        "check_correction_eligibility", {"employee_id": "EMP850800", "shift_id": "SHF-20260914-1500"}
    )
    assert out["error_type"] == "shift_not_logged"


# ── on-call ──────────────────────────────────────────────────────────────────


def test_oncall_blackouts_must_sit_inside_the_window(make: Make) -> None:
    ex = make("D5.1")
    employee_login(ex, "EMP437960")
    args = {
        "employee_id": "EMP437960",
        "unit_code": "7C-ICU",
        "availability_start_date": "2026-07-27",
        "availability_end_date": "2026-08-16",
        "oncall_tier": "backup",
        "blackout_dates": ["2026-08-20"],
    }
    assert ex.execute("register_oncall_availability", args)["error_type"] == "blackout_outside_window"
    bad = {**args, "availability_end_date": "2026-07-01", "blackout_dates": []}
    assert ex.execute("register_oncall_availability", bad)["error_type"] == "invalid_date_range"
    assert ex.db["employees"]["EMP437960"]["oncall_schedule"]["registrations"] == []
    out = ok(ex.execute("register_oncall_availability", {**args, "blackout_dates": ["2026-08-01"]}))
    assert out["blackout_dates"] == ["2026-08-01"]


def test_oncall_needs_unit_certifications(make: Make) -> None:
    ex = make("D5.1")
    employee_login(ex, "EMP437960")
    ex.db["employees"]["EMP437960"]["certifications"] = ["BLS"]
    out = ex.execute("check_oncall_eligibility", {"employee_id": "EMP437960", "unit_code": "7C-ICU"})
    assert out["error_type"] == "certification_missing"
    assert out["missing_certs"] == ["ACLS", "CCRN"]
    unknown = ex.execute("check_oncall_eligibility", {"employee_id": "EMP437960", "unit_code": "9Z-NONE"})
    assert unknown["error_type"] == "unit_not_found"


# ── FMLA ─────────────────────────────────────────────────────────────────────


def _fmla(emp: str, start: str, end: str) -> dict[str, str]:
    return {
        "employee_id": emp,
        "leave_category": "employee_medical_condition",
        "leave_start_date": start,
        "leave_end_date": end,
    }


def test_fmla_rejects_over_entitlement_backdated_and_ineligible(make: Make) -> None:
    ex = make("A9")
    employee_login(ex, "EMP790731", otp=True)
    over = ex.execute("submit_fmla_case", _fmla("EMP790731", "2026-08-10", "2026-10-18"))
    assert over["error_type"] == "exceeds_fmla_balance"
    ex = make("A10")
    employee_login(ex, "EMP908475", otp=True)
    back = ex.execute("submit_fmla_case", _fmla("EMP908475", "2026-06-01", "2026-07-31"))
    assert back["error_type"] == "invalid_leave_start_date"
    ex = make("6.2")
    employee_login(ex, "EMP201639", otp=True)
    inel = ex.execute("submit_fmla_case", _fmla("EMP201639", "2026-07-01", "2026-07-31"))
    assert inel["error_type"] == "not_eligible"
    assert ex.db["employees"]["EMP201639"]["leave_records"] == []


def test_return_to_work_not_before_leave_ends(make: Make) -> None:
    ex = make("6.1")
    employee_login(ex, "EMP765822", otp=True)
    ok(ex.execute("submit_fmla_case", _fmla("EMP765822", "2026-06-29", "2026-08-10")))
    args = {
        "employee_id": "EMP765822",
        "case_id": "CASE-FMLA-765822",
        "department_code": "ORTHOPEDICS",
        "appointment_datetime": "2026-08-07 10:00",
    }
    assert ex.execute("schedule_return_to_work_checkin", args)["error_type"] == "appointment_before_leave_end"
    missing = ex.execute("schedule_return_to_work_checkin", {**args, "case_id": "CASE-FMLA-000001"})
    assert missing["error_type"] == "case_not_found"


# ── scheduling ───────────────────────────────────────────────────────────────


def test_no_slots_offers_alternatives_and_booking_needs_open_slot(make: Make) -> None:
    ex = make("4.1")
    employee_login(ex, "EMP496922")
    out = ok(
        ex.execute(
            "check_appointment_availability",
            {
                "department_code": "EMERGENCY",
                "appointment_type": "orientation_followup",
                "preferred_date": "2026-06-17",
            },
        )
    )
    assert out["available_slots"] == []
    assert out["alternative_dates"] == ["2026-06-15", "2026-06-16", "2026-06-18"]
    args = {
        "employee_id": "EMP496922",
        "department_code": "EMERGENCY",
        "appointment_datetime": "2026-06-15 11:00",
    }
    assert ex.execute("schedule_orientation_followup", args)["error_type"] == "slot_unavailable"
    ok(ex.execute("schedule_orientation_followup", {**args, "appointment_datetime": "2026-06-15 10:00"}))
    twice = ex.execute("schedule_orientation_followup", {**args, "appointment_datetime": "2026-06-15 10:00"})
    assert twice["error_type"] == "slot_unavailable"
    bad = ex.execute("schedule_orientation_followup", {**args, "appointment_datetime": "June 15 at 10"})
    assert bad["error_type"] == "invalid_appointment_datetime"


# ── PTO ──────────────────────────────────────────────────────────────────────


def _pto(start: str, end: str) -> dict[str, str]:
    return {"employee_id": "EMP624902", "pto_type": "pto", "start_date": start, "end_date": end}


def test_pto_blackout_overlap_and_holidays(make: Make) -> None:
    ex = make("12.1")
    employee_login(ex, "EMP624902")
    assert (
        ex.execute("check_pto_eligibility", _pto("2026-07-27", "2026-07-28"))["error_type"]
        == "blackout_conflict"
    )
    assert (
        ex.execute("check_pto_eligibility", _pto("2026-07-10", "2026-07-06"))["error_type"]
        == "invalid_date_range"
    )
    holiday = ok(ex.execute("check_pto_eligibility", _pto("2026-07-02", "2026-07-06")))
    assert holiday["working_days_in_range"] == ["2026-07-02", "2026-07-06"]  # Jul 3 holiday, weekend skipped
    ok(ex.execute("submit_pto_request", _pto("2026-07-13", "2026-07-17")))
    overlap = ex.execute("check_pto_eligibility", _pto("2026-07-16", "2026-07-20"))
    assert overlap["error_type"] == "overlapping_request"


# ── onboarding and I-9 ───────────────────────────────────────────────────────


def test_onboarding_task_codes(make: Make) -> None:
    ex = make("4.1")
    employee_login(ex, "EMP496922")
    args = {"employee_id": "EMP496922", "task_code": "HIPAA_TRAIN", "completion_code": "ZZZZ"}
    assert ex.execute("complete_onboarding_task", args)["error_type"] == "invalid_completion_code"
    assert ex.execute("complete_onboarding_task", {**args, "task_code": "DRUG_SCREEN"})["error_type"] == (
        "task_not_found"
    )
    ok(ex.execute("complete_onboarding_task", {**args, "completion_code": "h7p2"}))  # case-insensitive
    done = ex.execute("complete_onboarding_task", {**args, "completion_code": "H7P2"})
    assert done["error_type"] == "task_not_pending"


def test_i9_needs_live_record_and_prior_i9(make: Make) -> None:
    ex = make("D9.3")
    employee_login(ex, "EMP529893")
    args = {
        "employee_id": "EMP529893",
        "verification_action": "initial_verification",
        "document_list_type": "LIST_A",
        "document_type_code": "US_PASSPORT",
        "document_number": "A12345678",
        "document_expiration_date": "2030-08-14",
        "issuing_country_code": "US",
    }
    assert ex.execute("submit_i9_verification", args)["error_type"] == "onboarding_not_initialized"
    re_args = {**args, "verification_action": "reverification"}
    assert ex.execute("submit_i9_verification", re_args)["error_type"] == "i9_record_not_found"
    mismatch = {**args, "document_list_type": "LIST_B"}
    assert ex.execute("submit_i9_verification", mismatch)["error_type"] == "document_list_mismatch"
    short = {**args, "document_number": "A12"}
    assert ex.execute("submit_i9_verification", short)["error_type"] == "invalid_document_number"
    assert ex.db["employees"]["EMP529893"]["i9_record"] is None


# ── visa ─────────────────────────────────────────────────────────────────────


def test_visa_dependent_checks(make: Make) -> None:
    ex = make("11.2")
    employee_login(ex, "EMP921414", otp=True)
    args = {
        "employee_id": "EMP921414",
        "visa_petition_number": "WAC2512045678",
        "dependent_first_name": "Priya",
        "dependent_last_name": "Sharma",
        "relationship": "child",
        "dependent_date_of_birth": "2024-03-15",
        "dependent_country_of_birth": "IN",
        "uscis_receipt_number": "WAC2512045678",
    }
    assert ex.execute("add_visa_dependent", args)["error_type"] == "invalid_uscis_receipt_number"
    wrong = {**args, "visa_petition_number": "EHZ3328710672", "uscis_receipt_number": "IOE0912345678"}
    assert ex.execute("add_visa_dependent", wrong)["error_type"] == "visa_record_not_found"
    name = {**args, "dependent_first_name": "P", "uscis_receipt_number": "IOE0912345678"}
    assert ex.execute("add_visa_dependent", name)["error_type"] == "invalid_dependent_first_name"
    assert ex.db["employees"]["EMP921414"]["visa_record"]["dependents"] == []
    out = ok(ex.execute("add_visa_dependent", {**args, "uscis_receipt_number": "IOE0912345678"}))
    assert out["amendment_id"] == "CASE-VISA-921414"
