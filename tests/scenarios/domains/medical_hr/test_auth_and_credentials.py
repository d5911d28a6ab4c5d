"""Error paths of medical_hr auth, credential, DEA and privilege tools (beyond the traces)."""

from __future__ import annotations

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


def test_wrong_pin_fails_provider_auth(make: Make) -> None:
    ex = make("1.1")
    out = ex.execute(
        "verify_provider_auth", {"npi": "3746317213", "facility_code": "KAFN-13R", "pin": "0000"}
    )
    assert out["error_type"] == "authentication_failed"
    assert "provider_auth" not in ex.db["session"]


def test_leave_needs_otp_not_just_employee_auth(make: Make) -> None:
    ex = make("6.1")
    employee_login(ex, "EMP765822")
    out = ex.execute("check_leave_eligibility", {"employee_id": "EMP765822"})
    assert out["error_type"] == "authentication_required"


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


# ── DEA ──────────────────────────────────────────────────────────────────────


# ── privileges ───────────────────────────────────────────────────────────────


def test_results_are_snapshots_not_live_records(make: Make) -> None:
    ex = make("A3")
    employee_login(ex, "EMP963333", otp=True)
    rec = ok(ex.execute("get_privilege_record", {"npi": "8598503901"}))
    rec["privileges"]["privilege_list"][0]["status"] = "active"
    live = ex.db["providers"]["8598503901"]["privileges"]["privilege_list"][0]["status"]
    assert live == "suspended"
