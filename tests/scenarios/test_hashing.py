"""Database hashing and task completion follow EVA's normalisation rules."""

from __future__ import annotations

from voxbench.scenarios import check_task_completion, db_diff, db_hash, normalize_for_comparison
from voxbench.scenarios.hashing import format_diff


def test_whole_floats_none_strings_and_order_free_lists() -> None:
    a = {"x": 1.0, "y": "None", "bookings": [{"b": 2}, {"a": 1}], "seq": [2, 1]}
    b = {"x": 1, "y": None, "bookings": [{"a": 1}, {"b": 2}], "seq": [2, 1]}
    assert db_hash(a) == db_hash(b)
    assert normalize_for_comparison(1.5) == 1.5


def test_order_matters_outside_the_order_free_keys() -> None:
    assert db_hash({"seq": [1, 2]}) != db_hash({"seq": [2, 1]})


def test_session_is_excluded_from_hash() -> None:
    assert db_hash({"a": 1, "session": {"x": 1}}) == db_hash({"a": 1})


def test_session_gate_superset_and_case() -> None:
    exp = {"t": 1, "session": {"last_name": "Chen", "employee_auth": True}}
    ok = check_task_completion(exp, {"t": 1, "session": {"last_name": "chen", "employee_auth": True, "x": 2}})
    assert ok.success and ok.auth_success
    bad = check_task_completion(exp, {"t": 1, "session": {"last_name": "chen"}})
    assert not bad.success and not bad.auth_success
    assert bad.auth_mismatches == [{"key": "employee_auth", "expected": True, "actual": None}]


def test_diff_reads_like_table_record_field() -> None:
    exp = {"reservations": {"ABC": {"status": "confirmed", "seat": "1A"}}, "refunds": []}
    act = {"reservations": {"ABC": {"status": "cancelled", "seat": "1A"}}, "refunds": [], "extra": {}}
    tc = check_task_completion(exp, act)
    assert not tc.success and tc.diff is not None
    d = db_diff(exp, act)
    assert d["tables_added"] == ["extra"]
    assert d["tables_modified"]["reservations"]["records_modified"]["ABC"] == {
        "status": {"expected": "confirmed", "actual": "cancelled"}
    }
    assert "~ reservations/ABC.status: expected 'confirmed', got 'cancelled'" in format_diff(d)


def test_session_gate_expected_null_matches_a_missing_key() -> None:
    """EVA compares with `actual.get(key)`: an expected null is met by an absent key."""
    exp = {"t": 1, "session": {"employee_auth": True, "otp_auth": None}}
    assert check_task_completion(exp, {"t": 1, "session": {"employee_auth": True}}).success
    assert not check_task_completion(
        exp, {"t": 1, "session": {"employee_auth": True, "otp_auth": True}}
    ).success
