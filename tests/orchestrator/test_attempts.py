"""One attempt in a worker process: each way it can go wrong is classified with its cause."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from voxbench.orchestrator import ConversationJob, run_attempt
from voxbench.orchestrator.config import RunConfig, ValidationConfig
from voxbench.orchestrator.jobs import ConversationSpec, make_job
from voxbench.orchestrator.validate import BuiltinValidator
from voxbench.records.stage import CALL_STAGE, note_stage


def _job(
    tmp_path: Path,
    agent: dict[str, Any] | None = None,
    sim: dict[str, Any] | None = None,
    time_limit_s: float = 30,
    conversation_fn: str | None = None,
) -> ConversationJob:
    cfg = RunConfig.model_validate(
        {
            "agent": {"profile": "scripted", **(agent or {})},
            "simulator": {**(sim or {})},
            "time_limit_s": time_limit_s,
            "conversation_fn": conversation_fn,
        }
    )
    conv = ConversationSpec(
        conversation_id="airline__bb.1__t0__clean",
        domain="airline",
        scenario_id="bb.1",
        trial=0,
        condition="clean",
        base_seed=1,
    )
    return make_job(cfg, "r", conv, 0, tmp_path / "out", port=0)


def _fault(name: str) -> dict[str, Any]:
    return {"faults": [{"scenario_id": "bb.1", "fault": name}]}


def test_ok_attempt_writes_a_valid_record(tmp_path: Path) -> None:
    out = run_attempt(_job(tmp_path), grace_s=5)
    assert out.kind == "ran" and out.fn_s is not None and out.process_s >= out.fn_s
    rec = json.loads((tmp_path / "out" / "record.json").read_text())
    assert rec["status"] == "completed" and rec["end_reason"] == "end_call"
    assert BuiltinValidator(ValidationConfig())(tmp_path / "out").valid


@pytest.mark.parametrize(
    ("fault", "source", "text"),
    [
        ("crash", "crash", "SIGKILL"),
        ("exception", "crash", "RuntimeError"),
        ("socket_drop", "transport", "websocket"),
    ],
)
def test_infra_failures_carry_their_cause(tmp_path: Path, fault: str, source: str, text: str) -> None:
    where = {"sim": _fault(fault)} if fault == "socket_drop" else {"agent": _fault(fault)}
    out = run_attempt(_job(tmp_path, **where), grace_s=5)
    assert out.kind == "infra"
    assert out.error_source == source
    assert text in (out.cause or "")


def test_hang_is_killed_at_time_limit_plus_grace(tmp_path: Path) -> None:
    out = run_attempt(_job(tmp_path, agent=_fault("hang"), time_limit_s=0.5), grace_s=0.5)
    assert out.kind == "infra" and out.error_source == "timeout"
    assert out.cause is not None and out.cause.startswith("hang")
    assert 1.0 <= out.process_s < 5.0


class SetupClock:
    """The attempt's clock, moved by reads instead of by the machine: 0 at the spawn, 10 s
    (the set-up) for the next two reads, then half a second more per read."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return 0.0 if self.reads == 1 else 10.0 + 0.5 * max(0, self.reads - 3)


def test_the_time_limit_counts_from_the_start_of_the_call(tmp_path: Path) -> None:
    """A live worker notes "in the call" after minutes of set-up (imports, the local LLM's
    start and warm-up); only then do its time limit and grace start. The worker here hangs
    in its call after 10 s of set-up: killed at set-up + limit + grace, not at limit + grace."""
    job = _job(tmp_path, agent=_fault("hang"), time_limit_s=0.5)
    note_stage(job.output_dir, CALL_STAGE)  # what the live runner writes when the call starts
    out = run_attempt(job, grace_s=0.5, clock=SetupClock())
    assert out.kind == "infra" and out.error_source == "timeout"
    assert out.cause is not None
    assert out.cause.startswith(
        "hang: no result after 11.0 s (set-up 10.0 s + time limit 0.5 s + grace 0.5 s)"
    )
    assert out.process_s == 11.5  # the first read past 11.0


def test_invalid_simulation_fails_the_builtin_gate(tmp_path: Path) -> None:
    out = run_attempt(_job(tmp_path, sim=_fault("invalid")), grace_s=5)
    assert out.kind == "ran"  # the process worked; validation decides
    res = BuiltinValidator(ValidationConfig())(tmp_path / "out")
    assert not res.valid and "inactivity_timeout" in (res.reason or "")


def test_unknown_conversation_fn_is_an_infra_failure(tmp_path: Path) -> None:
    out = run_attempt(_job(tmp_path, conversation_fn="no.such.module:fn"), grace_s=5)
    assert out.kind == "infra" and "ModuleNotFoundError" in (out.cause or "")
