"""Validation gate: was the *simulation* good enough to score the agent on?

Pluggable: the real gate is ``voxbench.eval``'s validation metrics (some are LLM
judges); without eval a built-in gate checks what a record alone can prove: it
completed, and ended the way a real caller ends a call. Tests pass either, or a fake.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from voxbench.orchestrator.config import JudgesConfig, ValidationConfig


@dataclass
class ValidationResult:
    valid: bool
    reason: str | None = None
    details: dict[str, Any] = field(default_factory=dict)


class Validator(Protocol):
    """``(record_dir) -> ValidationResult``; must not mutate the record."""

    name: str

    def __call__(self, record_dir: Path) -> ValidationResult: ...


class BuiltinValidator:
    """Status ``completed`` and an end reason in the allowed set (EVA's ``conversation_valid_end`` gate)."""

    name = "builtin"

    def __init__(self, config: ValidationConfig):
        self.allowed = frozenset(config.allowed_end_reasons)

    def __call__(self, record_dir: Path) -> ValidationResult:
        raw = json.loads((record_dir / "record.json").read_text(encoding="utf-8"))
        if raw.get("status") != "completed":
            return ValidationResult(False, f"status {raw.get('status')!r}")
        reason = raw.get("end_reason")
        if reason not in self.allowed:
            return ValidationResult(
                False, f"not_finished: end_reason {reason!r} not in {sorted(self.allowed)}"
            )
        return ValidationResult(True)


def make_validator(
    config: ValidationConfig, judges: JudgesConfig | None = None, cache_dir: Path | None = None
) -> Validator:
    """``auto`` and ``eval``: eval's gate (voxbench.eval ships in the same package);
    ``builtin``: the record-only checks."""
    from voxbench.orchestrator.eval_bridge import EvalGate

    if config.validator in ("auto", "eval"):
        return EvalGate(judges or JudgesConfig(), cache_dir)
    return BuiltinValidator(config)
