"""Every fault named: its class and cause in the attempt and the run summary, nothing lost,
nothing redone that was finished (benchmarks/fault_matrix.py runs the same faults at scale)."""

from __future__ import annotations

import errno
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from voxbench.orchestrator import DiskFull, RunConfig, run_attempt, run_benchmark
from voxbench.orchestrator import runner as runner_mod
from voxbench.orchestrator.classify import agent_errors, fault_class, source_from_log
from voxbench.orchestrator.jobs import ConversationSpec, make_job
from voxbench.orchestrator.live_faults import TOOL_FAULTS, tool_fault_result
from voxbench.reports.gate import load_attempts
from voxbench.scenarios import ToolExecutor, load_dataset
from voxbench.scenarios.loader import toy_dataset_dir


def _cfg(tmp_path: Path, agent_faults: list[Any] = (), **over: Any) -> RunConfig:  # type: ignore[assignment]
    base: dict[str, Any] = {
        "out": str(tmp_path / "run"),
        "scenarios": ["bb.1", "bb.2"],
        "concurrency": 2,
        "score": False,
        "time_limit_s": 30,
        "hang_grace_s": 30,
        "validation": {"validator": "builtin"},
        "max_infra_retries": 1,
        "agent": {"profile": "scripted", "count_file": str(tmp_path / "count"), "faults": list(agent_faults)},
    }
    base.update(over)
    return RunConfig.model_validate(base)


def _runs(tmp_path: Path) -> Counter[str]:
    return Counter(line.split()[0] for line in (tmp_path / "count").read_text().splitlines())


@pytest.mark.parametrize("fault", sorted(TOOL_FAULTS))
def test_the_executor_answers_each_malformed_tool_call_with_an_error(fault: str) -> None:
    dd = load_dataset(toy_dataset_dir(), ["toy"]).domains["toy"]
    sid = next(iter(dd.scenarios))
    ex = ToolExecutor("toy", dd.initial_db(sid, "en"), dd.scenarios[sid].current_date_time, dd.agent)
    name = dd.agent.tool_names()[0]
    res = tool_fault_result(fault, name, {}, ex)
    assert res["status"] == "error" and res["error_type"], res


@pytest.mark.parametrize("fault", sorted(TOOL_FAULTS))
def test_a_malformed_tool_call_is_an_agent_error_scored_not_retried(tmp_path: Path, fault: str) -> None:
    res = run_benchmark(_cfg(tmp_path, [{"scenario_id": "bb.1", "fault": fault}], scenarios=["bb.1"]))
    s = res.summary
    assert (s["completed"], s["attempts"], s["infra_retried"], s["regenerated"]) == (1, 1, 0, 0)
    (f,) = s["faults"]
    assert f["class"] == "agent_error" and f["final"] and f["cause"].startswith("tool ")
    att = json.loads((res.run_dir / "records" / "airline__bb.1__t0__clean" / "attempt.json").read_text())
    assert att["fault"]["class"] == "agent_error"


def test_the_agents_own_errors_are_read_from_its_events(tmp_path: Path) -> None:
    lines = [
        {"type": "tool_call", "t": 1.0, "call_id": "a", "name": "lookup", "arguments": {}},
        {"type": "tool_call", "t": 2.0, "call_id": "b", "name": "book", "arguments": {}},
        {"type": "tool_result", "t": 2.1, "call_id": "b", "name": "book", "status": "success", "result": {}},
        {
            "type": "error",
            "t": 3.0,
            "side": "agent",
            "source": "LLM#0",
            "message": "handler raised",
            "fatal": False,
        },
        {"type": "tool_call", "t": 3.0, "call_id": "c", "name": "cancel", "arguments": {}},
        {
            "type": "tool_result",
            "t": 3.0,
            "call_id": "c",
            "name": "cancel",
            "status": "unknown",
            "result": {"value": "The function `cancel` failed and returned no result."},
        },
    ]
    (tmp_path / "events.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + '\n{"type": "ut')
    assert agent_errors(tmp_path) == [
        "agent error: handler raised",
        "tool cancel answered unknown: The function `cancel` failed and returned no result.",
        "tool lookup never answered (call a)",
    ]


def test_every_error_source_has_a_class_and_none_is_unknown() -> None:
    assert fault_class("timeout") == ("infrastructure", "hang: no result by the deadline")
    assert fault_class("simulation")[0] == "validation"
    assert fault_class("scenario")[0] == "scenario_error"
    assert fault_class("agent")[0] == "agent_error"
    cls, meaning = fault_class("some_new_stage")
    assert cls == "infrastructure" and "some_new_stage" in meaning
    assert source_from_log("OSError: [Errno 28] No space left on device: 'x'", "crash") == "disk_full"
    assert source_from_log("RuntimeError: boom", "crash") == "crash"


def test_disk_full_at_the_workers_record_write_stops_the_run_and_resume_loses_nothing(tmp_path: Path) -> None:
    """The worker's record write fails with ENOSPC: retrying would fail alike and, out of
    budget, commit the conversation as a failure nobody redoes; so the run stops naming the
    full disk, and the resume (room made) redoes only that conversation."""
    faults = [{"scenario_id": "bb.2", "fault": "disk_full"}]
    with pytest.raises(DiskFull, match=r"No space left on device"):
        run_benchmark(_cfg(tmp_path, faults, concurrency=1))
    s = run_benchmark(_cfg(tmp_path, [], concurrency=1)).summary
    assert (s["completed"], s["not_run"], s["attempts"], s["infra_retried"]) == (2, 0, 2, 0)
    assert _runs(tmp_path) == {"airline__bb.1__t0__clean": 1, "airline__bb.2__t0__clean": 2}


def test_disk_full_in_the_orchestrator_stops_the_run_and_resume_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run folder's disk fills while the orchestrator writes an attempt's bookkeeping:
    the run stops with DiskFull (not a traceback from a task), keeps what it committed, and
    the resume redoes only the conversation that was in flight."""
    real = runner_mod.atomic_write_json

    def full_at_bb2(path: Path, data: Any) -> None:
        if path.name == "attempt.json" and "bb.2" in str(path):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, data)

    cfg = _cfg(tmp_path, concurrency=1)
    monkeypatch.setattr(runner_mod, "atomic_write_json", full_at_bb2)
    with pytest.raises(DiskFull, match="disk full"):
        run_benchmark(cfg)
    done = sorted(p.name for p in (tmp_path / "run" / "records").iterdir() if not p.name.startswith("."))
    assert done == ["airline__bb.1__t0__clean"]
    monkeypatch.setattr(runner_mod, "atomic_write_json", real)
    s = run_benchmark(cfg).summary
    assert (s["completed"], s["not_run"], s["attempts"]) == (2, 0, 2)
    assert _runs(tmp_path) == {"airline__bb.1__t0__clean": 1, "airline__bb.2__t0__clean": 2}


@pytest.mark.parametrize("damage", ["truncated", "missing"])
def test_a_record_damaged_after_its_commit_is_named_and_redone_at_resume(tmp_path: Path, damage: str) -> None:
    cfg = _cfg(tmp_path)
    run_benchmark(cfg)
    rec = tmp_path / "run" / "records" / "airline__bb.1__t0__clean" / "record.json"
    if damage == "truncated":
        rec.write_bytes(rec.read_bytes()[:40])
    else:
        rec.unlink()
    s = run_benchmark(cfg).summary
    assert (s["completed"], s["not_run"], s["infra_retried"]) == (2, 0, 1)
    (f,) = s["faults"]
    assert (f["conversation_id"], f["class"], f["source"], f["final"]) == (
        "airline__bb.1__t0__clean", "infrastructure", "resume", False
    )  # fmt: skip
    assert "record.json unreadable at resume" in f["cause"]
    kept = tmp_path / "run" / "records" / "airline__bb.1__t0__clean_failed_attempt_0"
    assert (kept / "record.json.damaged").exists() == (damage == "truncated")
    (shown,) = load_attempts(tmp_path / "run" / "records")
    assert shown.status_text == "infra_failure (infrastructure: resume)"
    # the damaged call is redone once; the intact one is not run again
    assert _runs(tmp_path) == {"airline__bb.1__t0__clean": 2, "airline__bb.2__t0__clean": 1}


def test_a_job_file_names_the_fault_it_injects(tmp_path: Path) -> None:
    cfg = _cfg(tmp_path, [{"scenario_id": "bb.1", "fault": "disk_full"}])
    conv = ConversationSpec(
        conversation_id="airline__bb.1__t0__clean", domain="airline", scenario_id="bb.1",
        trial=0, condition="clean", base_seed=1,
    )  # fmt: skip
    out = run_attempt(make_job(cfg, "r", conv, 0, tmp_path / "out", port=0), grace_s=30)
    assert (out.kind, out.error_source) == ("infra", "disk_full")


def test_a_dead_workers_cause_is_its_exception_and_step_not_a_log_line() -> None:
    from voxbench.orchestrator.attempt import _why_it_died

    tail = (
        "Traceback (most recent call last):\n  File 'x.py', line 1\n"
        "OSError: [Errno 28] No space left on device: 'record.json'\n"
        "2026-12-05 23:57:05.100 | DEBUG | pipecat.pipeline:run:914 - finished"
    )
    assert _why_it_died(tail, "in the call") == (
        ": OSError: [Errno 28] No space left on device: 'record.json'; while in the call"
    )
    assert _why_it_died("12:00 | DEBUG | pipecat: frame", "in the call") == ": while in the call"
    assert _why_it_died("", None) == ""
