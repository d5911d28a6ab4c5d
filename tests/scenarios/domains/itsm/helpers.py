"""ITSM test helpers: a small hand-built database and direct tool calls."""

from __future__ import annotations

from typing import Any

from voxbench.scenarios.domains.itsm import TOOLS

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


def make_db() -> dict[str, Any]:
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


def login(db: dict[str, Any], otp: bool = False, manager: bool = False) -> None:
    """Verify the employee (or the manager), optionally with a verified OTP."""
    if manager:
        r = call(
            "verify_manager_auth", db, employee_id=MGR, phone_last_four="4418", manager_auth_code="M7Q2L9"
        )
    else:
        r = call("verify_employee_auth", db, employee_id=EMP, phone_last_four="7294")
    assert r["status"] == "success", r
    if otp:
        eid = MGR if manager else EMP
        assert call("initiate_otp_auth", db, employee_id=eid)["status"] == "success"
        code = db["employees"][eid]["otp_code"]
        assert call("verify_otp_auth", db, employee_id=eid, otp_code=code)["status"] == "success"
