"""The four ITSM tools no reference trace calls (escalate_approval, initiate_remote_wipe,
report_security_incident, submit_mfa_reset), through the executor: EVA's validation
(`eva-tool-semantics.md` §0.2, the tool schemas of `itsm_agent.yaml`), its auth gate and
its error answers (§2.6, §2.10). A validation or gate error writes nothing."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from .helpers import EMP, MGR, OTHER

Run = Callable[..., dict[str, Any]]
TAG = "AST-LPT-100001"
AUTH_REQUIRED = {
    "status": "error",
    "error_type": "authentication_required",
    "message": "Authentication (employee_auth) required",
}


def _login(run: Run) -> None:
    assert run("verify_employee_auth", employee_id=EMP, phone_last_four="7294")["status"] == "success"


def _unchanged(db: dict[str, Any], run: Run, tool: str, params: dict[str, Any]) -> dict[str, Any]:
    """Run a call that must fail, and check it wrote nothing."""
    before = copy.deepcopy(db)
    r = run(tool, **params)
    assert r["status"] == "error", r
    assert db == before, f"{tool} wrote on an error"
    return r


@pytest.mark.parametrize(
    ("tool", "params", "error_type", "message"),
    [
        # Missing required fields: a mapped field names its format error with the whole params dict.
        ("report_security_incident", {}, "invalid_employee_id_format",
         "Invalid employee_id '{}': must be EMP followed by 6 digits (e.g. EMP048271)"),
        ("submit_mfa_reset", {"employee_id": EMP}, "invalid_phone_format",
         f"Invalid new_phone_last_four '{{'employee_id': '{EMP}'}}': must be exactly 4 digits"),
        ("initiate_remote_wipe", {"security_case_id": "SEC-1"}, "invalid_asset_tag_format", None),
        ("escalate_approval", {"request_id": "REQ-SW-0a1b2c3d4e5f"}, "invalid_employee_id_format", None),
        # Unmapped field: ITSM's `Invalid '{field}': {pydantic message}`.
        ("initiate_remote_wipe", {"asset_tag": TAG}, "invalid_parameter",
         "Invalid 'security_case_id': Field required"),
        ("initiate_remote_wipe", {"asset_tag": TAG, "security_case_id": 7}, "invalid_parameter",
         "Invalid 'security_case_id': Input should be a valid string"),
        # Formats, on the raw input (no upper-casing or trimming).
        ("report_security_incident", {"employee_id": EMP, "asset_tag": "ast-lpt-100001", "incident_type": "lost"},
         "invalid_asset_tag_format",
         "Invalid asset_tag 'ast-lpt-100001': must be an asset tag AST-XXX-NNNNNN (e.g. AST-LPT-284719)"),
        ("report_security_incident", {"employee_id": f" {EMP}", "asset_tag": TAG, "incident_type": "lost"},
         "invalid_employee_id_format", None),
        ("submit_mfa_reset", {"employee_id": EMP, "new_phone_last_four": "99123"}, "invalid_phone_format", None),
        ("submit_mfa_reset", {"employee_id": EMP, "new_phone_last_four": 9912}, "invalid_phone_format", None),
        ("escalate_approval", {"request_id": "REQ-SW-0a1b2c3d4e5f", "escalate_to_employee_id": "MGR1"},
         "invalid_employee_id_format", None),
        ("escalate_approval", {"request_id": "REQ-SW-048271", "escalate_to_employee_id": MGR},
         "invalid_request_id_format", None),
        # Enum: EVA's mapped type for the incident type.
        ("report_security_incident", {"employee_id": EMP, "asset_tag": TAG, "incident_type": "broken"},
         "invalid_security_incident_type", None),
    ],
)  # fmt: skip
def test_validation_answers(
    db: dict[str, Any], run: Run, tool: str, params: dict[str, Any], error_type: str, message: str | None
) -> None:
    _login(run)
    r = _unchanged(db, run, tool, params)
    assert r["error_type"] == error_type, r
    if message is not None:
        assert r["message"] == message


@pytest.mark.parametrize(
    ("tool", "params"),
    [
        ("report_security_incident", {"employee_id": EMP, "asset_tag": TAG, "incident_type": "lost"}),
        ("initiate_remote_wipe", {"asset_tag": TAG, "security_case_id": "SEC-0a1b2c3d4e5f"}),
        ("submit_mfa_reset", {"employee_id": EMP, "new_phone_last_four": "9912"}),
        ("escalate_approval", {"request_id": "REQ-SW-0a1b2c3d4e5f", "escalate_to_employee_id": MGR}),
    ],
)
def test_auth_comes_after_validation_and_before_lookups(
    db: dict[str, Any], run: Run, tool: str, params: dict[str, Any]
) -> None:
    assert _unchanged(db, run, tool, params) == AUTH_REQUIRED


def test_security_incident_errors_and_case(db: dict[str, Any], run: Run) -> None:
    _login(run)
    missing = {"employee_id": EMP, "asset_tag": "AST-LPT-999999", "incident_type": "stolen"}
    r = _unchanged(db, run, "report_security_incident", missing)
    assert r == {"status": "error", "error_type": "not_found", "message": "Asset AST-LPT-999999 not found"}
    r = _unchanged(
        db, run, "report_security_incident", {"employee_id": OTHER, "asset_tag": TAG, "incident_type": "lost"}
    )
    assert r["error_type"] == "not_assigned_to_caller"
    ok = run("report_security_incident", employee_id=EMP, asset_tag=TAG, incident_type="suspected_compromise")
    assert ok["status"] == "success" and ok["security_case_id"].startswith("SEC-")
    # Only lost or stolen marks the device.
    assert db["assets"][TAG].get("lifecycle_status") != "lost_or_stolen"


def test_remote_wipe_errors(db: dict[str, Any], run: Run) -> None:
    _login(run)
    r = _unchanged(
        db, run, "initiate_remote_wipe", {"asset_tag": TAG, "security_case_id": "SEC-0a1b2c3d4e5f"}
    )
    assert r == {
        "status": "error",
        "error_type": "not_found",
        "message": "Security case SEC-0a1b2c3d4e5f not found",
    }
    case = run("report_security_incident", employee_id=EMP, asset_tag=TAG, incident_type="lost")[
        "security_case_id"
    ]
    r = _unchanged(db, run, "initiate_remote_wipe", {"asset_tag": "AST-LPT-999999", "security_case_id": case})
    assert r == {"status": "error", "error_type": "not_found", "message": "Asset AST-LPT-999999 not found"}
    assert run("initiate_remote_wipe", asset_tag=TAG, security_case_id=case)["status"] == "success"


def test_mfa_reset_always_needs_a_visit(db: dict[str, Any], run: Run) -> None:
    _login(run)
    r = run("submit_mfa_reset", employee_id=EMP, new_phone_last_four="9912")
    assert (r["status"], r["error_type"]) == ("error", "in_person_required")
    assert r["message"] == (  # EVA's text, whole (§2.10)
        "Phone-of-record changes cannot be made over the phone. Please visit the IT security office in "
        "person with a government-issued ID. A security case has been opened to track this request."
    )
    case = db["security_cases"][r["security_case_id"]]
    assert {k: case[k] for k in ("employee_id", "incident_type", "status", "opened_date")} == {
        "employee_id": EMP,
        "incident_type": "mfa_reset_request",
        "status": "requires_in_person",
        "opened_date": db["_current_date"],
    }
    assert db["security_cases"][r["security_case_id"]]["requested_new_phone_last_four"] == "9912"
    again = run("submit_mfa_reset", employee_id=EMP, new_phone_last_four="9912")
    assert again["security_case_id"] == r["security_case_id"]  # content-hash id: deterministic


def test_escalation_errors(db: dict[str, Any], run: Run) -> None:
    _login(run)
    rid = "REQ-SW-0a1b2c3d4e5f"
    r = _unchanged(db, run, "escalate_approval", {"request_id": rid, "escalate_to_employee_id": MGR})
    assert r == {"status": "error", "error_type": "not_found", "message": f"Request {rid} not found"}
    db["requests"][rid] = {"request_id": rid, "status": "pending_approval"}
    r = _unchanged(db, run, "escalate_approval", {"request_id": rid, "escalate_to_employee_id": MGR})
    assert r["error_type"] == "no_pending_approval"
    # Deadline on "today" (2026-03-10): EVA's breach is strictly after the deadline date.
    db["requests"][rid]["approval_sla_deadline"] = f"{db['_current_date']} 00:00"
    r = _unchanged(db, run, "escalate_approval", {"request_id": rid, "escalate_to_employee_id": MGR})
    assert r == {
        "status": "error",
        "error_type": "sla_not_breached",
        "message": "Original approval SLA has not yet been breached",
    }
