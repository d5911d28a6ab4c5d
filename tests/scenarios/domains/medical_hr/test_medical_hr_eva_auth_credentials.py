"""medical_hr conventions, auth, scheduling and credentials matched to EVA's tool code
(`eva-tool-semantics.md` sections 0, 3.1 and 3.2)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .hand_db import DOC, EMP, FAC, LIC, NPI, OTHER_NPI, login

Run = Callable[..., dict[str, Any]]


# --- conventions and auth -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "error_type"),
    [
        ({"employee_id": "emp100001", "date_of_birth": "1990-01-02"}, "invalid_employee_id_format"),
        ({"employee_id": EMP, "date_of_birth": "02/01/1990"}, "invalid_date_format"),
        ({"employee_id": EMP}, "invalid_date_format"),
    ],
)
def test_validation_uses_evas_error_map(run: Run, params: dict[str, Any], error_type: str) -> None:
    assert run("verify_employee_auth", **params)["error_type"] == error_type


def test_employee_auth_failures_are_distinguished(run: Run) -> None:
    r = run("verify_employee_auth", employee_id="EMP999999", date_of_birth="1990-01-02")
    assert r == {"status": "error", "error_type": "not_found", "message": "Employee EMP999999 not found"}
    r = run("verify_employee_auth", employee_id=EMP, date_of_birth="1990-01-03")
    assert r["message"] == "Date of birth does not match records for this employee ID"
    r = run("verify_employee_auth", employee_id=EMP, date_of_birth="1990-01-02")
    assert (r["first_name"], r["last_name"]) == ("ana", "lima")  # as stored


def test_provider_auth_failures_are_distinguished(run: Run) -> None:
    r = run("verify_provider_auth", npi="5555555555", facility_code=FAC, pin="1234")
    assert (r["error_type"], r["message"]) == ("not_found", "Provider with NPI 5555555555 not found")
    assert run("verify_provider_auth", npi=NPI, facility_code="XYZ-34E", pin="1234")["message"] == (
        "Facility code does not match records for this NPI"
    )
    assert run("verify_provider_auth", npi=NPI, facility_code=FAC, pin="0000")["message"] == (
        "PIN does not match records for this NPI"
    )
    assert run("verify_provider_auth", npi=NPI, facility_code="abc-12d", pin="1234")["error_type"] == (
        "invalid_facility_code_format"
    )


def test_otp_needs_no_prior_auth_and_sets_the_caller(run: Run, db: dict[str, Any]) -> None:
    r = run("verify_otp_auth", employee_id=EMP, otp_code="123456")
    assert r["message"] == "OTP has not been initiated. Call initiate_otp_auth first."
    assert run("initiate_otp_auth", employee_id=DOC)["status"] == "success"
    r = run("verify_otp_auth", employee_id=EMP, otp_code="000000")
    assert (r["error_type"], r["message"]) == (
        "authentication_failed",
        "OTP code does not match. Ask the caller to read the code again.",
    )
    assert run("verify_otp_auth", employee_id=EMP, otp_code="123 456")["error_type"] == "invalid_otp_format"
    assert run("verify_otp_auth", employee_id=EMP, otp_code="123456")["status"] == "success"
    assert db["session"]["authenticated_employee_id"] == EMP


def test_auth_sets_are_per_tool(run: Run) -> None:
    login(run, provider=True)  # provider_auth only
    r = run("get_employee_record", employee_id=EMP)
    assert (
        r["message"]
        == "Authentication (employee_auth or otp_auth) must be completed before calling this tool"
    )
    assert run("get_provider_profile", npi=NPI)["status"] == "success"
    assert run("get_pto_balance", employee_id=EMP)["error_type"] == "authentication_required"


def test_otp_alone_opens_or_otp_tools(run: Run, db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True
    assert run("get_employee_record", employee_id=EMP)["status"] == "success"
    assert (
        run("check_leave_eligibility", employee_id=EMP)["status"] == "error"
    )  # not eligible, but past the gate
    assert (
        run("get_visa_record", employee_id=EMP, visa_petition_number="WAC2190012345")["status"] == "success"
    )


def test_records_list_only_present_fields(run: Run) -> None:
    login(run, provider=True)
    view = run("get_provider_profile", npi=NPI)["provider"]
    assert "role_code" not in view and view["first_name"] == "rui"


# --- scheduling -------------------------------------------------------------------------------


def test_no_slots_alternatives_from_the_preferred_date(run: Run) -> None:
    login(run)
    r = run("check_appointment_availability", appointment_type="orientation_followup",
            department_code="CARDIOLOGY", preferred_date="2026-06-11")  # fmt: skip
    assert r["alternative_dates"] == [
        {"date": "2026-06-12", "available_slots": ["10:00"]},
        {"date": "2026-06-14", "available_slots": ["11:00", "13:00"]},
    ]
    assert r["message"] == "No availability on 2026-06-11 for orientation_followup in CARDIOLOGY"


def test_slot_not_available_message(run: Run) -> None:
    login(run)
    r = run("schedule_orientation_followup", employee_id=EMP, department_code="CARDIOLOGY",
            appointment_datetime="2026-06-14 12:00")  # fmt: skip
    assert r == {
        "status": "error",
        "error_type": "slot_not_available",
        "message": "Time slot 12:00 on 2026-06-14 is not available for orientation_followup in CARDIOLOGY. "
        "Available slots: 11:00, 13:00",
    }
    r = run("schedule_orientation_followup", employee_id=EMP, department_code="CARDIOLOGY",
            appointment_datetime="2026-06-14T11:00")  # fmt: skip
    assert r["error_type"] == "invalid_appointment_datetime_format"


def test_return_to_work_unknown_case_still_books(run: Run, db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True
    db["appointment_availability"]["return_to_work_checkin"] = {"CARDIOLOGY": {"2026-06-20": ["09:00"]}}
    r = run("schedule_return_to_work_checkin", employee_id=EMP, case_id="CASE-FMLA-100001",
            department_code="CARDIOLOGY", appointment_datetime="2026-06-20 09:00")  # fmt: skip
    assert r["status"] == "success"
    db["employees"][EMP]["leave_records"] = [{"case_id": "CASE-FMLA-100001", "leave_end_date": "2026-06-25"}]
    db["appointment_availability"]["return_to_work_checkin"]["CARDIOLOGY"]["2026-06-21"] = ["09:00"]
    r = run("schedule_return_to_work_checkin", employee_id=EMP, case_id="CASE-FMLA-100001",
            department_code="CARDIOLOGY", appointment_datetime="2026-06-21 09:00")  # fmt: skip
    assert r == {
        "status": "error",
        "error_type": "appointment_before_leave_end",
        "message": "Return-to-work check-in must be scheduled on or after the leave end date (2026-06-25). "
        "Requested date: 2026-06-21",
    }


def test_transfer_accepts_any_reason_and_summary(run: Run) -> None:
    r = run("transfer_to_agent", employee_id=EMP, transfer_reason="whatever", issue_summary="")
    assert (r["status"], r["transfer_id"]) == ("success", f"TRF-{EMP}-001")


# --- credentials ------------------------------------------------------------------------------


def test_extension_eligibility_messages(run: Run, db: dict[str, Any]) -> None:
    login(run, provider=True)
    lic = db["providers"][NPI]["licenses"][LIC]
    p = {"npi": NPI, "state_license_number": LIC}
    assert run("check_extension_eligibility", **p)["message"] == (
        "License is under investigation and cannot be extended"
    )
    lic["investigation_hold"] = False
    r = run("check_extension_eligibility", **p)
    assert (r["error_type"], r["message"]) == (
        "extension_too_early",
        "License does not expire for 204 days. Extensions may only be requested within 60 days of the "
        "expiration date.",
    )
    lic["expiration_date"] = "2026-06-01"
    assert run("check_extension_eligibility", **p)["message"] == (
        "License expired on 2026-06-01. Extensions cannot be requested for already-expired licenses."
    )
    del lic["expiration_date"]
    assert run("check_extension_eligibility", **p)["status"] == "success"


def test_extension_submission_skips_eligibility_and_keeps_provisional_npi(
    run: Run, db: dict[str, Any]
) -> None:
    login(run, provider=True)
    p = {"npi": NPI, "state_license_number": LIC, "extension_days": 60}
    r = run(
        "submit_license_extension", extension_type="provisional", supervising_physician_npi=OTHER_NPI, **p
    )
    assert r["status"] == "success"  # under investigation hold: EVA extends anyway
    assert db["providers"][NPI]["licenses"][LIC]["supervising_physician_npi"] == "1111111111"
    r = run("submit_license_extension", extension_type="supervised", **p)
    assert (r["error_type"], r["message"]) == (
        "supervising_physician_required",
        "Supervised extensions require a supervising physician NPI",
    )
    assert (
        run("submit_license_extension", extension_type="supervised", supervising_physician_npi=NPI, **p)[
            "status"
        ]
        == "success"
    )  # self-supervision allowed
    r = run(
        "submit_license_extension", extension_type="supervised", supervising_physician_npi="5555555555", **p
    )
    assert r["message"] == "Supervising physician NPI 5555555555 not found"


def test_notifications_are_not_duplicated(run: Run, db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True  # provider_auth or otp_auth
    p = {"npi": NPI, "case_id": "CASE-LIC-100002", "notification_type": "license_extension_submitted"}
    run("notify_credentialing_committee", **p)
    run("notify_credentialing_committee", **p)
    assert len(db["notifications"]) == 1


def test_malpractice_update_messages_and_no_positive_check(run: Run, db: dict[str, Any]) -> None:
    login(run, provider=True)
    p = {"npi": NPI, "new_carrier": "cna", "new_policy_number": "POL-2026-ZZ0001", "per_occurrence_limit_usd": 0,
         "aggregate_limit_usd": 0, "effective_date": "2026-07-01", "expiration_date": "2027-06-30"}  # fmt: skip
    r = run("update_malpractice_coverage", **p)
    assert r["message"] == (
        f"No malpractice record on file for NPI {NPI}. Contact credentialing to have a record initialized first."
    )
    db["providers"][NPI]["malpractice"] = {"carrier": "old"}
    r = run("update_malpractice_coverage", **p)
    assert r["message"] == (
        "Malpractice coverage updated successfully. Coverage below threshold \u2014 re-credentialing required. "
        "Case ID: CASE-MAL-100002"
    )


def test_dea_needs_otp_as_second_factor_and_transfer_checks_little(run: Run, db: dict[str, Any]) -> None:
    login(run, provider=True)
    r = run("get_dea_record", npi=NPI, dea_number="AB1234567")
    assert (r["error_type"], r["message"]) == (
        "second_factor_required",
        "DEA operations require OTP verification as a second factor",
    )
    p = {"npi": NPI, "dea_number": "AB1234567", "new_facility_code": FAC, "new_state_code": "PA",
         "transfer_reason": "facility_relocation", "effective_date": "2026-07-01"}  # fmt: skip
    assert run("transfer_dea_registration", **p)["message"] == (
        "DEA transfer requires OTP verification as a second factor"
    )
    login(run, provider=True, otp=True)
    assert run("transfer_dea_registration", **p)["status"] == "success"  # same facility, already pending


def test_pdmp_needs_provider_only_and_uses_the_given_number(run: Run, db: dict[str, Any]) -> None:
    login(run, provider=True)
    r = run("notify_pdmp", npi=NPI, dea_number="ZZ7654321", state_code="PA", facility_code="XYZ-34E")
    assert r["status"] == "success" and db["notifications"][0]["dea_number"] == "ZZ7654321"


# --- privileges -------------------------------------------------------------------------------


def test_reactivation_writes_as_it_goes_without_review_checks(run: Run, db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True
    p = {"npi": NPI, "clearance_code": "CLR-OCC-100002", "leave_type_on_record": "medical_leave"}
    r = run("reactivate_privileges", privilege_codes=["PRV-CARD-002", "PRV-CARD-009"], **p)
    assert r == {
        "status": "error",
        "error_type": "privilege_not_found",
        "message": "Privilege code(s) not found: PRV-CARD-009",
    }
    privileges = db["providers"][NPI]["privileges"]["privilege_list"]
    assert privileges[1]["status"] == "active"  # kept although the call failed
    assert (
        run("reactivate_privileges", privilege_codes=["PRV-CARD-001"], **p)["status"] == "success"
    )  # not suspended


def test_nothing_suspended_is_eligible_and_ehr_takes_any_case(run: Run, db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True
    db["providers"][NPI]["privileges"]["privilege_list"][1]["status"] = "active"
    r = run("check_reactivation_eligibility", npi=NPI, clearance_code="CLR-OCC-100002")
    assert (r["status"], r["suspended_privilege_codes"]) == ("success", [])
    r = run("update_ehr_access", npi=NPI, case_id="CASE-PRV-999999", access_change_type="reactivate_full")
    assert r["status"] == "success" and db["providers"][NPI]["ehr_access_case_id"] == "CASE-PRV-999999"
    del db["providers"][NPI]["privileges"]
    assert run("get_privilege_record", npi=NPI)["error_type"] == "privilege_record_not_found"
