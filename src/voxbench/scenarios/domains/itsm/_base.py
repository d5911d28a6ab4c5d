"""Shared helpers for the ITSM tools: auth gates, lookups, dates and ids (EVA's rules).

Parameters arrive validated (`_params.py`). As in EVA, the auth gate comes before any
record lookup, a missing record is `not_found`, and auth errors name the level
(`Authentication (employee_auth) required`). New records get EVA's content-hash ids:
SHA-1 over the record's sorted compact JSON (first 12 characters) after removing the
mutable keys at every nesting level and nulling every generated-id-shaped string.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, timedelta
from typing import Any

from voxbench.scenarios.domains._common import content_hash, error, session

Result = dict[str, Any]

DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

# The YAML's target_system names -> the keys of an employee's `account_status`.
SYSTEM_KEYS = {
    "active_directory": "active_directory",
    "sso_identity": "sso",
    "email_exchange": "email",
    "vpn_gateway": "vpn",
    "erp_oracle": "erp",
}


def today(db: dict[str, Any]) -> date:
    """The scenario's "today" (never the wall clock)."""
    return date.fromisoformat(str(db.get("_current_date")))


def parse_date(s: Any) -> date | None:
    """A `YYYY-MM-DD` string as a date, or None when malformed."""
    if not isinstance(s, str) or not DATE_RE.match(s):
        return None
    try:
        return date.fromisoformat(s)
    except ValueError:
        return None


def add_days(d: date, n: int) -> str:
    return (d + timedelta(days=n)).isoformat()


def months_between(start: date, end: date) -> int:
    """Whole calendar months from `start` to `end` (device age)."""
    m = (end.year - start.year) * 12 + (end.month - start.month)
    if end.day < start.day:
        m -= 1
    return m


def add_years(d: date, n: int) -> date:
    try:
        return d.replace(year=d.year + n)
    except ValueError:  # 29 February
        return d.replace(year=d.year + n, day=28)


_MUTABLE_KEYS = frozenset(
    {
        "status",
        "resolved_date",
        "sla_tier",
        "sla_response_hours",
        "sla_resolution_hours",
        "linked_known_error_id",
        "dispatch_id",
        "dispatch_date",
        "dispatch_window",
        "diagnostic_ref_code",
        "diagnostic_attached",
        "approval_routed_to",
        "approval_sla_deadline",
        "escalated_to",
        "escalation_sla_deadline",
        "remote_wipe_id",
        "access_review_id",
        "review_date",
    }
)
_GENERATED_ID = re.compile(r"^(REQ-[A-Z]+-|INC|CASE-[A-Z]+-|SEC-|CAL-)[A-Za-z0-9]+$")


def _hash_view(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _hash_view(v) for k, v in obj.items() if k not in _MUTABLE_KEYS}
    if isinstance(obj, list):
        return [_hash_view(v) for v in obj]
    if isinstance(obj, str) and _GENERATED_ID.match(obj):
        return None
    return obj


def new_id(record: dict[str, Any], *id_fields: str) -> str:
    """EVA's content-hash id fragment for a record being created (`id_fields` nulled)."""
    body = dict(record)
    for f in id_fields:
        body[f] = None
    return content_hash(_hash_view(body))


def _required(level: str) -> Result:
    return error("authentication_required", f"Authentication ({level}) required")


def require_auth(db: dict[str, Any]) -> Result | None:
    """EVA's employee-level gate: `employee_auth` (manager verification also sets it)."""
    return None if session(db).get("employee_auth") is True else _required("employee_auth")


def require_otp_only(db: dict[str, Any]) -> Result | None:
    """EVA's OTP gate without an employee-verification check."""
    return None if session(db).get("otp_auth") is True else _required("otp_auth")


def require_otp(db: dict[str, Any]) -> Result | None:
    """Employee verification, then a verified OTP."""
    return require_auth(db) or require_otp_only(db)


def require_manager(db: dict[str, Any]) -> Result | None:
    """EVA's manager gate: `manager_auth` only (the session manager is not compared)."""
    return None if session(db).get("manager_auth") is True else _required("manager_auth")


def require_manager_otp(db: dict[str, Any]) -> Result | None:
    return require_manager(db) or require_otp_only(db)


def employee(db: dict[str, Any], employee_id: str) -> dict[str, Any] | None:
    emp = db.get("employees", {}).get(employee_id)
    return emp if isinstance(emp, dict) else None


def not_found(message: str) -> Result:
    """EVA's one error type for any missing record."""
    return error("not_found", message)


def employee_not_found(employee_id: str) -> Result:
    return not_found(f"Employee {employee_id} not found")


def get_employee(db: dict[str, Any], employee_id: str) -> tuple[dict[str, Any] | None, Result | None]:
    emp = employee(db, employee_id)
    if emp is None:
        return None, employee_not_found(employee_id)
    return emp, None


def verified_employee(db: dict[str, Any], employee_id: str) -> tuple[dict[str, Any] | None, Result | None]:
    """EVA's preamble: the employee-auth gate, then the employee lookup."""
    err = require_auth(db)
    if err is not None:
        return None, err
    return get_employee(db, employee_id)


def full_name(emp: dict[str, Any]) -> str:
    return f"{emp.get('first_name', '')} {emp.get('last_name', '')}".strip()


_BUILDING_CODE = re.compile(r"^BLD\d{1,2}$")
_ZONE_CODE = re.compile(r"^PZ[A-Z]$")


def fold(s: str) -> str:
    """EVA's name key: lower case with every Unicode punctuation/symbol character deleted."""
    return "".join(c for c in s.lower() if unicodedata.category(c)[0] not in "PS")


def _resolve_facility(
    table: dict[str, Any], spoken: str, code_re: re.Pattern[str], kind: str
) -> tuple[str | None, Result | None]:
    """EVA's `_resolve_facility`: a code-shaped value is taken as is (even if unknown);
    otherwise `name` / `name_aliases` are compared after `_fold`."""
    if code_re.match(spoken):
        return spoken, None
    key = fold(spoken)
    for code, entry in table.items():
        if not isinstance(entry, dict):
            continue
        names = [entry.get("name"), *(entry.get("name_aliases") or [])]
        if any(isinstance(n, str) and fold(n) == key for n in names):
            return code, None
    known = [str(e.get("name")) for e in table.values() if isinstance(e, dict) and e.get("name")]
    return None, error(
        "name_not_found",
        f"{kind} '{spoken}' not recognized. Provide a code or a known name. "
        f"Known names: {', '.join(known) if known else '(none on file)'}.",
    )


def resolve_building(db: dict[str, Any], spoken: str) -> tuple[str | None, Result | None]:
    table = db.get("facilities", {}).get("buildings", {})
    return _resolve_facility(table, spoken, _BUILDING_CODE, "Building")


def resolve_zone(db: dict[str, Any], spoken: str) -> tuple[str | None, Result | None]:
    table = db.get("facilities", {}).get("zones", {})
    return _resolve_facility(table, spoken, _ZONE_CODE, "Parking zone")
