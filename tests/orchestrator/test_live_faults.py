"""Faults injected into live calls (the reference agent and a tone-voiced trace caller, on
the virtual clock): each classified with its cause, the way the orchestrator keeps it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from voxbench.orchestrator import run_attempt
from voxbench.orchestrator.classify import attempt_fault
from voxbench.orchestrator.config import RunConfig
from voxbench.orchestrator.jobs import ConversationSpec, make_job
from voxbench.pipelines.call.selftest import selftest_call_config
from voxbench.scenarios.loader import toy_dataset_dir

pytest.importorskip("pipecat")


def _live_attempt(tmp_path: Path, agent_faults: list[Any], sim_faults: list[Any]) -> tuple[Any, Path]:
    cfg = RunConfig.model_validate(
        {
            "dataset": str(toy_dataset_dir()),
            "agent": {"profile": "reference", "voice": "tone", "faults": agent_faults},
            "simulator": {"kind": "trace", "voice": "tone", "faults": sim_faults},
            "time_limit_s": 120,
            "conversation_fn": "live_virtual",
            "call": selftest_call_config("tone", 120).model_dump(mode="json"),
        }
    )
    conv = ConversationSpec(
        conversation_id="toy__ty.1__t0__clean", domain="toy", scenario_id="ty.1",
        trial=0, condition="clean", base_seed=1,
    )  # fmt: skip
    out = tmp_path / "out"
    return run_attempt(make_job(cfg, "r", conv, 0, out, port=0), grace_s=300), out


@pytest.mark.parametrize(
    ("fault", "cls", "cause"),
    [
        ("hang", "agent_error", "never answered"),
        ("tool_unknown", "agent_error", "tool_not_found"),
    ],
)
def test_the_reference_agents_fault_mid_turn_is_an_agent_error(
    tmp_path: Path, fault: str, cls: str, cause: str
) -> None:
    """The agent goes silent at its first tool call, or calls a tool the scenario lacks: the
    call completes (the caller finished its lines) and is scored as the agent's failure."""
    outcome, out = _live_attempt(tmp_path, [{"fault": fault}], [])
    assert outcome.kind == "ran", outcome.cause
    f = attempt_fault("completed", None, None, out)
    assert f is not None and f["class"] == cls and cause in f["cause"], f


def test_the_callers_voice_failing_is_an_infrastructure_failure_named_for_the_caller(tmp_path: Path) -> None:
    outcome, out = _live_attempt(tmp_path, [], [{"fault": "tts_fail"}])
    assert (outcome.kind, outcome.error_source) == ("infra", "simulator")
    assert "FailingToneTTS" in (outcome.cause or "")
    f = attempt_fault("infra_failure", outcome.cause, outcome.error_source, out)
    assert f is not None and f["class"] == "infrastructure"


def test_the_agents_socket_dropped_mid_turn_is_an_infrastructure_failure(tmp_path: Path) -> None:
    """The agent's server closes the caller's WebSocket at its first tool call: the call ends
    as connection_lost, retried, named for the transport."""
    outcome, out = _live_attempt(tmp_path, [{"fault": "socket_drop"}], [])
    assert (outcome.kind, outcome.error_source) in {
        ("infra", "simulator_transport"),
        ("infra", "agent_transport"),
    }
    assert "socket closed mid-call" in (outcome.cause or "")
    f = attempt_fault("infra_failure", outcome.cause, outcome.error_source, out)
    assert f is not None and f["class"] == "infrastructure" and f["meaning"].startswith("socket dropped")
