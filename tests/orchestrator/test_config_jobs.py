"""Run config precedence, job expansion and seeds, fail-under gating."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from voxbench.orchestrator import check_fail_under, derive_seed, expand, load_run_config
from voxbench.orchestrator.config import env_overrides
from voxbench.records.seeds import CONVERSATION, conversation_seed
from voxbench.scenarios import load_dataset


def test_precedence_yaml_env_cli(tmp_path: Path) -> None:
    y = tmp_path / "c.yaml"
    y.write_text("trials: 2\nconcurrency: 3\nseed: 1\nvalidation: {max_attempts: 5}\n")
    env = {"VOXBENCH_CONCURRENCY": "4", "VOXBENCH_SEED": "9", "VOXBENCH_VALIDATION__MAX_ATTEMPTS": "2"}
    cfg = load_run_config(y, {"seed": 7, "trials": None}, environ=env)
    assert cfg.trials == 2  # YAML (CLI flag absent)
    assert cfg.concurrency == 4  # env beats YAML
    assert cfg.seed == 7  # CLI beats env
    assert cfg.validation.max_attempts == 2  # nested env
    assert cfg.validation.allowed_end_reasons  # untouched nested defaults survive the merge


def test_env_ignores_foreign_voxbench_vars() -> None:
    assert env_overrides({"VOXBENCH_EVA_DATA": "/x", "VOXBENCH_DOMAINS": "[airline]"}) == {
        "domains": ["airline"]
    }


def test_bad_values_fail_loudly(tmp_path: Path) -> None:
    with pytest.raises(ValidationError):
        load_run_config(None, {"trials": 0}, environ={})
    with pytest.raises(ValidationError):
        load_run_config(None, {"no_such_field": 1}, environ={})


def test_expand_and_stable_seeds() -> None:
    ds = load_dataset(None)
    cfg = load_run_config(
        None, {"trials": 2, "conditions": {"clean": {}, "noisy": {"base": "noise"}}}, environ={}
    )
    specs = expand(cfg, ds)
    assert len(specs) == len(ds.domains["airline"].scenarios) * 2 * 2
    assert len({s.conversation_id for s in specs}) == len(specs)
    assert len({s.base_seed for s in specs}) == len(specs)
    again = expand(cfg, ds)
    assert [s.base_seed for s in specs] == [s.base_seed for s in again]
    assert specs[0].base_seed == conversation_seed(0, "airline", specs[0].scenario_id, 0, "clean")
    assert specs[0].base_seed == derive_seed(CONVERSATION, 0, "airline", specs[0].scenario_id, 0, "clean")
    # A regenerated attempt must not replay the same randomness.
    assert specs[0].attempt_seed(1) != specs[0].attempt_seed(0) == specs[0].base_seed
    other = expand(load_run_config(None, {"seed": 1}, environ={}), ds)
    assert other[0].base_seed != specs[0].base_seed


def test_scenario_filter_and_unknown_ids() -> None:
    ds = load_dataset(None)
    cfg = load_run_config(None, {"scenarios": ["bb.1", "airline/bb.3"]}, environ={})
    assert [s.scenario_id for s in expand(cfg, ds)] == ["bb.1", "bb.3"]
    with pytest.raises(ValueError, match="nope"):
        expand(load_run_config(None, {"scenarios": ["nope"]}, environ={}), ds)


def test_fail_under() -> None:
    summary = {
        "completed_rate": 0.8,
        "pacing": {"late_chunks": 0},
        "metrics": {"overall": {"EVA-A_pass@1": 0.4}},
    }
    assert check_fail_under(summary, {"completed_rate": 0.8}) == []
    assert check_fail_under(summary, {"completed_rate": 0.9}) == ["completed_rate=0.8 < 0.9"]
    assert check_fail_under(summary, {"EVA-A_pass@1": 0.5}) == ["EVA-A_pass@1=0.4 < 0.5"]
    assert check_fail_under(summary, {"metrics.overall.EVA-A_pass@1": 0.3}) == []
    assert check_fail_under(summary, {"typo": 0.1}) == ["typo: not in the summary"]


def test_builtin_default_run_is_airline_and_filters_reach_other_domains() -> None:
    ds = load_dataset(None)
    assert {"airline", "itsm", "medical_hr"} <= set(ds.domains)
    default = expand(load_run_config(None, {}, environ={}), ds)
    assert {s.domain for s in default} == {"airline"}
    itsm = expand(load_run_config(None, {"domains": ["itsm"]}, environ={}), ds)
    assert [s.scenario_id for s in itsm] == ["it.1", "it.2", "it.3"]
    picked = expand(load_run_config(None, {"scenarios": ["hr.2", "bb.1"]}, environ={}), ds)
    assert sorted(s.scenario_id for s in picked) == ["bb.1", "hr.2"]


def test_fail_under_names_a_metric_as_the_summary_nests_it() -> None:
    """The run summary nests pass@1 as ``metrics.overall_scores.<name>.mean`` with its CI beside
    it; a user names it by a dotted suffix or by the metric alone (its mean)."""
    summary = {
        "metrics": {
            "overall_scores": {
                "EVA-A_pass": {"mean": 0.4, "ci_low": 0.1, "ci_high": 0.7},
                "EVA-X_pass": {"mean": 0.9},
            },
            "per_domain": {"airline": {"EVA-X_pass": {"mean": 0.2}}},
        }
    }
    assert check_fail_under(summary, {"EVA-A_pass.mean": 0.3}) == []
    assert check_fail_under(summary, {"EVA-A_pass": 0.5}) == ["EVA-A_pass=0.4 < 0.5"]
    assert check_fail_under(summary, {"overall_scores.EVA-X_pass": 0.5}) == []
    problems = check_fail_under(summary, {"EVA-X_pass": 0.5})
    assert problems and problems[0].startswith("EVA-X_pass: ambiguous key")
