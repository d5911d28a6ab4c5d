"""`voxbench export --format tau-voice`: a voxbench run written as τ-voice trajectories and
read back by the τ-voice reader gives the panel the registered metrics give on the grid."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.eval.builders import Conv
from voxbench.cli.main import main
from voxbench.eval.from_record import load_context
from voxbench.eval.metrics.tau_voice import METRIC_NAMES
from voxbench.eval.runner import score_context
from voxbench.eval.tau_voice.pool import pooled_panel
from voxbench.eval.tau_voice.runs import score_tau_voice
from voxbench.eval.types import EvalConfig
from voxbench.records import CallerAct


def _conv(trial: int, shift: float) -> Conv:
    c = Conv(trial=trial)
    c.agent(0.0, 3.0, "Hello, how can I help?")
    c.user(3.5 + shift, 5.0, "I want to move my flight.")
    c.agent(5.8, 9.0, "Sure, what's the confirmation number?")
    c.agent(10.0, 11.6, "And your last name, please.")
    c.user(11.0, 12.0, "ZK3FFW, Rodriguez.")
    c.agent(12.5 + shift, 13.5, "Thank you.")
    c.events += [
        CallerAct(t=6.5, side="user", kind="backchannel", text="mm-hmm", duration_s=0.4, agent_speaking=True),
        CallerAct(
            t=7.5, side="user", kind="side_speech", text="Hang on", duration_s=0.8, agent_speaking=True
        ),
        CallerAct(t=11.0, side="user", kind="barge_in", text="ZK3FFW", duration_s=1.0, agent_speaking=True),
    ]
    return c


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    for trial, shift in ((0, 0.0), (1, 0.13)):
        _conv(trial, shift).write(run / "conversations" / f"1.1.1_trial_{trial}")
    return run


def test_export_then_read_gives_the_grid_panel(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_dir.parent / "exported"
    assert main(["export", "--format", "tau-voice", str(run_dir), "--out", str(out)]) == 0
    assert (out / "airline" / "results.json").is_file()
    assert len(list((out / "airline" / "simulations").glob("*.json"))) == 2
    read = score_tau_voice(out)["interaction_metrics"]["domains"]["airline"]
    per_call = []
    for rec in sorted((run_dir / "conversations").iterdir()):
        scored = score_context(load_context(rec), EvalConfig(), list(METRIC_NAMES))
        per_call.append({n: r.details for n, r in scored.metrics.items()})
    pooled = pooled_panel(per_call)
    assert pooled is not None
    assert read["counts"] == pooled["grid"]["counts"]
    for field in ("response_rate", "yield_rate", "agent_interruption_rate", "selectivity_backchannel"):
        assert read[field] == pooled["grid"][field]
    for field in ("response_latency_mean", "yield_latency_mean"):
        assert read[field] == pytest.approx(pooled["grid"][field], abs=1e-9)
    assert read["counts"]["backchannel_total"] == 2 and read["counts"]["non_directed_total"] == 2
    assert read["counts"]["yield_total"] == 2


def test_eval_recognises_the_exported_folder(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_dir.parent / "exported"
    main(["export", "--format", "tau-voice", str(run_dir), "--out", str(out)])
    capsys.readouterr()
    assert main(["eval", str(out)]) == 0
    assert "selectivity_backchannel" in capsys.readouterr().out
    assert (out / "interaction_metrics.json").is_file()


def test_export_of_a_folder_without_records_is_a_clear_error(tmp_path: Path) -> None:
    assert main(["export", "--format", "tau-voice", str(tmp_path)]) == 2
