"""Benchmark runs: trials, validation-gated reruns, infra retries, concurrency, resume, Ray.

The orchestrator never runs a conversation itself: it hands a ``ConversationJob`` to a
``ConversationFn`` (scripted for tests, the live pipelines runner for real) inside a
worker process, then decides from the record what happens next.
"""

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
from voxbench.orchestrator.runner import Orchestrator, RunLocked, RunResult, run_benchmark
from voxbench.orchestrator.summary import check_fail_under
from voxbench.orchestrator.validate import BuiltinValidator, ValidationResult, Validator, make_validator

__all__ = [
    "AttemptOutcome",
    "BuiltinValidator",
    "ConversationFn",
    "ConversationJob",
    "ConversationSpec",
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
