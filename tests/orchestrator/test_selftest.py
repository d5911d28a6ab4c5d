"""`voxbench selftest` on the built-in toy domain (ty.2; ty.1 runs in tests/pipelines/test_reference_agent.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from voxbench.cli.main import main
from voxbench.orchestrator.selftest_checks import Bounds, check_call
from voxbench.scenarios import load_dataset
from voxbench.scenarios.loader import toy_dataset_dir
from voxbench.scenarios.reference_script import Call, ReferenceScript, reference_script


def test_selftest_toy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Pacing and answer latency are wall-clock health figures: the table prints them, but this
    # test runs on shared CI cores, so only a gross stall counts as a miss here.
    code = main(
        [
            "selftest",
            "--data",
            str(toy_dataset_dir()),
            "--scenarios",
            "ty.2",
            "--out",
            str(tmp_path),
            "--max-late-fraction",
            "0.5",
            "--max-latency",
            "10",
        ]
    )
    captured = capsys.readouterr()
    out = captured.out
    assert code == 0, out
    # progress as `run` shows it: the plan, then a line per call (stderr)
    progress = [line for line in captured.err.splitlines() if "selftest" in line or line.startswith("[")]
    assert progress[0].startswith("voxbench selftest: 1 calls planned, 1 at a time"), progress
    assert progress[1].startswith("[1/1] toy/ty.2: ") and progress[1].endswith("call, ok"), progress
    row = next(line for line in out.splitlines() if line.startswith("toy "))
    assert row.split()[1:5] == ["1", "1/1", "1/1", "0/0"]  # calls, tasks, turn-taking, barge-ins/yields
    assert "voices: agent tone:120Hz, caller tone:220Hz" in out
    saved = json.loads((tmp_path / "selftest.json").read_text(encoding="utf-8"))
    assert [c["scenario_id"] for c in saved["checks"]] == ["ty.2"]
    assert all(c["task_completed"] and c["cpu_s"] > 0 for c in saved["checks"])

    # a trace the call did not follow is a named miss
    dd = load_dataset(toy_dataset_dir(), ["toy"]).domains["toy"]
    sc = dd.scenarios["ty.2"]
    script = reference_script(sc, dd.resolver(sc, "en"))
    wrong = ReferenceScript(
        script.prelude,
        (*script.replies[:-1], (Call("find_order", {}),)),
        script.user_lines,
        script.end_reason,
    )
    c = check_call(tmp_path / "records" / "toy-ty.2", wrong, Bounds(max_late_fraction=0.5), "toy", "ty.2")
    assert any(m.startswith("tool calls") for m in c.misses), c.misses


def test_selftest_toy_on_the_virtual_clock_is_exact_and_reproducible(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # On the virtual clock no chunk can be late, so the default pacing bound (1 %) holds
    # whatever the machine's load, and two runs stamp every event alike.
    stamps = []
    for run in ("a", "b"):
        args = [
            "selftest",
            "--data",
            str(toy_dataset_dir()),
            "--scenarios",
            "ty.2",
            "--out",
            str(tmp_path / run),
        ]
        code = main([*args, "--virtual-clock"])
        out = capsys.readouterr().out
        assert code == 0, out
        row = next(line for line in out.splitlines() if line.startswith("toy "))
        assert row.split()[1:5] == ["1", "1/1", "1/1", "0/0"]
        assert row.split()[6:9] == ["0", "0", "0"]  # late chunks, underruns, worst lateness ms
        lines = (tmp_path / run / "records" / "toy-ty.2" / "events.jsonl").read_text().splitlines()
        stamps.append([(e["type"], e.get("side"), e["t"]) for e in map(json.loads, lines)])
    assert stamps[0] == stamps[1]


def test_a_response_joining_the_speech_under_way_is_heard() -> None:
    from voxbench.orchestrator.selftest_checks import heard_between
    from voxbench.records import Speech

    def sp(t: float, state: str) -> Speech:
        return Speech(t=t, side="harness", channel="agent", state=state)  # type: ignore[arg-type]

    speech = [sp(15.4, "onset"), sp(23.7, "offset")]  # one segment: a response said at 18.5 inside it
    assert heard_between(speech, 18.5, 24.5)
    assert not heard_between(speech, 23.6, 24.5)  # the segment ends 0.1 s later: not this response
    assert heard_between([*speech, sp(24.0, "onset")], 23.6, 24.5)
    assert not heard_between([sp(1.0, "onset"), sp(2.0, "offset")], 5.0, 6.0)


def test_a_worker_shares_its_loaded_domain_and_a_call_leaves_it_as_loaded(tmp_path: Path) -> None:
    # run_job loads each domain once per worker process; a call must not change what the
    # next call of that worker is given (scenarios, agent spec; databases are read afresh).
    from voxbench.orchestrator.selftest import SelftestJob, _domain, run_job

    data = str(toy_dataset_dir())
    _domain.cache_clear()
    dd = _domain(data, "toy")
    before = (
        {k: v.model_dump(mode="json") for k, v in dd.scenarios.items()},
        dd.agent.model_dump(mode="json"),
        dd.initial_db("ty.2"),
    )
    job = SelftestJob(
        data=data, domain="toy", scenario_id="ty.2", out_dir=str(tmp_path / "ty.2"), voices="tone",
        lang="en", time_limit_s=None, bounds=Bounds(), virtual_clock=True,
    )  # fmt: skip
    check = run_job(job)
    assert check.task_completed, check.misses
    assert _domain(data, "toy") is dd
    after = (
        {k: v.model_dump(mode="json") for k, v in dd.scenarios.items()},
        dd.agent.model_dump(mode="json"),
        dd.initial_db("ty.2"),
    )
    assert after == before
