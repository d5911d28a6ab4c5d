"""Task completion as EVA defines it: session gate, then database hash equality."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from voxbench.scenarios.hashing import (
    diff_normalized,
    hash_normalized,
    normalized_db,
    session_auth_mismatches,
)


class TaskCompletion(BaseModel):
    """Outcome of comparing a final database with the expected one."""

    success: bool
    auth_success: bool
    expected_hash: str
    actual_hash: str
    auth_mismatches: list[dict[str, Any]] = Field(default_factory=list)
    diff: dict[str, Any] | None = None


def check_task_completion(expected_db: dict[str, Any], final_db: dict[str, Any]) -> TaskCompletion:
    """Both databases must already be culture-resolved the same way."""
    mism = session_auth_mismatches(expected_db, final_db)
    e, a = normalized_db(expected_db), normalized_db(final_db)  # once each, for hash and diff
    eh, ah = hash_normalized(e), hash_normalized(a)
    ok = not mism and eh == ah
    return TaskCompletion(
        success=ok,
        auth_success=not mism,
        expected_hash=eh,
        actual_hash=ah,
        auth_mismatches=mism,
        diff=None if eh == ah else diff_normalized(e, a),
    )
