"""A small hand-built medical_hr database for behaviour tests (today 2026-06-10)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from voxbench.scenarios.agent_spec import load_agent_spec
from voxbench.scenarios.executor import ToolExecutor

EMP, DOC, PEER = "EMP100001", "EMP100002", "EMP100003"
NPI, OTHER_NPI, FAC = "1234567890", "1098765432", "ABC-12D"
LIC, SHIFT, PAST_SHIFT = "MA-RN-00482100", "SHF-20260615-0700", "SHF-20260601-0700"


def _employee(eid: str, **extra: Any) -> dict[str, Any]:
    return {
        "employee_id": eid,
        "first_name": "ana",
        "last_name": "lima",
        "date_of_birth": "1990-01-02",
        "phone_last_four": "4421",
        "otp_code": "123456",
        "department_code": "CARDIOLOGY",
        "unit_code": "4B-ICU",
        "certifications": ["BLS"],
        **extra,
    }


def make_db() -> dict[str, Any]:
    return {
        "_current_date": "2026-06-10",
        "session": {},
        "employees": {
            EMP: _employee(
                EMP,
                schedule_type="standard",
                pto_balances={"pto": 5, "sick": 2.0},
                pto_requests=[],
                onboarding_checklist={
                    "tasks": {
                        "BLS_UPLOAD": {"status": "pending", "completion_code": "BL42"},
                        "BADGE_PICKUP": {"status": "in_progress"},
                    }
                },
                fmla_eligibility={"months_employed": 30, "hours_worked_past_year": 1800},
                leave_records=[],
                oncall_schedule={"registrations": [{"unit_code": "2A-MED"}], "notes": "x"},
                visa_record={"petition_number": "WAC2190012345", "dependents": []},
            ),
            DOC: _employee(DOC, first_name="Rui", otp_code="654321"),
            PEER: _employee(PEER, certifications=[]),
        },
        "providers": {
            NPI: {
                "npi": NPI,
                "employee_id": DOC,
                "first_name": "rui",
                "facility_code": FAC,
                "pin": "1234",
                "licenses": {
                    LIC: {
                        "state_license_number": LIC,
                        "expiration_date": "2026-12-31",
                        "investigation_hold": True,
                        "supervising_physician_npi": "1111111111",
                    }
                },
                "malpractice": {},
                "dea_registration": {
                    "dea_number": "AB1234567",
                    "facility_code": FAC,
                    "status": "transfer_pending",
                },
                "clearance_code": "CLR-OCC-100002",
                "privileges": {
                    "privilege_list": [
                        {"code": "PRV-CARD-001", "status": "active"},
                        {"code": "PRV-CARD-002", "status": "suspended"},
                    ]
                },
            },
            OTHER_NPI: {"npi": OTHER_NPI, "employee_id": PEER, "facility_code": "XYZ-34E", "pin": "9999"},
        },
        "shifts": {
            SHIFT: {
                "shift_id": SHIFT,
                "employee_id": PEER,
                "date": "2026-06-15",
                "unit_code": "9Z-NEW",
                "status": "logged",
                "pay_period_end_date": "2026-06-20",
                "swapped_to_employee_id": "X",
            },
            PAST_SHIFT: {
                "shift_id": PAST_SHIFT,
                "employee_id": EMP,
                "date": "2026-06-01",
                "unit_code": "4B-ICU",
                "status": "approved",
            },
        },
        "unit_cert_requirements": {"4B-ICU": ["BLS", "ACLS"]},
        "appointment_availability": {
            "orientation_followup": {
                "CARDIOLOGY": {
                    "2026-06-09": ["09:00"],
                    "2026-06-12": ["10:00"],
                    "2026-06-14": ["11:00", "13:00"],
                }
            }
        },
        "department_blackout_dates": {"CARDIOLOGY": ["2026-06-13", "2026-06-16"]},
        "org_holidays": [],
        "notifications": [],
    }


def executor(eva_data: Path, db: dict[str, Any]) -> Callable[..., dict[str, Any]]:
    """Call tools through the executor (EVA's validation) over `db` itself."""
    agent = load_agent_spec(eva_data / "configs" / "agents" / "medical_hr_agent.yaml")
    ex = ToolExecutor("medical_hr", db, f"{db['_current_date']} 09:00 EST", agent)
    ex.db = db

    def go(name: str, **params: Any) -> dict[str, Any]:
        return ex.execute(name, params)

    return go


def login(run: Callable[..., dict[str, Any]], *, otp: bool = False, provider: bool = False) -> None:
    if provider:
        r = run("verify_provider_auth", npi=NPI, facility_code=FAC, pin="1234")
    else:
        r = run("verify_employee_auth", employee_id=EMP, date_of_birth="1990-01-02")
    assert r["status"] == "success", r
    if otp:
        eid, code = (DOC, "654321") if provider else (EMP, "123456")
        assert run("initiate_otp_auth", employee_id=eid)["status"] == "success"
        assert run("verify_otp_auth", employee_id=eid, otp_code=code)["status"] == "success"
