"""Validation gate: was the *simulation* good enough to score the agent on?

Pluggable because the real gate (``voxbench.eval``'s validation metrics, some of them
LLM judges) is built elsewhere; until it is importable a built-in gate checks what a
record alone can prove: it completed, and ended the way a real caller ends a call.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from voxbench.orchestrator.config import ValidationConfig


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


class EvalValidator:
    """Adapter onto ``voxbench.eval.validation`` (imported lazily; API probed by name).

    Accepts a function ``validate_record(record_dir, config)`` returning an object or
    dict with ``valid`` (or ``passed``) and optional ``reason``/``failed_metrics``.
    """

    name = "eval"

    def __init__(self, config: ValidationConfig, fn: Any):
        self.config = config
        self.fn = fn

    def __call__(self, record_dir: Path) -> ValidationResult:
        res = self.fn(record_dir, self.config.model_dump())
        get = res.get if isinstance(res, dict) else lambda k, d=None: getattr(res, k, d)
        valid = get("valid", get("passed", False))
        reason = get("reason", None) or (f"failed: {get('failed_metrics')}" if not valid else None)
        return ValidationResult(bool(valid), reason)


def _eval_fn() -> Any | None:
    try:
        mod = importlib.import_module("voxbench.eval.validation")
    except ImportError:
        return None
    return getattr(mod, "validate_record", None)


def make_validator(config: ValidationConfig) -> Validator:
    """``auto`` prefers eval's gate when it exists; ``eval`` insists on it."""
    if config.validator in ("auto", "eval"):
        fn = _eval_fn()
        if fn is not None:
            return EvalValidator(config, fn)
        if config.validator == "eval":
            raise ValueError(
                "validation.validator=eval but voxbench.eval.validation.validate_record is missing"
            )
    return BuiltinValidator(config)
