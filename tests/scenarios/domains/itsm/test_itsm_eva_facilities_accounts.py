"""ITSM facilities, accounts, permissions and off-boarding matched to EVA's tool code
(`eva-tool-semantics.md` sections 2.7-2.9)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from voxbench.scenarios.domains.itsm._base import new_id

from .helpers import EMP, MGR, OTHER, call, login

Run = Callable[..., dict[str, Any]]


def _desks(db: dict[str, Any]) -> None:
    db["facilities"]["desks"] = {"D-1": {"building_code": "BLD4", "floor_code": "FL2", "status": "available"}}


# --- desks, parking, waitlists --------------------------------------------------------------


def test_desk_floor_is_exact_and_window_defaults_false(run: Run, db: dict[str, Any]) -> None:
    _desks(db)
    run("verify_employee_auth", employee_id=EMP, phone_last_four="7294")
    r = run("check_desk_availability", building_code="BLD4", floor_code="FL2")
    assert r["available_desks"] == [{"desk_code": "D-1", "zone": None, "near_window": False}]
    assert (
        run("check_desk_availability", building_code="BLD4", floor_code="fl2")["error_type"]
        == "invalid_parameter"
    )


def test_assignment_for_unknown_employee_still_assigns(db: dict[str, Any]) -> None:
    login(db)
    _desks(db)
    r = call("submit_desk_assignment", db, employee_id=OTHER, desk_code="D-1")
    assert r["status"] == "success" and db["facilities"]["desks"]["D-1"]["assigned_employee_id"] == OTHER
    expected = new_id({"employee_id": OTHER, "desk_code": "D-1", "request_type": "desk_assignment",
                       "created_date": "2026-03-10"})  # fmt: skip
    assert r["request_id"] == "REQ-FAC-" + expected


def test_assignment_order_and_messages(db: dict[str, Any]) -> None:
    login(db)
    r = call("submit_parking_assignment", db, employee_id=EMP, parking_space_id="PZA-999")
    assert r["error_type"] == "too_soon"  # cooldown is checked before the space exists
    assert r["message"] == (
        "Parking reassignment cooldown: last assignment was 59 days ago; must wait at least 180 days. "
        "Eligible again after 2026-07-09."
    )
    assert (r["days_since_last"], r["cooldown_days"], r["last_assignment_date"]) == (59, 180, "2026-01-10")
    db["employees"][EMP]["last_parking_assignment_date"] = None
    assert (
        call("submit_parking_assignment", db, employee_id=EMP, parking_space_id="PZA-999")["message"]
        == "Space not found"
    )
    db["facilities"]["parking"]["PZA-001"]["status"] = "assigned"
    r = call("submit_parking_assignment", db, employee_id=EMP, parking_space_id="PZA-001")
    assert (r["error_type"], r["message"]) == ("not_available", "Not available")
    db["employees"][EMP]["assigned_desk"] = "D-7"
    r = call("submit_desk_assignment", db, employee_id=EMP, desk_code="D-1")
    assert r["message"] == "Employee already has desk D-7. Release it first to request a new one."


def test_parking_all_zones_view(db: dict[str, Any]) -> None:
    login(db)
    r = call("check_parking_availability", db)
    assert (r["zone_code"], r["message"], "zones" in r) == (None, "1 space(s) (all zones)", False)
    assert r["available_spaces"][0]["covered"] is False


def test_waitlist_stores_raw_place_and_counts_all(db: dict[str, Any]) -> None:
    login(db)
    db["waitlists"] = {"desk": [{"employee_id": MGR, "zone_or_building": "BLD1", "position": 1}]}
    r = call("submit_waitlist", db, employee_id=EMP, resource_type="desk", zone_or_building="east campus")
    assert (r["position"], r["zone_or_building"]) == (2, "east campus")
    r = call("submit_waitlist", db, employee_id=EMP, resource_type="desk", zone_or_building="east campus")
    assert (r["error_type"], r["message"]) == ("already_waitlisted", "Already on waitlist position 2")


# --- ergonomics, rooms, invites ---------------------------------------------------------------


def test_ergonomics_message_and_no_assessment_gate(db: dict[str, Any]) -> None:
    login(db)
    r = call("check_ergonomic_assessment", db, employee_id=EMP)
    assert r["message"] == "No completed ergonomic assessment. Complete one at occupational health portal."
    r = call("submit_equipment_request", db, employee_id=OTHER, equipment_type="ergonomic_chair",
             delivery_building="BLD4", delivery_floor="FL2")  # fmt: skip
    assert r["status"] == "success"


def _room(db: dict[str, Any]) -> None:
    db["facilities"]["conference_rooms"] = {
        "R-1": {
            "building_code": "BLD4",
            "floor_code": "FL2",
            "capacity": 4,
            "bookings": [{"date": "2026-03-11", "start_time": "09:30", "end_time": "10:30"}],
        }
    }


def test_room_search_string_equipment_and_times(run: Run, db: dict[str, Any]) -> None:
    _room(db)
    run("verify_employee_auth", employee_id=EMP, phone_last_four="7294")
    base = {"building_code": "BLD4", "date": "2026-03-11", "min_capacity": 2}
    r = run("check_room_availability", start_time="11:00", end_time="10:00", **base)
    assert r["available_rooms"][0]["equipment"] == []  # no end > start check; missing list is []
    r = run(
        "check_room_availability",
        start_time="11:00",
        end_time="12:00",
        equipment_required="projector",
        **base,
    )
    assert r["available_rooms"] == []


def test_room_booking_errors(db: dict[str, Any]) -> None:
    login(db)
    _room(db)
    base = {"employee_id": OTHER, "date": "2026-03-11", "start_time": "10:00", "end_time": "11:00"}
    r = call("submit_room_booking", db, room_code="R-1", attendee_count=5, **base)
    assert (r["error_type"], r["message"]) == ("over_capacity", "Attendee count 5 exceeds room capacity 4")
    r = call("submit_room_booking", db, room_code="R-1", attendee_count=2, **base)
    assert (r["error_type"], r["message"]) == ("room_conflict", "Booked 2026-03-11 09:30-10:30")
    r = call("submit_room_booking", db, room_code="R-9", attendee_count=2, **base)
    assert r == {"status": "error", "error_type": "not_found", "message": "Room R-9 not found"}


def test_calendar_invite_is_written_unchecked(db: dict[str, Any]) -> None:
    login(db)
    p = {"employee_id": OTHER, "request_id": "REQ-FAC-abcdef123456", "room_code": "R-9",
         "date": "2026-03-11", "start_time": "10:00", "end_time": "11:00"}  # fmt: skip
    assert call("send_calendar_invite", db, **p)["calendar_event_id"] == "CAL-123456"
    assert call("send_calendar_invite", db, **p)["status"] == "success"


# --- accounts -------------------------------------------------------------------------------


def _hire(db: dict[str, Any], **over: Any) -> None:
    db["employees"]["EMP092841"] = {"employee_id": "EMP092841", "first_name": "Noah", "last_name": "O'Neil",
        "department_code": "ENG", "role_code": "SWE", "employment_status": "pending_start",
        "start_date": "2026-04-01", "system_accounts": [{"status": "active"}]} | over  # fmt: skip
    db["employees"][MGR]["direct_reports"].append("EMP092841")


def test_new_hire_lookup_needs_manager_and_pending_start(db: dict[str, Any]) -> None:
    _hire(db)
    login(db)
    assert call("lookup_new_hire", db, new_hire_employee_id="EMP092841")["message"] == (
        "Authentication (manager_auth) required"
    )
    assert (
        call("check_existing_accounts", db, employee_id="EMP092841")["error_type"]
        == "authentication_required"
    )
    login(db, manager=True)
    assert (
        call("lookup_new_hire", db, new_hire_employee_id="EMP092841")["employee"]["start_date"]
        == "2026-04-01"
    )
    r = call("lookup_new_hire", db, new_hire_employee_id=EMP)
    assert r == {
        "status": "error",
        "error_type": "not_new_hire",
        "message": "Status 'None', not 'pending_start'",
    }
    assert call("lookup_new_hire", db, new_hire_employee_id=OTHER)["error_type"] == "not_found"


def _provision(db: dict[str, Any], **over: Any) -> dict[str, Any]:
    p = {"manager_employee_id": MGR, "new_hire_employee_id": "EMP092841", "start_date": "2026-04-01",
         "department_code": "FIN", "role_code": "X", "access_groups": ["GRP-UNKNOWN"]} | over  # fmt: skip
    return call("provision_new_account", db, **p)


def test_provisioning_rules(db: dict[str, Any]) -> None:
    _hire(db)
    db["employees"][EMP]["email"] = "noah.o'neil@company.com"
    login(db, manager=True, otp=True)
    db["session"]["manager_employee_id"] = "EMP000000"  # not compared by EVA
    r = _provision(db)  # department/role not compared; existing accounts and unknown groups pass
    assert r["email"] == "noah.o'neil2@company.com"
    assert db["employees"]["EMP092841"]["system_accounts"] == [
        {
            "case_id": r["case_id"],
            "status": "active",
            "provisioned_date": "2026-03-10",
            "access_groups": ["GRP-UNKNOWN"],
        }
    ]
    r = _provision(db, access_groups=["GRP-FIN"])
    assert (r["error_type"], r["group_code"]) == ("group_not_eligible", "GRP-FIN")
    assert r["message"] == (
        "New hire EMP092841 (department ENG, role SWE) is not eligible for GRP-FIN. "
        "Use a permission template that matches the role."
    )
    r = _provision(db, new_hire_employee_id=EMP.replace("8", "7"))
    assert (r["error_type"], r["message"]) == ("not_authorized", "Not in direct reports")


def test_groups_need_otp_only_and_return_whole_record(db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True  # OTP without employee verification is enough
    assert call("get_group_memberships", db, employee_id=EMP)["status"] == "success"
    db["access_groups"]["GRP-FIN"]["owner"] = "finance-ops"
    assert call("get_group_details", db, group_code="GRP-FIN")["group"]["owner"] == "finance-ops"
    r = call("get_group_details", db, group_code="GRP-NOPE")
    assert r == {"status": "error", "error_type": "not_found", "message": "Group GRP-NOPE not found"}


def test_group_add_and_remove(db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True
    db["access_groups"]["GRP-ENG"] = {"group_code": "GRP-ENG", "name": "Eng", "requires_approval": False}
    db["employees"][EMP]["group_memberships"] = [{"group_code": "GRP-X", "status": "removed"}]
    r = call("submit_group_membership_change", db, employee_id=EMP, group_code="GRP-ENG", action="add")
    assert r["message"] == f"Added. Case: {r['case_id']}"
    assert r["case_id"] == "CASE-ACCT-" + new_id({"employee_id": EMP, "group_code": "GRP-ENG", "action": "add",
                                                  "auto_approved": True, "created_date": "2026-03-10"})  # fmt: skip
    assert "case_id" not in db["employees"][EMP]["group_memberships"][-1]
    db["access_groups"]["GRP-X"] = {"group_code": "GRP-X"}
    r = call("submit_group_membership_change", db, employee_id=EMP, group_code="GRP-X", action="add")
    assert (r["error_type"], r["message"]) == ("already_member", "Already in GRP-X")  # any status counts
    db["employees"][EMP]["group_memberships"].append({"group_code": "GRP-X", "status": "active"})
    r = call("submit_group_membership_change", db, employee_id=EMP, group_code="GRP-X", action="remove")
    assert r["message"] == f"Removed. Case: {r['case_id']}" and "requires_approval" not in r
    assert [m["group_code"] for m in db["employees"][EMP]["group_memberships"]] == ["GRP-ENG"]  # every entry
    r = call("submit_group_membership_change", db, employee_id=EMP, group_code="GRP-X", action="remove")
    assert (r["error_type"], r["message"]) == ("not_member", "Not in GRP-X")
    r = call("submit_group_membership_change", db, employee_id=EMP, group_code="GRP-FIN", action="add")
    assert r["message"] == (
        f"Employee {EMP} (department ENG, role SWE) is not eligible for GRP-FIN. "
        "Eligible departments: FIN; eligible roles: any."
    )


# --- permissions ----------------------------------------------------------------------------


def test_role_change_authorization_messages(db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True
    r = call("check_role_change_authorized", db, employee_id=EMP, new_role_code="MGENG")
    assert (
        r["message"]
        == "HR has not approved a role change for this employee. Ask the caller to contact HR first."
    )
    db["employees"][EMP]["pending_role_approval"] = {"approved_by_hr": True, "new_role_code": "MGENG"}
    r = call("check_role_change_authorized", db, employee_id=EMP, new_role_code="mgeng")
    assert (r["error_type"], r["message"]) == ("role_mismatch", "HR-approved role is 'MGENG', not 'mgeng'")


def test_permission_change_order_and_no_hr_requirement(db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True
    p = {
        "employee_id": EMP,
        "new_role_code": "MGENG",
        "permission_template_id": "PTPL-1",
        "effective_date": "2026-03-01",
    }
    assert call("submit_permission_change", db, **p)["message"] == "effective_date 2026-03-01 is in the past"
    p["effective_date"] = "2026-04-01"
    assert call("submit_permission_change", db, **p)["message"] == "Template PTPL-1 not found"
    db["permission_templates"] = {"PTPL-1": {"template_id": "PTPL-1", "role_code": "SWE"}}
    r = call("submit_permission_change", db, **p)
    assert (r["error_type"], r["message"]) == ("template_role_mismatch", "Template for 'SWE', not 'MGENG'")
    db["permission_templates"]["PTPL-1"]["role_code"] = "MGENG"
    assert call("submit_permission_change", db, **p)["status"] == "success"  # HR approval not required
    db["employees"][EMP]["pending_role_approval"] = {"approved_by_hr": True, "effective_date": "2026-05-01"}
    r = call("submit_permission_change", db, **p)
    assert (
        r["message"] == "effective_date 2026-04-01 does not match the HR-approved effective date 2026-05-01"
    )
    r = call("get_permission_templates", db, role_code="mgeng")
    assert r == {"status": "error", "error_type": "not_found", "message": "No templates for mgeng"}


def test_access_review_rules(db: dict[str, Any]) -> None:
    db["session"]["otp_auth"] = True
    p = {"employee_id": EMP, "case_id": "CASE-ACCT-anything", "review_date": "2026-07-10"}
    r = call("schedule_access_review", db, **p)
    assert r["message"] == "No pending role change to schedule a review for"
    db["employees"][EMP]["pending_role_change"] = {
        "case_id": "CASE-ACCT-real",
        "effective_date": "2026-04-01",
    }
    r = call("schedule_access_review", db, **p)
    assert (
        r["message"] == "review_date must be within 3 days of effective_date + 90 (expected near 2026-06-30)"
    )
    assert call("schedule_access_review", db, **{**p, "review_date": "2026-06-30"})["status"] == "success"


# --- off-boarding ---------------------------------------------------------------------------


def test_offboarding_record_needs_manager(db: dict[str, Any]) -> None:
    login(db)
    assert call("get_offboarding_record", db, employee_id=EMP)["error_type"] == "authentication_required"
    login(db, manager=True)
    db["employees"][EMP]["offboarding_record"] = {}
    r = call("get_offboarding_record", db, employee_id=EMP)
    assert r["message"] == "No off-boarding record. HR must initiate."
    db["employees"][EMP]["offboarding_record"] = {"status": None, "last_working_day": "2026-04-01"}
    assert call("get_offboarding_record", db, employee_id=EMP)["status"] == "success"


def test_access_removal_order_and_leniency(db: dict[str, Any]) -> None:
    login(db, manager=True, otp=True)
    p = {"manager_employee_id": MGR, "departing_employee_id": EMP, "last_working_day": "2026-03-01",
         "removal_scope": "full"}  # fmt: skip
    assert call("submit_access_removal", db, **p)["message"] == "last_working_day 2026-03-01 is in the past"
    p["last_working_day"] = "2026-04-02"
    r = call("submit_access_removal", db, **{**p, "departing_employee_id": OTHER})
    assert (r["error_type"], r["message"]) == ("not_authorized", "Not in direct reports")
    db["employees"][EMP]["offboarding_record"] = {}
    assert call("submit_access_removal", db, **p)["message"] == "No off-boarding record"
    db["employees"][EMP]["offboarding_record"] = {"status": "initiated", "last_working_day": "2026-04-01",
                                                  "access_removed": True}  # fmt: skip
    assert (
        call("submit_access_removal", db, **p)["status"] == "success"
    )  # no mismatch / already-removed check


def test_asset_recovery_needs_manager_only(db: dict[str, Any]) -> None:
    db["session"]["manager_auth"] = True
    p = {"departing_employee_id": OTHER, "case_id": "CASE-ACCT-nope", "recovery_method": "drop_off"}
    assert call("initiate_asset_recovery", db, **p)["status"] == "success"
    assert call("initiate_asset_recovery", db, **p)["status"] == "success"
