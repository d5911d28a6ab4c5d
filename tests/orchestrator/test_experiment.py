"""`voxbench experiment` over the built-in scenarios (bb.1-bb.3) with a scripted conversation fn
whose transcripts degrade under noise/accent: the delta table and experiment.json come out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from voxbench.cli.main import main
from voxbench.orchestrator.config import RunConfig
from voxbench.orchestrator.experiment import compare_rows, experiment_config, format_table


def test_experiment_cli_builtin_scenarios(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "exp.yaml"
    cfg.write_text(
        yaml.safe_dump(
            {
                "conversation_fn": "tests.orchestrator.perturbed_scripted:perturbed_scripted",
                "concurrency": 2,
                "time_limit_s": 60,
                "validation": {"validator": "builtin"},
            }
        )
    )
    out = tmp_path / "exp"
    rc = main(
        [
            "experiment",
            "--config",
            str(cfg),
            "--conditions",
            "noise,accent+noise",
            "--trials",
            "2",
            "--out",
            str(out),
        ]
    )
    assert rc == 0
    captured = capsys.readouterr()
    printed = captured.out
    # progress as `voxbench run` shows it (not a TTY here: a line per change)
    progress = captured.err.splitlines()
    assert "voxbench run exp: starting" in progress
    assert any(line.startswith("18/18 done (18 completed") for line in progress), progress
    # then the scoring pass
    assert "voxbench run exp: scoring: 18 records to score" in progress
    scoring = progress[progress.index("voxbench run exp: scoring: 18 records to score") + 1 :]
    assert "[18/18] records scored" in scoring
    assert "stt_wer" in printed and "accent+noise" in printed and "noise" in printed

    exp = json.loads((out / "experiment.json").read_text())
    assert exp["baseline"] == "clean"
    assert exp["conditions"] == ["clean", "noise", "accent+noise"]
    assert exp["scenarios"] == ["airline/bb.1", "airline/bb.2", "airline/bb.3"]
    assert exp["counts"]["noise"]["scored"] == 6
    rows = {r["metric"]: r for r in exp["comparisons"]["noise"]}
    wer = rows["stt_wer"]  # normalized: 1 - WER, so noise lowers it
    assert wer["n_pairs"] == 3 and wer["baseline_mean"] == pytest.approx(1.0)
    assert wer["delta"] < -0.1
    assert wer["p_value"] == pytest.approx(0.25)  # 3 pairs, all the same sign: the exact minimum
    assert wer["p_holm"] >= wer["p_value"] and wer["significant"] is False
    both = {r["metric"]: r for r in exp["comparisons"]["accent+noise"]}["stt_wer"]
    assert both["delta"] < wer["delta"]  # accent on top of noise is worse still
    # unaffected metrics have zero delta and p = 1
    assert rows["conversation_valid_end"]["delta"] == 0 and rows["conversation_valid_end"]["p_value"] == 1.0


def test_compare_rows_pairs_scenario_means_and_applies_holm() -> None:
    rows = []
    for s, (b, c) in enumerate(
        [(0.9, 0.5), (0.8, 0.5), (0.7, 0.3), (0.95, 0.6), (0.9, 0.4), (0.85, 0.35), (0.75, 0.35)]
    ):
        for trial in range(2):
            rows.append({"condition": "clean", "scenario": f"d/{s}", "trial": trial, "status": "completed",
                         "scored": True, "values": {"m1": b, "m2": 0.5}})  # fmt: skip
            rows.append({"condition": "noise", "scenario": f"d/{s}", "trial": trial, "status": "completed",
                         "scored": True, "values": {"m1": c, "m2": 0.5}})  # fmt: skip
    exp = compare_rows(rows)
    r = {x["metric"]: x for x in exp["comparisons"]["noise"]}
    assert r["m1"]["n_pairs"] == 7 and r["m1"]["delta"] == pytest.approx(-0.4071, abs=1e-3)
    assert r["m1"]["p_value"] == pytest.approx(2 / 128)
    assert r["m1"]["p_holm"] == pytest.approx(2 * 2 / 128) and r["m1"]["significant"]
    assert r["m2"]["p_value"] == 1.0
    assert "m1" in format_table(exp)


def test_experiment_config_checks_names() -> None:
    cfg = experiment_config(RunConfig(), ["noise", "accent+noise"])
    assert list(cfg.conditions) == ["clean", "noise", "accent+noise"]
    with pytest.raises(KeyError):
        experiment_config(RunConfig(), ["nosie"])
