"""ITSM tool error paths and rules that EVA's public traces do not exercise."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from voxbench.scenarios.domains.itsm import TOOLS
from voxbench.scenarios.executor import ToolExecutor
from voxbench.scenarios.loader import load_dataset

EMP, MGR, OTHER = "EMP048271", "EMP031144", "EMP099999"


def _employee(eid: str, **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "employee_id": eid,
        "first_name": "ava",
        "last_name": "chen",
        "department_code": "ENG",
        "role_code": "SWE",
        "phone_last_four": "7294",
        "otp_code": "481926",
        "is_manager": False,
        "manager_auth_code": None,
        "manager_employee_id": MGR,
        "direct_reports": [],
        "cost_center_code": "CC-1",
        "account_status": {
            "active_directory": {
                "locked": True,
                "lock_reason": "too_many_attempts",
                "requires_in_person_reset": False,
            },
            "email": {
                "locked": True,
                "lock_reason": "security_investigation",
                "requires_in_person_reset": False,
            },
            "vpn": {"locked": False, "lock_reason": None, "requires_in_person_reset": True},
        },
        "assigned_desk": None,
        "last_desk_assignment_date": None,
        "assigned_parking": None,
        "last_parking_assignment_date": "2026-01-10",
        "ergonomic_assessment": {"status": "not_completed", "completed_date": None},
        "group_memberships": [],
        "hardware_entitlements": {
            "laptop_replacement": {
                "current_asset_tag": "AST-LPT-100001",
                "pending_request": False,
                "pending_request_id": None,
            }
        },
        "software_licenses": [
            {
                "license_assignment_id": "LASGN-000001",
                "catalog_id": "LIC-1",
                "software_name": "Figma",
                "license_type": "permanent",
                "expiration_date": "2026-09-01",
                "status": "active",
            }
        ],
        "pending_role_approval": {"approved_by_hr": False, "new_role_code": None, "effective_date": None},
        "offboarding_record": {"status": None, "access_removed": False},
    }
    base.update(extra)
    return base


@pytest.fixture
def db() -> dict[str, Any]:
    return {
        "_current_date": "2026-03-10",
        "session": {},
        "employees": {
            EMP: _employee(EMP),
            MGR: _employee(
                MGR, is_manager=True, manager_auth_code="M7Q2L9", direct_reports=[EMP], phone_last_four="4418"
            ),
        },
        "assets": {
            "AST-LPT-100001": {
                "asset_tag": "AST-LPT-100001",
                "asset_type": "laptop",
                "assigned_employee_id": EMP,
                "purchase_date": "2024-03-05",
                "model": "X1",
            }
        },
        "cost_centers": {"CC-1": {"cost_center_code": "CC-1", "department_code": "ENG", "has_budget": False}},
        "facilities": {
            "buildings": {"BLD4": {"name": "East Campus", "name_aliases": ["East Campus", "Campus Est"]}},
            "zones": {},
            "desks": {},
            "parking": {"PZA-001": {"zone_code": "PZA", "status": "available"}},
        },
        "access_groups": {
            "GRP-FIN": {
                "group_code": "GRP-FIN",
                "name": "Finance",
                "requires_approval": False,
                "eligible_departments": ["FIN"],
            }
        },
        "software_catalog": {},
        "requests": {},
        "tickets": {},
        "security_cases": {},
    }


def call(name: str, db: dict[str, Any], n: int = 1, **params: Any) -> dict[str, Any]:
    return TOOLS[name](params, db, n)


def login(db: dict[str, Any], otp: bool = False) -> None:
    assert call("verify_employee_auth", db, employee_id=EMP, phone_last_four="7294")["status"] == "success"
    if otp:
        assert call("initiate_otp_auth", db, employee_id=EMP)["status"] == "success"
        assert call("verify_otp_auth", db, employee_id=EMP, otp_code="481926")["status"] == "success"


def test_every_tool_requires_verification(db: dict[str, Any]) -> None:
    r = call("get_employee_record", db, employee_id=EMP)
    assert r["error_type"] == "authentication_required"
    r = call("submit_hardware_request", db, employee_id=EMP, request_type="monitor_bundle", justification="new_setup",
             delivery_building="BLD4", delivery_floor="FL2", monitor_size="24_inch")  # fmt: skip
    assert r["error_type"] == "authentication_required"


def test_auth_failures(db: dict[str, Any]) -> None:
    assert (
        call("verify_employee_auth", db, employee_id="E123", phone_last_four="7294")["error_type"]
        == "invalid_employee_id"
    )
    assert (
        call("verify_employee_auth", db, employee_id=OTHER, phone_last_four="7294")["error_type"]
        == "employee_not_found"
    )
    assert (
        call("verify_employee_auth", db, employee_id=EMP, phone_last_four="0000")["error_type"]
        == "authentication_failed"
    )
    assert db["session"] == {}
    assert (
        call("verify_otp_auth", db, employee_id=EMP, otp_code="481926")["error_type"] == "otp_not_initiated"
    )
    login(db)
    call("initiate_otp_auth", db, employee_id=EMP)
    assert call("verify_otp_auth", db, employee_id=EMP, otp_code="111111")["error_type"] == "invalid_otp"
    assert "otp_auth" not in db["session"]
    r = call("verify_manager_auth", db, employee_id=EMP, phone_last_four="7294", manager_auth_code="ABC123")
    assert r["error_type"] == "not_a_manager"
    r = call("verify_manager_auth", db, employee_id=MGR, phone_last_four="4418", manager_auth_code="ZZZ999")
    assert r["error_type"] == "authentication_failed"


def test_elevated_actions_need_otp(db: dict[str, Any]) -> None:
    login(db)
    r = call("submit_group_membership_change", db, employee_id=EMP, group_code="GRP-FIN", action="add")
    assert r["error_type"] == "authentication_required"
    r = call("submit_access_removal", db, manager_employee_id=MGR, departing_employee_id=EMP,
             last_working_day="2026-04-01", removal_scope="full")  # fmt: skip
    assert r["error_type"] == "authentication_required"


def test_group_eligibility_is_enforced(db: dict[str, Any]) -> None:
    login(db, otp=True)
    r = call("submit_group_membership_change", db, employee_id=EMP, group_code="GRP-FIN", action="add")
    assert r["error_type"] == "group_not_eligible"
    assert call("get_group_details", db, group_code="finance")["error_type"] == "invalid_group_code"
    r = call("submit_group_membership_change", db, employee_id=EMP, group_code="GRP-FIN", action="remove")
    assert r["error_type"] == "not_a_member"


def test_unlock_reset_and_security_hold(db: dict[str, Any]) -> None:
    login(db)
    r = call("attempt_account_unlock", db, employee_id=EMP, target_system="email_exchange")
    assert r["error_type"] == "cannot_unlock_security_hold"
    assert r["lock_reason"] == "security_investigation"
    r = call("attempt_account_unlock", db, employee_id=EMP, target_system="vpn_gateway")
    assert r["error_type"] == "account_not_locked"
    assert call("attempt_password_reset", db, employee_id=EMP, target_system="vpn_gateway")["error_type"] == (
        "in_person_required"
    )
    r = call("attempt_password_reset", db, employee_id=EMP, target_system="active_directory")
    assert r["status"] == "success"


def test_ticket_rules(db: dict[str, Any]) -> None:
    login(db)
    r = call("create_incident_ticket", db, employee_id=EMP, category="network_connectivity", urgency="high",
             affected_system="vpn", troubleshooting_completed=False)  # fmt: skip
    assert r["error_type"] == "troubleshooting_required"
    r = call("create_incident_ticket", db, employee_id=EMP, category="hardware_malfunction", urgency="high",
             affected_system="laptop", troubleshooting_completed=True)  # fmt: skip
    assert r["error_type"] == "invalid_affected_system"
    r = call("create_incident_ticket", db, employee_id=EMP, category="login_issue", urgency="medium",
             affected_system="active_directory", troubleshooting_completed=True)  # fmt: skip
    number = r["ticket_number"]
    assert number.startswith("INC") and len(number) == 15
    assert (
        call("assign_sla_tier", db, ticket_number=number, sla_tier="tier_1")["error_type"]
        == "sla_tier_mismatch"
    )
    assert (
        call("assign_sla_tier", db, ticket_number="INC000", sla_tier="tier_2")["error_type"]
        == "ticket_not_found"
    )
    r = call("attach_diagnostic_log", db, ticket_number=number, diagnostic_ref_code="DIAG-12")
    assert r["error_type"] == "invalid_diagnostic_ref_code"


def test_hardware_rules(db: dict[str, Any]) -> None:
    login(db)
    assert call("get_asset_record", db, asset_tag="AST-LPT-1")["error_type"] == "invalid_asset_tag"
    assert call("get_asset_record", db, asset_tag="AST-LPT-999999")["error_type"] == "asset_not_found"
    r = call("check_hardware_entitlement", db, employee_id=EMP, request_type="laptop_replacement")
    assert r["error_type"] == "device_too_new" and "24 months" in r["message"]
    assert call("check_hardware_entitlement", db, employee_id=EMP, request_type="monitor_bundle")[
        "error_type"
    ] == ("not_entitled")
    assert call("verify_cost_center_budget", db, employee_id=EMP)["error_type"] == "insufficient_budget"


def test_facilities_rules(db: dict[str, Any]) -> None:
    login(db)
    r = call("check_desk_availability", db, building_code="campus est", floor_code="FL1")
    assert r["status"] == "success" and r["building_code"] == "BLD4"
    assert (
        call("check_desk_availability", db, building_code="Mars", floor_code="FL1")["error_type"]
        == "name_not_found"
    )
    r = call("submit_parking_assignment", db, employee_id=EMP, parking_space_id="PZA-001")
    assert r["error_type"] == "too_soon" and r["next_eligible_date"] == "2026-07-09"
    r = call("submit_equipment_request", db, employee_id=EMP, equipment_type="ergonomic_chair",
             delivery_building="BLD4", delivery_floor="FL1")  # fmt: skip
    assert r["error_type"] == "assessment_required"
    r = call("submit_equipment_request", db, employee_id=EMP, equipment_type="footrest",
             delivery_building="East Campus", delivery_floor="FL1")  # fmt: skip
    assert r["status"] == "success" and db["requests"][r["request_id"]]["delivery_building"] == "BLD4"
    r = call("submit_waitlist", db, employee_id=EMP, resource_type="desk", zone_or_building="BLD4")
    assert r["waitlist_id"] == "WL-DES-0001" and r["position"] == 1
    r = call("submit_waitlist", db, employee_id=EMP, resource_type="desk", zone_or_building="east campus")
    assert r["error_type"] == "already_waitlisted"


def test_license_renewal_window(db: dict[str, Any]) -> None:
    login(db)
    r = call("submit_license_renewal", db, employee_id=EMP, license_assignment_id="LASGN-000001")
    assert r["error_type"] == "not_in_renewal_window" and r["expiration_date"] == "2026-09-01"
    assert call("submit_license_renewal", db, employee_id=EMP, license_assignment_id="L-1")["error_type"] == (
        "invalid_license_assignment_id"
    )


def test_role_change_needs_hr_approval(db: dict[str, Any]) -> None:
    login(db, otp=True)
    assert call("check_role_change_authorized", db, employee_id=EMP, new_role_code="MGENG")["error_type"] == (
        "not_authorized"
    )
    assert call("get_offboarding_record", db, employee_id=EMP)["error_type"] == "no_offboarding_record"


def test_security_incident_wipe_and_mfa(db: dict[str, Any]) -> None:
    login(db)
    r = call(
        "report_security_incident", db, employee_id=EMP, asset_tag="AST-LPT-100001", incident_type="lost"
    )
    case = r["security_case_id"]
    assert case.startswith("SEC-") and db["security_cases"][case]["asset_tag"] == "AST-LPT-100001"
    r = call("initiate_remote_wipe", db, asset_tag="AST-LPT-100001", security_case_id=case)
    assert r["status"] == "success"
    r = call("initiate_remote_wipe", db, asset_tag="AST-LPT-100001", security_case_id=case)
    assert r["error_type"] == "wipe_already_initiated"
    r = call("submit_mfa_reset", db, employee_id=EMP, new_phone_last_four="9912")
    assert r["error_type"] == "in_person_required" and r["security_case_id"] in db["security_cases"]


def test_approval_escalation_only_after_breach(db: dict[str, Any]) -> None:
    login(db, otp=True)
    db["software_catalog"]["APP-1"] = {
        "catalog_id": "APP-1",
        "name": "Datadog",
        "requires_manager_approval": True,
        "available_access_levels": ["standard"],
        "department_restrictions": [],
    }
    rid = call("submit_access_request", db, employee_id=EMP, catalog_id="APP-1", access_level="standard")[
        "request_id"
    ]
    assert call("route_approval_workflow", db, request_id=rid, employee_id=EMP, approver_employee_id=MGR)[
        "status"
    ] == ("success")
    assert call("get_request_status", db, request_id=rid)["sla_breached"] is False
    r = call("escalate_approval", db, request_id=rid, escalate_to_employee_id=MGR)
    assert r["error_type"] == "sla_not_breached"
    later = copy.deepcopy(db)
    later["_current_date"] = "2026-03-13"
    assert call("get_request_status", later, request_id=rid)["sla_breached"] is True
    r = call("escalate_approval", later, request_id=rid, escalate_to_employee_id=MGR)
    assert r["status"] == "success" and later["requests"][rid]["escalated_to"] == MGR


def test_real_scenario_rejects_bad_formats_and_keeps_db(eva_data: Path) -> None:
    dd = load_dataset(eva_data, ["itsm"]).domains["itsm"]
    sid = "1"
    sc = dd.scenarios[sid]
    ex = ToolExecutor("itsm", dd.initial_db(sid), sc.current_date_time, dd.agent)
    before = copy.deepcopy(ex.db)
    assert (
        ex.execute("get_employee_record", {"employee_id": "EMP048271"})["error_type"]
        == "authentication_required"
    )
    assert ex.execute("verify_employee_auth", {"employee_id": "EMP048271", "phone_last_four": "7294"})[
        "status"
    ] == ("success")
    r = ex.execute("check_room_availability", {"building_code": "Nowhere", "date": "2026-03-11", "start_time": "09:00",
                                              "end_time": "10:00", "min_capacity": 2})  # fmt: skip
    assert r["error_type"] == "name_not_found"
    r = ex.execute("submit_license_renewal", {"employee_id": "EMP048271", "license_assignment_id": "LASGN-1"})
    assert r["error_type"] == "invalid_license_assignment_id"
    before["session"] = ex.db["session"]
    assert ex.db == before
