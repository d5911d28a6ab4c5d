"""Shared helpers for the ITSM tools: auth gates, lookups, formats, dates and ids.

EVA's ITSM ids for new records are content hashes: the record as first written, with
its own id field(s) set to `None` and the mutable `status` left out, hashed by
`content_hash`. The same rule reproduces every id in EVA's expected databases.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from voxbench.scenarios.domains._common import content_hash, error, norm, session

Result = dict[str, Any]

EMP_RE = re.compile(r"^EMP\d{6}$")
ASSET_RE = re.compile(r"^AST-[A-Z]{3}-\d{6}$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
TIME_RE = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")

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


def new_id(record: dict[str, Any], *id_fields: str) -> str:
    """EVA's content-hash id fragment for a record being created."""
    body = {k: v for k, v in record.items() if k != "status"}
    for f in id_fields:
        body[f] = None
    return content_hash(body)


def check_format(value: str, pattern: re.Pattern[str], field: str, example: str) -> Result | None:
    """The `invalid_<field>` error EVA's params models give for a malformed value."""
    if pattern.match(value):
        return None
    return error(f"invalid_{field}", f"Invalid {field} '{value}'. Expected format like {example}.")


def check_employee_id(value: str, field: str = "employee_id") -> Result | None:
    return check_format(value, EMP_RE, field, "EMP048271")


def check_asset_tag(value: str, field: str = "asset_tag") -> Result | None:
    return check_format(value, ASSET_RE, field, "AST-LPT-284719")


def check_date(value: str, field: str = "date") -> Result | None:
    if parse_date(value) is None:
        return error(f"invalid_{field}", f"Invalid {field} '{value}'. Use YYYY-MM-DD.")
    return None


def check_time(value: str, field: str) -> Result | None:
    return check_format(value, TIME_RE, field, "09:00 (24-hour HH:MM)")


def require_auth(db: dict[str, Any]) -> Result | None:
    """Standard verification (or manager verification, which includes it)."""
    s = session(db)
    if s.get("employee_auth") is True or s.get("manager_auth") is True:
        return None
    return error(
        "authentication_required",
        "Caller must be verified with employee ID and phone last four before this action.",
    )


def require_otp(db: dict[str, Any]) -> Result | None:
    """Elevated verification: standard verification plus a verified OTP."""
    err = require_auth(db)
    if err is not None:
        return err
    if session(db).get("otp_auth") is not True:
        return error("authentication_required", "This action requires elevated verification (OTP).")
    return None


def require_manager(db: dict[str, Any], manager_employee_id: str | None = None) -> Result | None:
    """Manager verification plus OTP, for actions on behalf of another employee."""
    s = session(db)
    if s.get("manager_auth") is not True:
        return error("authentication_required", "This action requires manager verification.")
    if manager_employee_id is not None and s.get("manager_employee_id") != manager_employee_id:
        return error(
            "authentication_required",
            f"Manager {manager_employee_id} is not the verified manager on this call.",
        )
    if s.get("otp_auth") is not True:
        return error("authentication_required", "This action requires elevated verification (OTP).")
    return None


def employee(db: dict[str, Any], employee_id: str) -> dict[str, Any] | None:
    emp = db.get("employees", {}).get(employee_id)
    return emp if isinstance(emp, dict) else None


def employee_not_found(employee_id: str) -> Result:
    return error("employee_not_found", f"Employee {employee_id} not found")


def get_employee(db: dict[str, Any], employee_id: str) -> tuple[dict[str, Any] | None, Result | None]:
    """Format check + lookup, the first step of most tools."""
    err = check_employee_id(employee_id)
    if err is not None:
        return None, err
    emp = employee(db, employee_id)
    if emp is None:
        return None, employee_not_found(employee_id)
    return emp, None


def verified_employee(db: dict[str, Any], employee_id: str) -> tuple[dict[str, Any] | None, Result | None]:
    """Lookup, then the standard-verification gate: the preamble of most ITSM tools.

    The order matters: a malformed or unknown id is reported before missing auth, as the
    reference traces show.
    """
    emp, err = get_employee(db, employee_id)
    if emp is None:
        return None, err
    err = require_auth(db)
    return (None, err) if err is not None else (emp, None)


def full_name(emp: dict[str, Any]) -> str:
    return f"{emp.get('first_name', '')} {emp.get('last_name', '')}".strip()


def _matches(code: str, entry: dict[str, Any], spoken: str) -> bool:
    n = norm(spoken)
    names = [code, entry.get("name"), *(entry.get("name_aliases") or []), *(entry.get("aliases") or [])]
    return any(isinstance(x, str) and norm(x) == n for x in names)


def resolve_code(table: dict[str, Any], spoken: str) -> str | None:
    """Resolve a code or a spoken name/alias (any case or punctuation) to its code."""
    if spoken in table:
        return spoken
    for code, entry in table.items():
        if isinstance(entry, dict) and _matches(code, entry, spoken):
            return code
    return None


def name_not_found(kind: str, spoken: str, table: dict[str, Any]) -> Result:
    known = [
        f"{c} ({e.get('name')})" if isinstance(e, dict) and e.get("name") else c for c, e in table.items()
    ]
    return error(
        "name_not_found",
        f"Could not resolve {kind} '{spoken}'. Known {kind}s: {', '.join(known)}",
        known=sorted(table),
    )


def resolve_building(db: dict[str, Any], spoken: str) -> tuple[str | None, Result | None]:
    table = db.get("facilities", {}).get("buildings", {})
    code = resolve_code(table, spoken)
    if code is None:
        return None, name_not_found("building", spoken, table)
    return code, None


def resolve_zone(db: dict[str, Any], spoken: str) -> tuple[str | None, Result | None]:
    table = db.get("facilities", {}).get("zones", {})
    code = resolve_code(table, spoken)
    if code is None:
        return None, name_not_found("parking zone", spoken, table)
    return code, None


def display_name(s: Any) -> Any:
    """A stored name as spoken back (romanized DB names are stored lower-case)."""
    if isinstance(s, str) and s and s == s.lower():
        return " ".join(w[:1].upper() + w[1:] for w in s.split(" "))
    return s
