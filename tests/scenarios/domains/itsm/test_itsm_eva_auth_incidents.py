"""ITSM conventions, auth tools, lookups and incidents matched to EVA's tool code
(`eva-tool-semantics.md` sections 0 and 2.1-2.4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from voxbench.scenarios.domains.itsm._base import new_id

from .helpers import EMP, MGR, OTHER, call, login

Run = Callable[..., dict[str, Any]]


# --- conventions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "error_type", "message"),
    [
        ({"employee_id": "E123", "phone_last_four": "7294"}, "invalid_employee_id_format",
         "Invalid employee_id 'E123': must be EMP followed by 6 digits (e.g. EMP048271)"),
        ({"employee_id": "emp048271", "phone_last_four": "7294"}, "invalid_employee_id_format", None),
        ({"employee_id": EMP, "phone_last_four": "72945"}, "invalid_phone_format", None),
        ({"employee_id": EMP}, "invalid_phone_format", None),
    ],
)  # fmt: skip
def test_validation_uses_evas_error_map(
    run: Run, params: dict[str, Any], error_type: str, message: str | None
) -> None:
    r = run("verify_employee_auth", **params)
    assert r["error_type"] == error_type
    if message:
        assert r["message"] == message


REQ = "REQ-SW-0a1b2c3d4e5f"


@pytest.mark.parametrize(
    ("tool", "params", "field"),
    [
        ("get_request_status", {"employee_id": EMP, "request_id": "REQ-SW-048271"}, "request_id"),
        ("get_request_status", {"employee_id": EMP, "request_id": "REQ-SW-0A1B2C3D4E5F"}, "request_id"),
        ("get_request_status", {"employee_id": EMP, "request_id": "REQ-S-0a1b2c3d4e5f"}, "request_id"),
        ("get_request_status", {"employee_id": EMP, "request_id": "REQ-SOFTWR-0a1b2c3d4e5f"}, "request_id"),
        ("escalate_approval", {"employee_id": EMP, "request_id": "REQ-SW-0a1b2c3d4e5",
                               "escalate_to_employee_id": MGR}, "request_id"),
        ("route_approval_workflow", {"employee_id": EMP, "request_id": "req-sw-0a1b2c3d4e5f",
                                     "approver_employee_id": MGR}, "request_id"),
        ("schedule_access_review", {"employee_id": EMP, "case_id": "CASE-ACCT-048271",
                                    "review_date": "2026-06-10"}, "case_id"),
        ("initiate_asset_recovery", {"departing_employee_id": EMP, "case_id": "CASE-ACCT-0a1b2c3d4e5g",
                                     "recovery_method": "drop_off"}, "case_id"),
    ],
)  # fmt: skip
def test_request_and_case_ids_have_evas_shape(
    run: Run, tool: str, params: dict[str, Any], field: str
) -> None:
    """EVA: `REQ-`/`CASE-`, 2-5 capitals, a dash, 12 lower-case hex; else its format error
    (before auth and lookup), never `not_found`."""
    r = run(tool, **params)
    kind = "request" if field == "request_id" else "case"
    assert r["error_type"] == f"invalid_{kind}_id_format"
    assert r["message"].startswith(f"Invalid {field} '{params[field]}': must be ")
    assert "(e.g. " in r["message"]


def test_well_formed_unknown_request_id_is_not_found(run: Run) -> None:
    run("verify_employee_auth", employee_id=EMP, phone_last_four="7294")
    for rid in (REQ, "REQ-ACCT-0a1b2c3d4e5f", "REQ-FACIL-0a1b2c3d4e5f"):
        assert run("get_request_status", employee_id=EMP, request_id=rid)["error_type"] == "not_found"


def test_unmapped_field_and_bounds_give_invalid_parameter(run: Run) -> None:
    login_r = run("verify_employee_auth", employee_id=EMP, phone_last_four="7294")
    assert login_r["status"] == "success"
    r = run("check_room_availability", building_code="BLD4", date="2026-03-11", start_time="09:00", end_time="10:00",
            min_capacity=51)  # fmt: skip
    assert r == {
        "status": "error",
        "error_type": "invalid_parameter",
        "message": "Invalid 'min_capacity': Input should be less than or equal to 50",
    }
    r = run("transfer_to_agent", employee_id=EMP, transfer_reason="caller_requested", issue_summary="short")
    assert r["error_type"] == "invalid_parameter"


def test_employee_missing_is_not_found_after_auth(db: dict[str, Any]) -> None:
    assert call("get_employee_record", db, employee_id=OTHER)["error_type"] == "authentication_required"
    login(db)
    assert call("get_employee_record", db, employee_id=OTHER) == {
        "status": "error",
        "error_type": "not_found",
        "message": f"Employee {OTHER} not found",
    }


def test_content_hash_ids_strip_mutable_keys_and_ids_at_every_level() -> None:
    a = {"x": 1, "nested": {"status": "open", "ref": "INC0048271", "sla_tier": "tier_1"}, "status": "new"}
    b = {"x": 1, "nested": {"ref": "REQ-SW-abc123"}}
    assert new_id(a) == new_id(b)


# --- auth tools ---------------------------------------------------------------------------


def test_names_are_returned_as_stored(db: dict[str, Any]) -> None:
    r = call("verify_employee_auth", db, employee_id=EMP, phone_last_four="7294")
    assert (r["first_name"], r["last_name"]) == ("ava", "chen")
    assert call("get_employee_record", db, employee_id=EMP)["employee"]["first_name"] == "ava"


def test_phone_mismatch_message(db: dict[str, Any]) -> None:
    r = call("verify_employee_auth", db, employee_id=EMP, phone_last_four="0000")
    assert r == {
        "status": "error",
        "error_type": "authentication_failed",
        "message": "Phone number does not match",
    }


def test_otp_can_go_to_any_existing_employee_after_auth(db: dict[str, Any]) -> None:
    assert call("initiate_otp_auth", db, employee_id=OTHER)["error_type"] == "authentication_required"
    login(db)
    assert call("initiate_otp_auth", db, employee_id=MGR)["status"] == "success"


def test_otp_verification_messages_and_consumption(db: dict[str, Any]) -> None:
    r = call("verify_otp_auth", db, employee_id=EMP, otp_code="481926")
    assert (r["error_type"], r["message"]) == ("otp_not_initiated", "Call initiate_otp_auth first")
    login(db)
    call("initiate_otp_auth", db, employee_id=MGR)
    wrong = call("verify_otp_auth", db, employee_id=EMP, otp_code="111111")
    assert (wrong["error_type"], wrong["message"]) == ("authentication_failed", "OTP does not match")
    assert call("verify_otp_auth", db, employee_id=EMP, otp_code="481926")["status"] == "success"
    assert "otp_issued" not in db["session"] and "otp_employee_id" not in db["session"]
    assert (
        call("verify_otp_auth", db, employee_id=EMP, otp_code="481926")["error_type"] == "otp_not_initiated"
    )


def test_manager_auth_order_and_messages(db: dict[str, Any]) -> None:
    r = call("verify_manager_auth", db, employee_id=EMP, phone_last_four="7294", manager_auth_code="ABC123")
    assert (r["error_type"], r["message"]) == ("authentication_failed", "Manager auth code does not match")
    db["employees"][EMP]["manager_auth_code"] = "ABC123"
    r = call("verify_manager_auth", db, employee_id=EMP, phone_last_four="7294", manager_auth_code="ABC123")
    assert r == {"status": "error", "error_type": "not_authorized", "message": f"{EMP} is not a manager"}
    r = call("verify_manager_auth", db, employee_id=MGR, phone_last_four="0000", manager_auth_code="M7Q2L9")
    assert r["message"] == "Phone number does not match"


def test_manager_auth_counts_as_employee_auth(db: dict[str, Any]) -> None:
    login(db, manager=True)
    assert call("get_employee_record", db, employee_id=MGR)["status"] == "success"


def test_manager_code_is_case_sensitive(run: Run) -> None:
    r = run("verify_manager_auth", employee_id=MGR, phone_last_four="4418", manager_auth_code="m7q2l9")
    assert r["error_type"] == "invalid_parameter"


# --- lookups -------------------------------------------------------------------------------


def test_employee_record_has_only_present_fields(db: dict[str, Any]) -> None:
    login(db)
    view = call("get_employee_record", db, employee_id=EMP)["employee"]
    assert "hire_date" not in view and "building_code" not in view and view["role_code"] == "SWE"


def test_asset_and_assets_lookups(db: dict[str, Any]) -> None:
    login(db)
    r = call("get_asset_record", db, asset_tag="AST-LPT-999999")
    assert r == {"status": "error", "error_type": "not_found", "message": "Asset AST-LPT-999999 not found"}
    r = call("get_employee_assets", db, employee_id=OTHER)
    assert (r["status"], r["assets"]) == ("success", [])


def test_guide_miss_message(db: dict[str, Any]) -> None:
    login(db)
    r = call("get_troubleshooting_guide", db, issue_category="login_issue")
    assert (r["error_type"], r["message"]) == ("guide_not_found", "No guide for login_issue")


# --- facility names -------------------------------------------------------------------------


def test_code_shaped_building_is_taken_as_is(db: dict[str, Any]) -> None:
    login(db)
    r = call("check_desk_availability", db, building_code="BLD9", floor_code="FL2")
    assert (r["status"], r["building_code"]) == ("success", "BLD9")
    r = call("check_desk_availability", db, building_code="bld4", floor_code="FL2")
    assert r["error_type"] == "name_not_found"


def test_name_match_deletes_punctuation_keeps_spaces_and_accents(db: dict[str, Any]) -> None:
    login(db)
    db["facilities"]["buildings"]["BLD4"]["name_aliases"].append("Cité Nord")
    assert (
        call("check_desk_availability", db, building_code="EAST CAMPUS!", floor_code="FL2")["building_code"]
        == "BLD4"
    )
    assert (
        call("check_desk_availability", db, building_code="cité nord", floor_code="FL2")["building_code"]
        == "BLD4"
    )
    r = call("check_desk_availability", db, building_code="East-Campus", floor_code="FL2")
    assert r["message"] == (
        "Building 'East-Campus' not recognized. Provide a code or a known name. Known names: East Campus."
    )


# --- incidents ----------------------------------------------------------------------------


def test_unlock_account_key_and_holds(db: dict[str, Any]) -> None:
    login(db)
    r = call("attempt_account_unlock", db, employee_id=EMP, target_system="email_exchange")
    assert r == {
        "status": "error",
        "error_type": "no_account",
        "message": f"No account found on email_exchange for {EMP}",
    }
    db["employees"][EMP]["account_status"]["sso_identity"] = {"locked": True, "lock_reason": "security_hold"}
    assert (
        call("attempt_account_unlock", db, employee_id=EMP, target_system="sso_identity")["status"]
        == "success"
    )
    db["employees"][EMP]["account_status"]["erp_oracle"] = {"locked": False}
    r = call("attempt_account_unlock", db, employee_id=EMP, target_system="erp_oracle")
    assert (r["error_type"], r["message"]) == ("not_locked", "Account on erp_oracle is not locked")


def test_password_reset_writes_the_account(db: dict[str, Any]) -> None:
    login(db)
    r = call("attempt_password_reset", db, employee_id=EMP, target_system="active_directory")
    assert r["message"] == "Temporary password sent to phone on file. Caller must change on first login."
    acct = db["employees"][EMP]["account_status"]["active_directory"]
    assert (acct["password_expired"], acct["temp_password_issued"]) == (False, True)
    db["employees"][EMP]["account_status"]["vpn_gateway"] = {"requires_in_person_reset": True}
    r = call("attempt_password_reset", db, employee_id=EMP, target_system="vpn_gateway")
    assert (
        r["message"]
        == "Password reset for vpn_gateway requires in-person verification at the IT security office"
    )
    r = call("attempt_password_reset", db, employee_id=EMP, target_system="erp_oracle")
    assert (r["error_type"], r["message"]) == ("no_account", f"No account on erp_oracle for {EMP}")


def test_password_reset_has_no_security_hold_gate(db: dict[str, Any]) -> None:
    login(db)
    db["employees"][EMP]["account_status"]["sso_identity"] = {
        "locked": True,
        "lock_reason": "security_investigation",
    }
    assert (
        call("attempt_password_reset", db, employee_id=EMP, target_system="sso_identity")["status"]
        == "success"
    )


def _ticket(db: dict[str, Any], **over: Any) -> dict[str, Any]:
    p = {"employee_id": OTHER, "category": "hardware_malfunction", "urgency": "high",
         "affected_system": "vpn", "troubleshooting_completed": True} | over  # fmt: skip
    return call("create_incident_ticket", db, **p)


def test_ticket_needs_no_employee_or_asset_and_message(db: dict[str, Any]) -> None:
    login(db)
    assert _ticket(db)["status"] == "success"
    r = _ticket(db, category="login_issue", troubleshooting_completed=False)
    assert r["message"] == "Complete troubleshooting before creating login_issue ticket"


def test_sla_tier_mismatch_and_unknown_urgency(db: dict[str, Any]) -> None:
    login(db)
    tn = _ticket(db)["ticket_number"]
    r = call("assign_sla_tier", db, ticket_number=tn, sla_tier="tier_3")
    assert r == {"status": "error", "error_type": "tier_urgency_mismatch",
                 "message": "Ticket urgency is 'high' which requires tier_1, not tier_3"}  # fmt: skip
    db["tickets"][tn]["urgency"] = "critical"
    assert call("assign_sla_tier", db, ticket_number=tn, sla_tier="tier_3")["status"] == "success"
    r = call("assign_sla_tier", db, ticket_number="INC0000001", sla_tier="tier_1")
    assert r["error_type"] == "not_found"


def test_outage_status_ignored_and_count_default(db: dict[str, Any]) -> None:
    login(db)
    db["active_outages"] = {
        "vpn_gateway": {"ticket_number": "INC0000009", "status": "resolved", "affected_users": [MGR]}
    }
    r = call("check_existing_outage", db, service_name="vpn_gateway")
    assert (r["existing_outage"], r["affected_user_count"]) == (True, 0)


def test_add_affected_user_counts_the_list_and_never_duplicates(db: dict[str, Any]) -> None:
    login(db)
    db["active_outages"] = {
        "vpn_gateway": {"ticket_number": "INC0000009", "affected_users": [MGR], "affected_user_count": 40}
    }
    r = call("add_affected_user", db, ticket_number="INC0000009", employee_id=OTHER)
    assert r["total_affected"] == 2
    r = call("add_affected_user", db, ticket_number="INC0000009", employee_id=OTHER)
    assert r["status"] == "success" and db["active_outages"]["vpn_gateway"]["affected_users"] == [MGR, OTHER]
    r = call("add_affected_user", db, ticket_number="INC0000001", employee_id=EMP)
    assert r == {
        "status": "error",
        "error_type": "ticket_not_found",
        "message": "No active outage INC0000001",
    }


def test_known_error_by_service_key(db: dict[str, Any]) -> None:
    login(db)
    tn = _ticket(db)["ticket_number"]
    db["known_errors"] = {"KE-1": {"known_error_id": "KE-1", "service_name": "vpn_gateway"}}
    assert call("link_known_error", db, ticket_number=tn, service_name="vpn_gateway")["linked"] is False
    db["known_errors"] = {"vpn_gateway": {"known_error_id": "KE-1", "service_name": "vpn_gateway"}}
    assert call("link_known_error", db, ticket_number=tn, service_name="vpn_gateway")["linked"] is True


def test_dispatch_reads_date_then_window_and_ignores_building(db: dict[str, Any]) -> None:
    login(db)
    tn = _ticket(db)["ticket_number"]
    db["field_dispatch_availability"] = {
        "2026-03-11": {"morning": {"available": True}, "afternoon": {"available": False}},
        "2026-03-12": {"morning": {"available": True}, "afternoon": {"available": True}},
    }
    base = {
        "ticket_number": tn,
        "employee_id": OTHER,
        "building_code": "Nowhere",
        "preferred_date": "2026-03-11",
    }
    r = call("schedule_field_dispatch", db, time_window="full_day", **base)
    assert r["message"] == "No tech on 2026-03-11 full_day"
    assert r["alternative_slots"] == [
        {"date": "2026-03-11", "time_window": "morning"},
        {"date": "2026-03-12", "time_window": "morning"},
        {"date": "2026-03-12", "time_window": "afternoon"},
    ]
    assert call("schedule_field_dispatch", db, time_window="morning", **base)["status"] == "success"
    assert db["field_dispatch_availability"]["2026-03-11"]["morning"]["available"] is False


def test_diagnostic_log_miss_is_not_found(db: dict[str, Any]) -> None:
    login(db)
    r = call("attach_diagnostic_log", db, ticket_number="INC0000001", diagnostic_ref_code="DIAG-ABCDEFGH")
    assert r["error_type"] == "not_found"
