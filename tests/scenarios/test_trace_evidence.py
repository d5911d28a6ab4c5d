"""The generic rules that explain a stale reference-trace response, with evidence."""

from __future__ import annotations

from voxbench.scenarios.trace_evidence import (
    MISSING,
    differences,
    explain,
    explain_by_stale_record,
    explain_count,
    explain_response,
    stale_records,
)

VALUES = {"<FIRST_NAME>": "Ana", "<FIRST_NAME_ROMANIZED>": "ana"}
DB = {"rooms": {"R-1": {"equipment": ["projector", "whiteboard"]}}, "lic": {"exp": "2026-10-30"}}


def test_differences_lists_every_path() -> None:
    diffs = differences({"a": 1, "b": [1, 2], "c": "x"}, {"a": 2, "b": [1, 3], "d": 1})
    assert diffs == [("$.a", 1, 2), ("$.b[1]", 2, 3), ("$.c", "x", MISSING), ("$.d", MISSING, 1)]


def test_name_placeholder_rule() -> None:
    e = explain("verify_employee_auth", ("$.first_name", "Ana", "ana"), VALUES, DB)
    assert e is not None and "<FIRST_NAME_ROMANIZED>" in e
    assert explain("verify_employee_auth", ("$.first_name", "Bob", "bob"), VALUES, DB) is None


def test_alias_and_assessment_rules() -> None:
    assert explain("get_application_details", ("$.application.name_aliases", MISSING, ["x"]), VALUES, DB)
    assert explain("check_ergonomic_assessment", ("$.assessment_date", None, "2026-04-22"), VALUES, DB)
    assert explain("get_asset_record", ("$.assessment_date", None, "2026-04-22"), VALUES, DB) is None


def test_value_absent_from_the_database_rule() -> None:
    assert explain("get_license_record", ("$.license.exp", "2026-08-31", "2026-10-30"), VALUES, DB)
    assert explain("x", ("$.rooms", ["projector"], ["projector", "whiteboard"]), VALUES, DB)
    assert explain("x", ("$.n", 1, 2), VALUES, DB) is None  # ours is not the database's either


def test_int_and_float_differ_as_the_agent_reads_them() -> None:
    """75 and 75.0 are different JSON for the agent (EVA's rebook answers 75)."""
    assert differences({"total": 75}, {"total": 75.0}) == [("$.total", 75, 75.0)]
    assert differences({"ok": True}, {"ok": 1}) == [("$.ok", True, 1)]
    assert differences({"x": 2.5}, {"x": 2.5}) == []


def test_cascade_transfer_answer_rule() -> None:
    """EVA's cascade agent answers transfer_to_agent itself; the traces recorded that."""
    assert explain_response("transfer_to_agent", {"status": "transfer_initiated"})
    assert explain_response("transfer_to_agent", {"status": "success", "transfer_id": "TRF-X-001"}) is None
    assert explain_response("cancel_reservation", {"status": "transfer_initiated"}) is None


def test_a_record_shown_stale_elsewhere_explains_a_list_difference() -> None:
    """itsm/100's shape: call #4 shows room R-1 with equipment the database never had, so
    call #3 (whiteboard required) finding R-1 today follows from the same stale record."""
    seen = {"available_rooms": [{"room_code": "R-1", "floor_code": "FL3", "equipment": ["projector"]}]}
    stale = stale_records("call #4", seen, ["$.available_rooms[0].equipment"])
    assert stale == {(("room_code", "R-1"), ("floor_code", "FL3")): "call #4"}
    ours = [{"room_code": "R-1", "floor_code": "FL3", "equipment": ["projector", "whiteboard"]}]
    assert explain_by_stale_record(("$.available_rooms", [], ours), stale)
    other = [{"room_code": "R-2", "floor_code": "FL3", "equipment": []}]  # same floor, other room
    assert explain_by_stale_record(("$.available_rooms", [], other), stale) is None
    assert stale_records("call #4", seen, []) == {}  # nothing explained: nothing stale
    lists = [("$.available_rooms", 0, 1)]
    assert explain_count(("$.message", "0 room(s)", "1 room(s)"), lists)
    assert explain_count(("$.message", "0 room(s)", "2 room(s)"), lists) is None
