"""Task completion as EVA defines it: session gate, then database hash equality."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from voxbench.scenarios.hashing import db_diff, db_hash, session_auth_mismatches


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
    eh, ah = db_hash(expected_db), db_hash(final_db)
    ok = not mism and eh == ah
    return TaskCompletion(
        success=ok,
        auth_success=not mism,
        expected_hash=eh,
        actual_hash=ah,
        auth_mismatches=mism,
        diff=None if eh == ah else db_diff(expected_db, final_db),
    )
