"""Database normalisation, hashing and diffing, exactly as EVA (after tau2-bench).

Task completion is "does the final database hash equal the expected one", so every
normalisation rule here changes which runs pass; keep them identical to EVA's.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

# Lists whose order carries no meaning: compared as multisets.
ORDER_FREE_KEYS = frozenset(
    {"standby_list", "notifications", "bookings", "system_accounts", "group_memberships", "asset_recoveries"}
)


def _sort_key(x: Any) -> str:
    return json.dumps(x, sort_keys=True, default=str)


def normalize_for_comparison(obj: Any, key: str | None = None) -> Any:
    """Whole floats become ints, "none"/"null" strings become None, order-free lists get sorted."""
    if isinstance(obj, dict):
        return {k: normalize_for_comparison(v, k) for k, v in obj.items()}
    if isinstance(obj, list):
        items = [normalize_for_comparison(v) for v in obj]
        if key in ORDER_FREE_KEYS:
            items.sort(key=_sort_key)
        return items
    if isinstance(obj, float) and math.isfinite(obj) and obj.is_integer():
        return int(obj)
    if isinstance(obj, str) and obj.strip().lower() in ("none", "null"):
        return None
    return obj


def _without_session(db: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in db.items() if k != "session"}


def normalized_db(db: dict[str, Any]) -> Any:
    """The database as `db_hash` and `db_diff` compare it: normalised, `session` excluded.
    Computed once, it serves both (`hash_normalized`, `diff_normalized`): normalising a
    large database is most of hashing it."""
    return normalize_for_comparison(_without_session(db))


def hash_normalized(norm: Any) -> str:
    """`db_hash` of a database already passed through `normalized_db`."""
    blob = json.dumps(norm, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def db_hash(db: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of the normalised database, `session` excluded."""
    return hash_normalized(normalized_db(db))


def session_auth_mismatches(expected_db: dict[str, Any], final_db: dict[str, Any]) -> list[dict[str, Any]]:
    """Keys of the expected session the final session lacks or holds differently.

    The final session may hold more keys (a superset passes); strings compare
    case-insensitively. As in EVA (`actual.get(key)`), an expected `null` matches a
    missing key.
    """
    expected = expected_db.get("session") or {}
    actual = final_db.get("session") or {}
    out: list[dict[str, Any]] = []
    for k, v in expected.items():
        a = actual.get(k)
        same = a.lower() == v.lower() if isinstance(a, str) and isinstance(v, str) else a == v
        if not same:
            out.append({"key": k, "expected": v, "actual": a})
    return out


_MISSING: Any = object()


def _record_key(rec: Any, i: int) -> str:
    if isinstance(rec, dict):
        for k in ("id", "journey_id", "confirmation_number", "employee_id", "ticket_number", "passenger_id"):
            if k in rec:
                return f"{k}={rec[k]}"
    return f"[{i}]"


def db_diff(expected: dict[str, Any], actual: dict[str, Any]) -> dict[str, Any]:
    """Readable table -> record -> field differences between two databases (session excluded).

    Returns `{"tables_added": [...], "tables_removed": [...], "tables_modified": {table: {...}}}`
    where each modified table lists `records_added`, `records_removed` and per-record
    `fields` with `expected` / `actual`.
    """
    return diff_normalized(normalized_db(expected), normalized_db(actual))


def diff_normalized(e: Any, a: Any) -> dict[str, Any]:
    """`db_diff` of two databases already passed through `normalized_db`."""
    out: dict[str, Any] = {
        "tables_added": sorted(set(a) - set(e)),
        "tables_removed": sorted(set(e) - set(a)),
        "tables_modified": {},
    }
    for t in sorted(set(e) & set(a)):
        if e[t] != a[t]:
            out["tables_modified"][t] = _table_diff(e[t], a[t])
    return out


def _as_records(table: Any) -> dict[str, Any] | None:
    if isinstance(table, dict):
        return {str(k): v for k, v in table.items()}
    if isinstance(table, list):
        return {_record_key(r, i): r for i, r in enumerate(table)}
    return None


def _table_diff(e: Any, a: Any) -> dict[str, Any]:
    er, ar = _as_records(e), _as_records(a)
    if er is None or ar is None:
        return {"expected": e, "actual": a}
    diff: dict[str, Any] = {
        "records_added": sorted(set(ar) - set(er)),
        "records_removed": sorted(set(er) - set(ar)),
        "records_modified": {},
    }
    for k in sorted(set(er) & set(ar)):
        if er[k] != ar[k]:
            diff["records_modified"][k] = _field_diff(er[k], ar[k])
    return diff


def _field_diff(e: Any, a: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(e, dict) and isinstance(a, dict):
        out: dict[str, Any] = {}
        for k in sorted(set(e) | set(a)):
            if e.get(k, _MISSING) != a.get(k, _MISSING):
                sub = _field_diff(e.get(k), a.get(k), f"{prefix}{k}.")
                out.update(sub)
        return out
    if isinstance(e, list) and isinstance(a, list) and len(e) == len(a):
        out = {}
        for i, (x, y) in enumerate(zip(e, a, strict=True)):
            if x != y:
                out.update(_field_diff(x, y, f"{prefix.rstrip('.')}[{i}]."))
        return out
    return {prefix.rstrip(".") or "value": {"expected": e, "actual": a}}


def format_diff(diff: dict[str, Any], limit: int = 20) -> str:
    """A few human lines from `db_diff` output, for CLI messages and reports."""
    lines: list[str] = []
    for t in diff.get("tables_added", []):
        lines.append(f"+ table {t}")
    for t in diff.get("tables_removed", []):
        lines.append(f"- table {t}")
    for t, td in diff.get("tables_modified", {}).items():
        if "records_modified" not in td:
            lines.append(f"~ {t}: expected {td.get('expected')!r}, got {td.get('actual')!r}")
            continue
        for r in td["records_added"]:
            lines.append(f"+ {t}/{r}")
        for r in td["records_removed"]:
            lines.append(f"- {t}/{r}")
        for r, fields in td["records_modified"].items():
            for f, v in fields.items():
                lines.append(f"~ {t}/{r}.{f}: expected {v['expected']!r}, got {v['actual']!r}")
    if len(lines) > limit:
        lines = [*lines[:limit], f"... {len(lines) - limit} more"]
    return "\n".join(lines)
