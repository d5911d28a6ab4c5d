"""ITSM hardware, software, licenses and security matched to EVA's tool code
(`eva-tool-semantics.md` sections 2.5, 2.6 and 2.10)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .helpers import EMP, MGR, OTHER, call, login

Run = Callable[..., dict[str, Any]]
MONITOR = {"request_type": "monitor_bundle", "justification": "new_setup", "delivery_building": "BLD4",
           "delivery_floor": "FL2", "monitor_size": "24_inch"}  # fmt: skip


# --- hardware -------------------------------------------------------------------------------


def test_entitlement_errors(db: dict[str, Any]) -> None:
    login(db)
    r = call("check_hardware_entitlement", db, employee_id=EMP, request_type="monitor_bundle")
    assert r == {
        "status": "error",
        "error_type": "no_entitlement",
        "message": "No entitlement for monitor_bundle",
    }
    ent = db["employees"][EMP]["hardware_entitlements"]["laptop_replacement"]
    ent.update(pending_request=True, pending_request_id="REQ-HW-1")
    r = call("check_hardware_entitlement", db, employee_id=EMP, request_type="laptop_replacement")
    assert r == {"status": "error", "error_type": "request_already_pending", "message": "Pending: REQ-HW-1"}
    db["employees"][EMP]["hardware_entitlements"]["monitor_bundle"] = {"current_asset_tag": "AST-LPT-100001"}
    db["assets"]["AST-LPT-100001"]["purchase_date"] = "2025-09-01"
    r = call("check_hardware_entitlement", db, employee_id=EMP, request_type="monitor_bundle")
    assert (r["error_type"], r["message"]) == (
        "replaced_too_recently",
        "Monitor is 6 months old; minimum 12 months between replacements.",
    )


def test_hardware_request_checks_only_auth_and_building(db: dict[str, Any]) -> None:
    login(db)
    r = call("submit_hardware_request", db, employee_id=OTHER, **MONITOR)  # unknown employee, no entitlement
    assert r["status"] == "success" and db["requests"][r["request_id"]]["employee_id"] == OTHER


def test_hardware_request_drops_other_type_fields(run: Run) -> None:
    run("verify_employee_auth", employee_id=EMP, phone_last_four="7294")
    r = run(
        "submit_hardware_request",
        employee_id=EMP,
        **{**MONITOR, "laptop_os": "macos", "current_asset_tag": "n/a"},
    )
    assert r["status"] == "success"


def test_hardware_request_justification_must_fit_type(run: Run) -> None:
    run("verify_employee_auth", employee_id=EMP, phone_last_four="7294")
    r = run("submit_hardware_request", employee_id=EMP, **{**MONITOR, "justification": "end_of_life"})
    assert r["error_type"] == "invalid_parameter" and r["message"].startswith(
        "Invalid 'parameter': Value error"
    )


def test_lost_laptop_request_marks_the_asset(db: dict[str, Any]) -> None:
    login(db)
    r = call("submit_hardware_request", db, employee_id=EMP, request_type="laptop_replacement",
             justification="lost_or_stolen", delivery_building="BLD4", delivery_floor="FL2",
             current_asset_tag="AST-LPT-100001", laptop_os="macos", laptop_size="14_inch")  # fmt: skip
    assert r["status"] == "success"
    asset = db["assets"]["AST-LPT-100001"]
    assert (asset["lifecycle_status"], asset["status"]) == ("lost_or_stolen", "inactive")


def test_asset_return_needs_only_the_asset(db: dict[str, Any]) -> None:
    login(db)
    r = call(
        "initiate_asset_return", db, employee_id=OTHER, asset_tag="AST-LPT-100001", request_id="REQ-HW-nope"
    )
    assert r["status"] == "success"
    assert db["assets"]["AST-LPT-100001"]["return_authorization"]["request_id"] == "REQ-HW-nope"
    r = call("initiate_asset_return", db, employee_id=EMP, asset_tag="AST-LPT-999999", request_id="REQ-HW-1")
    assert r["error_type"] == "not_found"


def test_cost_center_budget_rules(db: dict[str, Any]) -> None:
    login(db)
    cc = db["cost_centers"]["CC-1"]
    del cc["has_budget"]
    r = call("verify_cost_center_budget", db, employee_id=EMP)
    assert (r["status"], r["remaining_budget_usd"], r["department_code"]) == ("success", 0, "ENG")
    cc["department_code"] = "FIN"
    r = call("verify_cost_center_budget", db, employee_id=EMP)
    assert r == {
        "status": "error",
        "error_type": "department_mismatch",
        "message": "CC-1 belongs to FIN, not ENG",
    }
    r = call("validate_cost_center", db, employee_id=EMP)
    assert r["message"] == "CC-1 not for ENG"
    db["employees"][EMP]["cost_center_code"] = "CC-9"
    assert call("verify_cost_center_budget", db, employee_id=EMP)["message"] == "Cost center CC-9 not found"
    db["employees"][EMP]["cost_center_code"] = None
    assert call("validate_cost_center", db, employee_id=EMP)["error_type"] == "cc_not_on_file"


# --- software -------------------------------------------------------------------------------


def _app(db: dict[str, Any], **over: Any) -> None:
    db["software_catalog"]["APP-1"] = {"catalog_id": "APP-1", "name": "Datadog", "vendor": "Datadog Inc",
        "requires_manager_approval": False, "available_access_levels": ["standard"],
        "department_restrictions": ["FIN"], "name_aliases": ["data dog"], "tier": "gold"} | over  # fmt: skip


def test_catalog_match_by_name_only_and_whole_entry(db: dict[str, Any]) -> None:
    login(db)
    _app(db)
    r = call("get_application_details", db, application_name="Data-Dog")
    assert r["application"]["tier"] == "gold" and r["catalog_id"] == "APP-1"
    r = call("get_application_details", db, application_name="APP-1")
    assert r == {"status": "error", "error_type": "not_found",
                 "message": "No application matching 'APP-1'. Please confirm the exact product name."}  # fmt: skip
    r = call("get_license_catalog_item", db, license_name="Figma")
    assert r["message"] == "No license matching 'Figma'. Please confirm the exact product name."


def test_access_request_rules(db: dict[str, Any]) -> None:
    login(db)
    _app(db)
    r = call("submit_access_request", db, employee_id=EMP, catalog_id="APP-1", access_level="standard")
    assert r["message"] == "Authentication (otp_auth) required"
    login(db, otp=True)
    assert (
        call("submit_access_request", db, employee_id=OTHER, catalog_id="APP-1", access_level="standard")[
            "status"
        ]
        == "success"
    )  # no employee or department-restriction check
    r = call("submit_access_request", db, employee_id=EMP, catalog_id="APP-1", access_level="admin")
    assert r == {
        "status": "error",
        "error_type": "invalid_access_level",
        "message": "'admin' not available. Options: ['standard']",
    }
    _app(db, available_access_levels=[])
    assert (
        call("submit_access_request", db, employee_id=EMP, catalog_id="APP-1", access_level="standard")[
            "error_type"
        ]
        == "invalid_access_level"
    )
    r = call("submit_access_request", db, employee_id=EMP, catalog_id="APP-9", access_level="standard")
    assert r["message"] == "App APP-9 not found"


def test_route_approval_needs_only_request_and_approver(db: dict[str, Any]) -> None:
    login(db)
    db["requests"]["REQ-SW-1"] = {"request_id": "REQ-SW-1", "employee_id": MGR, "status": "approved",
                                  "approval_routed_to": MGR}  # fmt: skip
    r = call("route_approval_workflow", db, request_id="REQ-SW-1", employee_id=EMP, approver_employee_id=MGR)
    assert (
        r["status"] == "success" and db["requests"]["REQ-SW-1"]["approval_sla_deadline"] == "2026-03-12 00:00"
    )
    r = call(
        "route_approval_workflow", db, request_id="REQ-SW-1", employee_id=EMP, approver_employee_id=OTHER
    )
    assert r["error_type"] == "not_found"


def test_request_status_fields_and_breach_day(db: dict[str, Any]) -> None:
    login(db)
    db["requests"]["REQ-SW-1"] = {"request_id": "REQ-SW-1", "status": "approved", "created_date": "2026-03-01",
                                  "approval_sla_deadline": "2026-03-10 00:00"}  # fmt: skip
    r = call("get_request_status", db, request_id="REQ-SW-1")
    assert r["sla_breached"] is False and r["created_date"] == "2026-03-01"
    assert r["message"] == "Request REQ-SW-1 is approved" and "request" not in r
    db["_current_date"] = "2026-03-11"
    assert call("get_request_status", db, request_id="REQ-SW-1")["message"] == (
        "Request REQ-SW-1 is approved (SLA breached)"
    )


def test_escalation_writes_status_and_needs_a_routing(db: dict[str, Any]) -> None:
    login(db)
    db["requests"]["REQ-SW-1"] = {"request_id": "REQ-SW-1", "status": "approved"}
    r = call("escalate_approval", db, request_id="REQ-SW-1", escalate_to_employee_id=MGR)
    assert r["message"] == "Request has no pending approval routing to escalate"
    db["requests"]["REQ-SW-1"]["approval_sla_deadline"] = "2026-03-09 00:00"
    r = call("escalate_approval", db, request_id="REQ-SW-1", escalate_to_employee_id=MGR)
    assert r["approver_name"] == "ava chen" and r["message"] == "Escalated to ava chen. 48h window."
    req = db["requests"]["REQ-SW-1"]
    assert (req["status"], "escalation_date" in req) == ("escalated", False)


# --- licenses -------------------------------------------------------------------------------


def test_license_request_checks_only_auth_and_format(run: Run) -> None:
    run("verify_employee_auth", employee_id=EMP, phone_last_four="7294")
    r = run("submit_license_request", employee_id=OTHER, catalog_id="LIC-9999", duration_days=0)
    assert (r["status"], r["license_type"]) == ("success", "permanent")
    assert (
        run("submit_license_request", employee_id=EMP, catalog_id="LIC-9999", duration_days="")["status"]
        == "success"
    )
    assert run("submit_license_request", employee_id=EMP, catalog_id="LIC-99", duration_days=30)[
        "error_type"
    ] == ("invalid_parameter")


def test_license_renewal_windows_and_new_expiry(db: dict[str, Any]) -> None:
    login(db)
    lic = db["employees"][EMP]["software_licenses"][0]
    r = call("submit_license_renewal", db, employee_id=EMP, license_assignment_id="LASGN-000001")
    assert r["message"].startswith("License expires in 175 days. Renewal is only available within 30 days")
    lic["expiration_date"] = "2026-02-20"
    r = call("submit_license_renewal", db, employee_id=EMP, license_assignment_id="LASGN-000001")
    assert r["message"].startswith("License expired 18 days ago.") and r["expiration_date"] == "2026-02-20"
    lic["expiration_date"] = "2026-03-01"
    r = call("submit_license_renewal", db, employee_id=EMP, license_assignment_id="LASGN-000001")
    assert r["new_expiration_date"] == "2027-03-10"  # max(expiry, today) + 365 days
    lic["expiration_date"] = None
    r = call("submit_license_renewal", db, employee_id=EMP, license_assignment_id="LASGN-000001")
    assert r["new_expiration_date"] == "2027-03-10"
    r = call("submit_license_renewal", db, employee_id=EMP, license_assignment_id="LASGN-000009")
    assert r == {"status": "error", "error_type": "not_found", "message": "License LASGN-000009 not found"}


# --- security -------------------------------------------------------------------------------


def test_security_incident_record_and_asset_mark(db: dict[str, Any]) -> None:
    login(db)
    r = call(
        "report_security_incident", db, employee_id=EMP, asset_tag="AST-LPT-100001", incident_type="stolen"
    )
    case = db["security_cases"][r["security_case_id"]]
    assert "opened_date" in case and "created_date" not in case
    assert r["message"] == f"Security case {r['security_case_id']} opened"
    assert db["assets"]["AST-LPT-100001"]["lifecycle_status"] == "lost_or_stolen"
    r = call(
        "report_security_incident", db, employee_id=MGR, asset_tag="AST-LPT-100001", incident_type="lost"
    )
    assert r == {"status": "error", "error_type": "not_assigned_to_caller",
                 "message": f"Asset AST-LPT-100001 is not assigned to {MGR}"}  # fmt: skip


def test_remote_wipe_writes_asset_and_case(db: dict[str, Any]) -> None:
    login(db)
    sec = call(
        "report_security_incident", db, employee_id=EMP, asset_tag="AST-LPT-100001", incident_type="lost"
    )
    r = call("initiate_remote_wipe", db, security_case_id=sec["security_case_id"], asset_tag="AST-LPT-100001")
    assert r == {"status": "success", "wipe_id": "WIPE-100001", "asset_tag": "AST-LPT-100001",
                 "message": "Remote wipe dispatched: WIPE-100001"}  # fmt: skip
    asset = db["assets"]["AST-LPT-100001"]
    assert asset["status"] == "wiped" and asset["remote_wipe"]["wipe_id"] == "WIPE-100001"
    assert db["security_cases"][sec["security_case_id"]]["remote_wipe_id"] == "WIPE-100001"
    db["assets"]["AST-LPT-200002"] = {"asset_tag": "AST-LPT-200002"}
    r = call("initiate_remote_wipe", db, security_case_id=sec["security_case_id"], asset_tag="AST-LPT-200002")
    assert (r["error_type"], r["message"]) == (
        "case_asset_mismatch",
        "asset_tag does not match the security case",
    )
    r = call("initiate_remote_wipe", db, security_case_id="SEC-nope", asset_tag="AST-LPT-100001")
    assert r["message"] == "Security case SEC-nope not found"


def test_mfa_reset_case_shape(db: dict[str, Any]) -> None:
    login(db)
    r = call("submit_mfa_reset", db, employee_id=EMP, new_phone_last_four="9912")
    case = db["security_cases"][r["security_case_id"]]
    assert (case["incident_type"], case["status"], case["requested_new_phone_last_four"]) == (
        "mfa_reset_request",
        "requires_in_person",
        "9912",
    )
    assert r["message"].startswith("Phone-of-record changes cannot be made over the phone. Please visit")
