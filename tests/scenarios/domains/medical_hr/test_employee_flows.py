"""Error paths of medical_hr employee flows: shifts, payroll, on-call, leave, PTO, onboarding, I-9, visa."""

from __future__ import annotations

from collections.abc import Callable

from voxbench.scenarios.executor import ToolExecutor

from .helpers import employee_login

Make = Callable[[str], ToolExecutor]


# ── shift swaps ──────────────────────────────────────────────────────────────


def test_past_shift_cannot_be_swapped(make: Make) -> None:
    ex = make("2.1")
    employee_login(ex, "EMP850800")
    ex.db["shifts"]["SHF-20260914-1500"]["date"] = "2026-06-01"
    out = ex.execute("check_swap_eligibility", {"employee_id": "EMP850800", "shift_id": "SHF-20260914-1500"})
    assert out["error_type"] == "shift_in_past"


# ── payroll ──────────────────────────────────────────────────────────────────


def test_unlogged_shift_cannot_be_corrected(make: Make) -> None:
    ex = make("2.1")
    employee_login(ex, "EMP850800")
    out = ex.execute(
        "check_correction_eligibility", {"employee_id": "EMP850800", "shift_id": "SHF-20260914-1500"}
    )
    assert out["error_type"] == "shift_not_logged"


# ── on-call ──────────────────────────────────────────────────────────────────


# ── FMLA ─────────────────────────────────────────────────────────────────────


def _fmla(emp: str, start: str, end: str) -> dict[str, str]:
    return {
        "employee_id": emp,
        "leave_category": "employee_medical_condition",
        "leave_start_date": start,
        "leave_end_date": end,
    }


# ── scheduling ───────────────────────────────────────────────────────────────


# ── PTO ──────────────────────────────────────────────────────────────────────


def _pto(start: str, end: str) -> dict[str, str]:
    return {"employee_id": "EMP624902", "pto_type": "pto", "start_date": start, "end_date": end}


# ── onboarding and I-9 ───────────────────────────────────────────────────────


# ── visa ─────────────────────────────────────────────────────────────────────
