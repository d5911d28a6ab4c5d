"""Reading τ-voice folders: the published fixture end to end (structure and internal
consistency; its published values are held back), aggregation across simulations and
domains, recognition by `voxbench eval`, and clear errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from voxbench.eval.tau_voice.panel import COUNT_KEYS, FIELDS, MIN_EVENTS, selectivity_mean, shown
from voxbench.eval.tau_voice.runs import TauVoiceError, is_tau_voice_run, score_tau_voice

from .trajectories import ticks, write_experiment

FIXTURE = Path(__file__).resolve().parents[4] / "shared" / "reference" / "tau-voice" / "experiment"
needs_fixture = pytest.mark.skipif(not FIXTURE.is_dir(), reason="τ-voice fixture not on this machine")


def _consistent(p: dict) -> None:
    n = p["counts"]
    assert set(n) == set(COUNT_KEYS)
    assert n["response_total"] == n["response_count"] + n["no_response_count"]
    assert n["yield_total"] == n["yield_count"] + n["no_yield_count"]
    for k in ("backchannel", "vocal_tic", "non_directed"):
        assert n[f"{k}_total"] == n[f"{k}_correct"] + n[f"{k}_error"]
    pairs = {
        "response_rate": ("response_count", "response_total"),
        "yield_rate": ("yield_count", "yield_total"),
        "agent_interruption_rate": ("agent_interrupts_count", "response_total"),
        "selectivity_backchannel": ("backchannel_correct", "backchannel_total"),
        "selectivity_vocal_tic": ("vocal_tic_correct", "vocal_tic_total"),
        "selectivity_non_directed": ("non_directed_correct", "non_directed_total"),
    }
    for f, (num, den) in pairs.items():
        assert p[f] == (n[num] / n[den] if n[den] else None)
    # L_R is backed by the responded turns, response_rate x response_total
    assert (p["response_latency_mean"] is None) == (n["response_count"] == 0)
    assert (p["yield_latency_mean"] is None) == (n["yield_count"] == 0)


@needs_fixture
def test_fixture_end_to_end_structure_and_consistency() -> None:
    doc = score_tau_voice(FIXTURE)["interaction_metrics"]
    assert list(doc["domains"]) == ["retail"]  # info.environment_info.domain_name
    assert doc["config"]["tick_duration_sec"] == 0.2  # info.audio_native_config
    p = doc["domains"]["retail"]
    assert p["num_simulations"] == 3
    assert p["task_reward_mean"] is None  # the trimmed simulations record no reward
    assert {f for f, _, _ in FIELDS} <= set(p)
    _consistent(p)
    for f, _, _ in FIELDS:
        v = p[f]
        assert v is None or (math.isfinite(v) and v >= 0)
    for f in ("response_rate", "yield_rate", "selectivity_backchannel"):
        assert p[f] is None or p[f] <= 1
    # the fixture exercises every event kind
    n = p["counts"]
    assert all(n[k] > 0 for k in ("response_total", "yield_total", "backchannel_total", "vocal_tic_total"))
    assert n["non_directed_total"] > 0
    assert doc["overall"]["counts"] == n


@needs_fixture
def test_parent_folder_is_read_as_a_trajectories_folder() -> None:
    assert is_tau_voice_run(FIXTURE.parent)
    one = score_tau_voice(FIXTURE)["interaction_metrics"]["domains"]
    assert score_tau_voice(FIXTURE.parent)["interaction_metrics"]["domains"] == one


def test_domains_pool_simulations_and_overall_averages_domains(tmp_path: Path) -> None:
    # retail: two simulations, 1 response of 0.4 s, 1 of 0.8 s; airline: one of 0.2 s
    write_experiment(
        tmp_path / "a",
        "retail",
        [ticks("UU......", "....AA.."), ticks("UU.......", "......AA.")],
        rewards=[1.0, 0.0],
    )
    write_experiment(tmp_path / "b", "airline", [ticks("UU.....", "...AA..")])
    doc = score_tau_voice(tmp_path)["interaction_metrics"]
    r, a = doc["domains"]["retail"], doc["domains"]["airline"]
    assert r["response_latency_mean"] == pytest.approx(0.6) and r["counts"]["response_total"] == 2
    assert r["task_reward_mean"] == 0.5 and r["task_reward_count"] == 2
    assert a["response_latency_mean"] == pytest.approx(0.2)
    assert doc["overall"]["response_latency_mean"] == pytest.approx(0.4)  # mean of domain means
    assert doc["overall"]["counts"]["response_total"] == 3  # counts summed
    assert doc["overall"]["yield_rate"] is None  # missing in every domain


def test_leaderboard_hides_rates_under_ten_events() -> None:
    p = {"selectivity_backchannel": 0.5, "selectivity_vocal_tic": 1.0, "selectivity_non_directed": 0.0}
    p["counts"] = {"backchannel_total": MIN_EVENTS, "vocal_tic_total": MIN_EVENTS, "non_directed_total": 9}
    assert shown(p, "selectivity_backchannel") and not shown(p, "selectivity_non_directed")
    assert selectivity_mean(p) is None
    p["counts"]["non_directed_total"] = 10
    assert selectivity_mean(p) == pytest.approx(0.5)


def test_half_duplex_only_fails_loudly(tmp_path: Path) -> None:
    write_experiment(tmp_path, "retail", [[]])
    with pytest.raises(TauVoiceError, match="no tick-bearing"):
        score_tau_voice(tmp_path)


def test_bad_simulation_names_file_and_field(tmp_path: Path) -> None:
    write_experiment(tmp_path, "retail", [ticks("U.", "..")])
    p = tmp_path / "simulations" / "s0.json"
    sim = json.loads(p.read_text())
    sim["ticks"][1]["user_chunk"]["contains_speech"] = "maybe"
    p.write_text(json.dumps(sim))
    with pytest.raises(TauVoiceError, match=r"s0\.json: field ticks\.1\.user_chunk\.contains_speech"):
        score_tau_voice(tmp_path)


def test_voxbench_and_eva_folders_are_not_tau_voice(tmp_path: Path) -> None:
    (tmp_path / "conversations").mkdir()
    assert not is_tau_voice_run(tmp_path)


@needs_fixture
def test_cli_prints_the_panel_with_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from voxbench.cli.main import main

    monkeypatch.chdir(tmp_path)
    assert main(["eval", str(FIXTURE)]) == 0
    out = capsys.readouterr().out
    assert "selectivity_non_directed" in out and "response_total=" in out
    written = json.loads((tmp_path / "experiment_interaction_metrics.json").read_text())
    assert written["interaction_metrics"]["domains"]["retail"]["counts"]["response_total"] > 0
