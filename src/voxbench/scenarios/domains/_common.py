"""Small helpers shared by the domain tool implementations."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any


def error(error_type: str, message: str, **extra: Any) -> dict[str, Any]:
    """The one shape of a tool error result."""
    return {"status": "error", "error_type": error_type, "message": message, **extra}


def success(**fields: Any) -> dict[str, Any]:
    return {"status": "success", **fields}


def norm(s: Any) -> str:
    """Case- and punctuation-insensitive form of a spoken name or code."""
    return re.sub(r"[^0-9a-z]+", " ", str(s).lower()).strip()


def session(db: dict[str, Any]) -> dict[str, Any]:
    """The auth/session dict, created on first use."""
    s = db.get("session")
    if not isinstance(s, dict):
        s = {}
        db["session"] = s
    return s


def content_hash(obj: Any, n: int = 12) -> str:
    """Deterministic short id fragment from a record's content."""
    blob = json.dumps(obj, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha1(blob.encode()).hexdigest()[:n]
