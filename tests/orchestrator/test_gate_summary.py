"""The validation gate in the open: the run summary says how many attempts each conversation
used and, for each discarded attempt, why (validators and evidence) and where its record is."""

from __future__ import annotations

from pathlib import Path

import pytest

from voxbench.orchestrator import RunConfig, run_benchmark


def test_summary_lists_each_discarded_attempt_with_its_evidence(tmp_path: Path) -> None:
    pytest.importorskip("voxbench.eval.runner", reason="voxbench.eval is not installed")
    sim = {"faults": [{"scenario_id": "bb.1", "attempt": 0, "fault": "invalid"}]}
    cfg = RunConfig.model_validate(
        {
            "out": str(tmp_path / "run"), "scenarios": ["bb.1"], "score": False, "time_limit_s": 30,
            "hang_grace_s": 5, "simulator": sim, "validation": {"validator": "eval", "max_attempts": 3},
        }
    )  # fmt: skip
    res = run_benchmark(cfg)
    gate = res.summary["gate"]
    cid = "airline__bb.1__t0__clean"
    assert gate["attempts_by_conversation"] == {cid: 2}
    (d,) = gate["discarded_attempts"]
    assert (d["conversation_id"], d["attempt"], d["status"]) == (cid, 0, "invalid")
    assert d["reason"].startswith("not_finished")
    assert d["evidence"]["conversation_valid_end"][0]["rule"]
    assert (res.run_dir / d["record"] / "record.json").is_file()
