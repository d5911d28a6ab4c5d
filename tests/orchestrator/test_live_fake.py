"""The orchestrator driving the real live runner (fake services) in worker processes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.orchestrator.conftest import REPO
from tests.orchestrator.fake_live import FAST_CALL
from voxbench.orchestrator import RunConfig, run_benchmark

pytest.importorskip("pipecat", reason="the live extra (pipecat) is not installed")


def test_orchestrated_live_calls(eva_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # worker processes import tests.orchestrator.fake_live, and these sources (a worktree's too)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO), str(REPO / "src")]))
    cfg = RunConfig.model_validate(
        {
            "dataset": str(eva_data),
            "domains": ["airline"],
            "scenarios": ["7.4.1"],
            "trials": 2,
            "concurrency": 2,
            "time_limit_s": 60,
            "score": False,
            "conversation_fn": "tests.orchestrator.fake_live:fake_live_conversation",
            "agent": {"profile": "cascade-local"},  # the fake fn builds fake services
            "call": FAST_CALL,
            "simulator": {"kind": "trace"},
            "validation": {"validator": "builtin"},
        }
    )
    res = run_benchmark(cfg.model_copy(update={"out": str(tmp_path / "run")}))
    s = res.summary
    assert s["completed"] == 2, s
    rec = json.loads((res.run_dir / "records" / "airline__7.4.1__t1__clean" / "record.json").read_text())
    assert rec["end_reason"] == "trace_finished"
    assert (rec["trial"], rec["condition"], rec["attempt"]) == (1, "clean", 0)
    assert (
        rec["seeds"]["conversation"]
        == json.loads((res.run_dir / "run.json").read_text())["seeds"]["conversations"][
            "airline__7.4.1__t1__clean"
        ]
    )
    assert (res.run_dir / "records" / "airline__7.4.1__t1__clean" / "mix.wav").is_file()
