"""Error paths of medical_hr auth, credential, DEA and privilege tools (beyond the traces)."""

from __future__ import annotations

import copy
from collections.abc import Callable

from voxbench.scenarios.executor import ToolExecutor

from .helpers import employee_login, ok, provider_login

Make = Callable[[str], ToolExecutor]


# ── auth ─────────────────────────────────────────────────────────────────────


def test_wrong_date_of_birth_fails_without_touching_session(make: Make) -> None:
    ex = make("12.1")
    out = ex.execute("verify_employee_auth", {"employee_id": "EMP624902", "date_of_birth": "1900-01-01"})
    assert out["error_type"] == "authentication_failed"
    assert ex.db["session"] == {}


def test_unknown_employee_and_bad_format_are_distinguished_only_by_format(make: Make) -> None:
    ex = make("12.1")
    unknown = ex.execute("verify_employee_auth", {"employee_id": "EMP000000", "date_of_birth": "1991-08-14"})
    assert unknown["error_type"] == "authentication_failed"
    bad = ex.execute("verify_employee_auth", {"employee_id": "E624902", "date_of_birth": "1991-08-14"})
    assert bad["error_type"] == "invalid_employee_id"
    bad_dob = ex.execute("verify_employee_auth", {"employee_id": "EMP624902", "date_of_birth": "14/08/1991"})
    assert bad_dob["error_type"] == "invalid_date_of_birth"


def test_wrong_pin_fails_provider_auth(make: Make) -> None:
    ex = make("1.1")
    out = ex.execute(
        "verify_provider_auth", {"npi": "3746317213", "facility_code": "KAFN-13R", "pin": "0000"}
    )
    assert out["error_type"] == "authentication_failed"
    assert "provider_auth" not in ex.db["session"]


def test_records_are_closed_before_verification(make: Make) -> None:
    ex = make("12.1")
    assert (
        ex.execute("get_employee_record", {"employee_id": "EMP624902"})["error_type"]
        == "authentication_required"
    )
    assert (
        ex.execute("get_pto_balance", {"employee_id": "EMP624902"})["error_type"] == "authentication_required"
    )
    assert (
        ex.execute("initiate_otp_auth", {"employee_id": "EMP624902"})["error_type"]
        == "authentication_required"
    )


def test_otp_flow_errors(make: Make) -> None:
    ex = make("6.1")
    employee_login(ex, "EMP765822")
    early = ex.execute("verify_otp_auth", {"employee_id": "EMP765822", "otp_code": "771088"})
    assert early["error_type"] == "otp_not_initiated"
    other = ex.execute("initiate_otp_auth", {"employee_id": "EMP000001"})
    assert other["error_type"] == "authentication_mismatch"
    ok(ex.execute("initiate_otp_auth", {"employee_id": "EMP765822"}))
    wrong = ex.execute("verify_otp_auth", {"employee_id": "EMP765822", "otp_code": "000000"})
    assert wrong["error_type"] == "invalid_otp"
    assert ex.db["session"].get("otp_auth") is not True


def test_leave_needs_otp_not_just_employee_auth(make: Make) -> None:
    ex = make("6.1")
    employee_login(ex, "EMP765822")
    out = ex.execute("check_leave_eligibility", {"employee_id": "EMP765822"})
    assert out["error_type"] == "authentication_required"


def test_license_needs_provider_auth_and_dea_needs_otp(make: Make) -> None:
    ex = make("D1.1")
    employee_login(ex, "EMP723939")
    lic = {"npi": "9881824272", "state_license_number": "NY-DO-88331132"}
    assert ex.execute("get_license_record", lic)["error_type"] == "authentication_required"
    ex = make("5.1")
    provider_login(ex, "4026113008")
    dea = ex.execute("get_dea_record", {"npi": "4026113008", "dea_number": "RU2338687"})
    assert dea["error_type"] == "authentication_required"


def test_names_are_spoken_capitalised(make: Make) -> None:
    ex = make("12.1")
    out = ok(ex.execute("verify_employee_auth", {"employee_id": "EMP624902", "date_of_birth": "1991-08-14"}))
    assert out["first_name"][:1].isupper() and out["last_name"][:1].isupper()


def test_transfer_ids_count_calls(make: Make) -> None:
    ex = make("A4")
    args = {
        "employee_id": "EMP918164",
        "transfer_reason": "caller_requested",
        "issue_summary": "wants a person",
    }
    assert ok(ex.execute("transfer_to_agent", args))["transfer_id"] == "TRF-EMP918164-001"
    assert ok(ex.execute("transfer_to_agent", args))["transfer_id"] == "TRF-EMP918164-002"


# ── licenses ─────────────────────────────────────────────────────────────────


def test_extension_window_expired_and_hold(make: Make) -> None:
    ex = make("1.1")
    provider_login(ex, "3342331444")
    far = ex.execute(
        "check_extension_eligibility", {"npi": "3342331444", "state_license_number": "FL-MD-22014477"}
    )
    assert far["error_type"] == "outside_extension_window"
    lic = ex.db["providers"]["3342331444"]["licenses"]["FL-MD-22014477"]
    lic["expiration_date"] = "2026-06-01"
    gone = ex.execute(
        "check_extension_eligibility", {"npi": "3342331444", "state_license_number": "FL-MD-22014477"}
    )
    assert gone["error_type"] == "license_expired"
    lic["investigation_hold"] = True
    held = ex.execute(
        "check_extension_eligibility", {"npi": "3342331444", "state_license_number": "FL-MD-22014477"}
    )
    assert held["error_type"] == "investigation_hold"


def test_submit_extension_rejects_bad_requests_and_writes_nothing(make: Make) -> None:
    ex = make("1.1")
    provider_login(ex, "3746317213")
    before = copy.deepcopy(ex.db["providers"])
    base = {"npi": "3746317213", "state_license_number": "FL-MD-30058838"}
    cases = [
        ({"extension_type": "provisional", "extension_days": 45}, "invalid_extension_days"),
        ({"extension_type": "supervised", "extension_days": 30}, "missing_supervising_physician_npi"),
        (
            {"extension_type": "supervised", "extension_days": 30, "supervising_physician_npi": "3746317213"},
            "invalid_supervising_physician_npi",
        ),
        (
            {"extension_type": "supervised", "extension_days": 30, "supervising_physician_npi": "1111111111"},
            "supervising_physician_not_found",
        ),
    ]
    for extra, kind in cases:
        assert ex.execute("submit_license_extension", {**base, **extra})["error_type"] == kind
    assert ex.db["providers"] == before
    out = ok(
        ex.execute(
            "submit_license_extension", {**base, "extension_type": "provisional", "extension_days": 30}
        )
    )
    assert out["supervising_physician_npi"] is None
    again = ex.execute("check_extension_eligibility", base)
    assert again["error_type"] == "already_extended"


def test_low_malpractice_limit_flags_recredentialing(make: Make) -> None:
    ex = make("3.1")
    provider_login(ex, "7110082321")
    out = ok(
        ex.execute(
            "update_malpractice_coverage",
            {
                "npi": "7110082321",
                "new_carrier": "cna",
                "new_policy_number": "POL-2026-ZZ0001",
                "per_occurrence_limit_usd": 500000,
                "aggregate_limit_usd": 1500000,
                "effective_date": "2026-07-15",
                "expiration_date": "2027-07-14",
            },
        )
    )
    assert out["recredential_required"] is True
    assert out["case_id"] in out["message"]
    assert ex.db["providers"]["7110082321"]["malpractice"]["recredential_required"] is True


def test_malformed_policy_number_is_rejected(make: Make) -> None:
    ex = make("3.1")
    provider_login(ex, "7110082321")
    out = ex.execute(
        "update_malpractice_coverage",
        {
            "npi": "7110082321",
            "new_carrier": "cna",
            "new_policy_number": "2026-ZZ0001",
            "per_occurrence_limit_usd": 2000000,
            "aggregate_limit_usd": 3000000,
            "effective_date": "2026-07-15",
            "expiration_date": "2027-07-14",
        },
    )
    assert out["error_type"] == "invalid_new_policy_number"


# ── DEA ──────────────────────────────────────────────────────────────────────


def _dea_transfer(facility: str) -> dict[str, str]:
    return {
        "npi": "5407856339",
        "dea_number": "ZS9819709",
        "new_facility_code": facility,
        "new_state_code": "PA",
        "transfer_reason": "facility_relocation",
        "effective_date": "2026-08-03",
    }


def test_dea_transfer_to_same_facility_is_blocked(make: Make) -> None:
    ex = make("A2")
    provider_login(ex, "5407856339", otp=True)
    out = ex.execute("transfer_dea_registration", _dea_transfer("JUOP-21C"))
    assert out["error_type"] == "same_facility"
    assert "pending_transfer" not in ex.db["providers"]["5407856339"]["dea_registration"]


def test_second_dea_transfer_and_bad_state_are_rejected(make: Make) -> None:
    ex = make("A2")
    provider_login(ex, "5407856339", otp=True)
    assert ex.execute("transfer_dea_registration", {**_dea_transfer("BWH-02A"), "new_state_code": "ZZ"})[
        "error_type"
    ] == ("invalid_new_state_code")
    ok(ex.execute("transfer_dea_registration", _dea_transfer("BWH-02A")))
    again = ex.execute("transfer_dea_registration", _dea_transfer("MGH-04B"))
    assert again["error_type"] == "transfer_already_pending"


# ── privileges ───────────────────────────────────────────────────────────────


def test_reactivation_requires_competency_review_and_suspended_codes(make: Make) -> None:
    ex = make("A3")
    employee_login(ex, "EMP963333", otp=True)
    before = copy.deepcopy(ex.db["providers"]["8598503901"]["privileges"])
    args = {
        "npi": "8598503901",
        "privilege_codes": ["PRV-SURG-008"],
        "clearance_code": "CLR-OCC-177767",
        "leave_type_on_record": "fmla_leave",
    }
    assert ex.execute("reactivate_privileges", args)["error_type"] == "competency_review_required"
    bad_code = ex.execute("reactivate_privileges", {**args, "clearance_code": "CLR-OCC-000000"})
    assert bad_code["error_type"] == "invalid_clearance_code"
    assert ex.execute("reactivate_privileges", {**args, "privilege_codes": ["PRV-XXX-999"]})[
        "error_type"
    ] == ("privilege_not_found")
    assert ex.db["providers"]["8598503901"]["privileges"] == before


def test_ehr_update_needs_the_reactivation_case(make: Make) -> None:
    ex = make("A3")
    employee_login(ex, "EMP963333", otp=True)
    out = ex.execute(
        "update_ehr_access",
        {"npi": "8598503901", "case_id": "CASE-PRV-963333", "access_change_type": "reactivate_full"},
    )
    assert out["error_type"] == "case_not_found"


def test_results_are_snapshots_not_live_records(make: Make) -> None:
    ex = make("A3")
    employee_login(ex, "EMP963333", otp=True)
    rec = ok(ex.execute("get_privilege_record", {"npi": "8598503901"}))
    rec["privileges"]["privilege_list"][0]["status"] = "active"
    live = ex.db["providers"]["8598503901"]["privileges"]["privilege_list"][0]["status"]
    assert live == "suspended"
