"""ITSM tool rules that EVA's public traces do not exercise (auth gates, escalation)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from voxbench.scenarios.executor import ToolExecutor
from voxbench.scenarios.loader import load_dataset

from .helpers import EMP, MGR, call, login


def test_every_tool_requires_verification(db: dict[str, Any]) -> None:
    r = call("get_employee_record", db, employee_id=EMP)
    assert r == {
        "status": "error",
        "error_type": "authentication_required",
        "message": "Authentication (employee_auth) required",
    }
    r = call("submit_hardware_request", db, employee_id=EMP, request_type="monitor_bundle", justification="new_setup",
             delivery_building="BLD4", delivery_floor="FL2", monitor_size="24_inch")  # fmt: skip
    assert r["error_type"] == "authentication_required"


def test_elevated_actions_need_otp_or_manager(db: dict[str, Any]) -> None:
    login(db)
    r = call("submit_group_membership_change", db, employee_id=EMP, group_code="GRP-FIN", action="add")
    assert r["message"] == "Authentication (otp_auth) required"
    r = call("submit_access_removal", db, manager_employee_id=MGR, departing_employee_id=EMP,
             last_working_day="2026-04-01", removal_scope="full")  # fmt: skip
    assert r["message"] == "Authentication (manager_auth) required"


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
    r = call("route_approval_workflow", db, request_id=rid, employee_id=EMP, approver_employee_id=MGR)
    assert r["status"] == "success"
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
    r = ex.execute("get_employee_record", {"employee_id": "EMP048271"})
    assert r["error_type"] == "authentication_required"
    r = ex.execute("verify_employee_auth", {"employee_id": "EMP048271", "phone_last_four": "7294"})
    assert r["status"] == "success"
    r = ex.execute("check_room_availability", {"building_code": "Nowhere", "date": "2026-03-11", "start_time": "09:00",
                                              "end_time": "10:00", "min_capacity": 2})  # fmt: skip
    assert r["error_type"] == "name_not_found"
    r = ex.execute("submit_license_renewal", {"employee_id": "EMP048271", "license_assignment_id": "LASGN-1"})
    assert r == {
        "status": "error",
        "error_type": "invalid_parameter",
        "message": "Invalid 'license_assignment_id': String should match pattern '^LASGN-\\d{6}$'",
    }
    before["session"] = ex.db["session"]
    assert ex.db == before
