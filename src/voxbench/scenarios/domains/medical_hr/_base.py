"""Shared plumbing for the medical_hr tools: formats, auth gates, lookups, ids.

Everything here is deterministic: "today" is `db["_current_date"]`, ids derive from
the caller's employee number, and errors are returned (never raised) in the common
`{"status": "error", "error_type", "message"}` shape.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from voxbench.scenarios.domains._common import error, session

Result = dict[str, Any]

# ── formats (EVA's pydantic parameter models use regexes like these) ──────────

FORMATS: dict[str, tuple[re.Pattern[str], str]] = {
    "employee_id": (re.compile(r"^EMP\d{6}$"), "EMP followed by 6 digits, e.g. EMP048271"),
    "npi": (re.compile(r"^\d{10}$"), "10 digits, e.g. 1487392045"),
    "facility_code": (
        re.compile(r"^[A-Z]{2,4}-\d{2}[A-Z]$"),
        "2-4 letters, dash, 2 digits, 1 letter, e.g. MGH-04B",
    ),
    "pin": (re.compile(r"^\d{4}$"), "4 digits"),
    "otp_code": (re.compile(r"^\d{6}$"), "6 digits"),
    "shift_id": (re.compile(r"^SHF-\d{8}-\d{4}$"), "SHF-YYYYMMDD-HHMM, e.g. SHF-20260501-0700"),
    "state_license_number": (
        re.compile(r"^[A-Z]{2}-[A-Z]{2,4}-\d{6,8}$"),
        "STATE-TYPE-NUMBER, e.g. MA-RN-004821",
    ),
    "case_id": (re.compile(r"^CASE-[A-Z0-9]{2,5}-\d{6}$"), "CASE-PREFIX-6digits, e.g. CASE-LIC-048271"),
    "dea_number": (re.compile(r"^[A-Z]{2}\d{7}$"), "2 letters followed by 7 digits, e.g. BK4729183"),
    "policy_number": (re.compile(r"^POL-\d{4}-[A-Z0-9]{6}$"), "POL-YYYY-XXXXXX, e.g. POL-2025-BK4420"),
    "unit_code": (re.compile(r"^\d+[A-Z]-[A-Z]+$"), "digits+letter-letters, e.g. 4B-ICU"),
    "clearance_code": (re.compile(r"^CLR-[A-Z]{2,4}-\d{6}$"), "CLR-LETTERS-6digits, e.g. CLR-OCC-048271"),
    "privilege_code": (re.compile(r"^PRV-[A-Z]+-\d{3}$"), "PRV-CATEGORY-3digits, e.g. PRV-CARD-001"),
    "completion_code": (re.compile(r"^[A-Z0-9]{4}$"), "4 alphanumeric characters"),
    "document_number": (re.compile(r"^[A-Z0-9]{6,12}$"), "6-12 uppercase alphanumeric characters"),
    "country_code": (re.compile(r"^[A-Z]{2}$"), "a 2-letter ISO country code, e.g. US"),
    "state_code": (re.compile(r"^[A-Z]{2}$"), "a 2-letter US state abbreviation, e.g. CA"),
    "petition_number": (re.compile(r"^[A-Z]{3}\d{10}$"), "3 uppercase letters followed by 10 digits"),
    "person_name": (re.compile(r"^[A-Za-z][A-Za-z-]{1,29}$"), "2-30 letters and hyphens"),
}

US_STATES = frozenset(
    [
        "AL",
        "AK",
        "AZ",
        "AR",
        "CA",
        "CO",
        "CT",
        "DE",
        "FL",
        "GA",
        "HI",
        "ID",
        "IL",
        "IN",
        "IA",
        "KS",
        "KY",
        "LA",
        "ME",
        "MD",
        "MA",
        "MI",
        "MN",
        "MS",
        "MO",
        "MT",
        "NE",
        "NV",
        "NH",
        "NJ",
        "NM",
        "NY",
        "NC",
        "ND",
        "OH",
        "OK",
        "OR",
        "PA",
        "RI",
        "SC",
        "SD",
        "TN",
        "TX",
        "UT",
        "VT",
        "VA",
        "WA",
        "WV",
        "WI",
        "WY",
        "DC",
        "PR",
        "GU",
        "VI",
        "AS",
        "MP",
    ]
)


def fmt(kind: str, value: str, field: str, *, upper: bool = True) -> tuple[str, Result | None]:
    """An identifier as given: EVA validates formats on the raw input before the tool
    runs (`_params.py`) and does not normalise, so nothing is left to do here."""
    return value, None


def parse_date(value: str, field: str) -> tuple[date | None, Result | None]:
    """A strict YYYY-MM-DD date, or an `invalid_<field>` error."""
    v = value.strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        try:
            return date.fromisoformat(v), None
        except ValueError:
            pass
    return None, error(
        f"invalid_{field}", f"Invalid {field} '{value}': expected a real date in YYYY-MM-DD format"
    )


def parse_datetime(
    value: str, field: str = "appointment_datetime"
) -> tuple[tuple[str, str] | None, Result | None]:
    """Split `YYYY-MM-DD HH:MM` into (date, time) strings, or an error."""
    m = re.fullmatch(r"(\d{4}-\d{2}-\d{2})[ T](\d{1,2}):(\d{2})", value.strip())
    if m:
        d, err = parse_date(m.group(1), field)
        hh, mm = int(m.group(2)), int(m.group(3))
        if err is None and d is not None and hh < 24 and mm < 60:
            return (d.isoformat(), f"{hh:02d}:{mm:02d}"), None
    return None, error(f"invalid_{field}", f"Invalid {field} '{value}': expected YYYY-MM-DD HH:MM")


def today(db: dict[str, Any]) -> date:
    """The scenario's current date (never the wall clock)."""
    return date.fromisoformat(str(db.get("_current_date")))


def date_range(start: date, end: date) -> list[date]:
    return [start + timedelta(days=i) for i in range((end - start).days + 1)]


# ── auth gates (state lives in db["session"]) ────────────────────────────────


def require(db: dict[str, Any], *levels: str) -> Result | None:
    """EVA's per-tool gate: any one of `levels` (session flags) must be set."""
    s = session(db)
    if any(s.get(level) is True for level in levels):
        return None
    return error(
        "authentication_required",
        f"Authentication ({' or '.join(levels)}) must be completed before calling this tool",
    )


# ── lookups ──────────────────────────────────────────────────────────────────


def employee(db: dict[str, Any], employee_id: str) -> tuple[dict[str, Any] | None, Result | None]:
    rec = (db.get("employees") or {}).get(employee_id)
    if not isinstance(rec, dict):
        return None, error("not_found", f"Employee {employee_id} not found")
    return rec, None


def provider(db: dict[str, Any], npi: str) -> tuple[dict[str, Any] | None, Result | None]:
    rec = (db.get("providers") or {}).get(npi)
    if not isinstance(rec, dict):
        return None, error("not_found", f"Provider with NPI {npi} not found")
    return rec, None


def owned_shift(
    db: dict[str, Any], employee_id: str, shift_id: str
) -> tuple[dict[str, Any] | None, Result | None]:
    """A shift that exists and belongs to the employee (never someone else's)."""
    shift = (db.get("shifts") or {}).get(shift_id)
    if not isinstance(shift, dict):
        return None, error("shift_not_found", f"Shift {shift_id} not found")
    if shift.get("employee_id") != employee_id:
        return None, error("shift_not_owned", f"Shift {shift_id} does not belong to employee {employee_id}")
    return shift, None


def caller_shift(
    params: dict[str, Any], db: dict[str, Any], *, owned: bool = False
) -> tuple[dict[str, Any] | None, Result | None]:
    """EVA's shift tools: employee auth, then the shift; only the record reads
    (`owned`) check that it belongs to the caller."""
    if err := require(db, "employee_auth"):
        return None, err
    shift_id = params["shift_id"]
    if owned:
        return owned_shift(db, params["employee_id"], shift_id)
    shift = (db.get("shifts") or {}).get(shift_id)
    if not isinstance(shift, dict):
        return None, error("shift_not_found", f"Shift {shift_id} not found")
    return shift, None


def unit_requirements(db: dict[str, Any], unit_code: str) -> tuple[list[str] | None, Result | None]:
    reqs = (db.get("unit_cert_requirements") or {}).get(unit_code)
    if reqs is None:
        return None, error("unit_not_found", f"Unit {unit_code} not found")
    return sorted(reqs), None


# ── ids and notifications ────────────────────────────────────────────────────


def case_id(prefix: str, employee_id: str) -> str:
    """EVA's case ids: `CASE-<PREFIX>-<the six digits of the employee id>`."""
    return f"CASE-{prefix}-{employee_id[-6:]}"


def notify(db: dict[str, Any], entry: dict[str, Any]) -> None:
    """Record a downstream notification once (EVA skips an identical entry; the hash
    sorts this list, so order is free but its length counts)."""
    notes = db.get("notifications")
    if not isinstance(notes, list):
        notes = []
        db["notifications"] = notes
    if entry not in notes:
        notes.append(entry)


def take_slot(
    db: dict[str, Any], appointment_type: str, department_code: str, day: str, time: str
) -> Result | None:
    """Book a confirmed-open slot by removing it from availability, or explain why not."""
    dept = ((db.get("appointment_availability") or {}).get(appointment_type) or {}).get(department_code) or {}
    slots = dept.get(day) or []
    if time not in slots:
        return error(
            "slot_not_available",
            f"Time slot {time} on {day} is not available for {appointment_type} in {department_code}. "
            f"Available slots: {', '.join(slots) if slots else 'none on this date'}",
        )
    slots.remove(time)
    return None


def fnum(x: Any) -> float:
    """Balances and hours as floats (EVA reports `5.0`, not `5`)."""
    return float(x or 0)
