"""Benchmark runs: trials, validation-gated reruns, infra retries, concurrency, resume, Ray.

The orchestrator never runs a conversation itself: it hands a ``ConversationJob`` to a
``ConversationFn`` (scripted for tests, the live pipelines runner for real) inside a
worker process, then decides from the record what happens next.

Names are imported lazily: every worker process imports this package, and should not
pay for the driver's modules (rich, the runner, the backends) on each conversation.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "AttemptOutcome": "attempt",
    "run_attempt": "attempt",
    "RunConfig": "config",
    "ValidationConfig": "config",
    "load_run_config": "config",
    "ConversationFn": "jobs",
    "ConversationJob": "jobs",
    "ConversationSpec": "jobs",
    "conversation_id": "jobs",
    "derive_seed": "jobs",
    "expand": "jobs",
    "RunLayout": "layout",
    "Orchestrator": "runner",
    "RunLocked": "runner",
    "DiskFull": "runner",
    "RunResult": "runner",
    "run_benchmark": "runner",
    "check_fail_under": "summary",
    "BuiltinValidator": "validate",
    "ValidationResult": "validate",
    "Validator": "validate",
    "make_validator": "validate",
}

if TYPE_CHECKING:
    from voxbench.orchestrator.attempt import AttemptOutcome, run_attempt
    from voxbench.orchestrator.config import RunConfig, ValidationConfig, load_run_config
    from voxbench.orchestrator.jobs import (
        ConversationFn,
        ConversationJob,
        ConversationSpec,
        conversation_id,
        derive_seed,
        expand,
    )
    from voxbench.orchestrator.layout import RunLayout
    from voxbench.orchestrator.runner import DiskFull, Orchestrator, RunLocked, RunResult, run_benchmark
    from voxbench.orchestrator.summary import check_fail_under
    from voxbench.orchestrator.validate import BuiltinValidator, ValidationResult, Validator, make_validator


def __getattr__(name: str) -> Any:
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module 'voxbench.orchestrator' has no attribute {name!r}")
    return getattr(importlib.import_module(f"voxbench.orchestrator.{mod}"), name)


__all__ = [
    "AttemptOutcome",
    "BuiltinValidator",
    "ConversationFn",
    "ConversationJob",
    "ConversationSpec",
    "DiskFull",
    "Orchestrator",
    "RunConfig",
    "RunLayout",
    "RunLocked",
    "RunResult",
    "ValidationConfig",
    "ValidationResult",
    "Validator",
    "check_fail_under",
    "conversation_id",
    "derive_seed",
    "expand",
    "load_run_config",
    "make_validator",
    "run_attempt",
    "run_benchmark",
]
