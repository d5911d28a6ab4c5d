"""`voxbench experiment` without --agent uses the live offline stack, as `voxbench run
--offline-default` does; scripted stays an explicit choice."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from voxbench.cli.experiment import experiment_base_config
from voxbench.cli.main import build_parser
from voxbench.cli.run import OFFLINE_DEFAULT_CALL
from voxbench.pipelines.agent.profiles import AgentProfile
from voxbench.pipelines.call.spec import ScriptedAgent
from voxbench.pipelines.caller.registry import DEFAULT_CALLER
from voxbench.pipelines.config import CallConfig


def _cfg(argv: list[str]):  # type: ignore[no-untyped-def]
    return experiment_base_config(
        build_parser().parse_args(["experiment", "--conditions", "clean,noise", *argv])
    )


def test_no_agent_means_the_offline_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOXBENCH_AGENT", raising=False)
    cfg = _cfg([])
    assert isinstance(cfg.agent, AgentProfile) and cfg.agent.name == "cascade-local"
    assert cfg.call == CallConfig.model_validate(OFFLINE_DEFAULT_CALL)
    assert cfg.resolved_conversation_fn() == "live"


def test_explicit_choices_are_kept(tmp_path: Path) -> None:
    assert _cfg(["--agent", "scripted"]).resolved_conversation_fn() == "scripted"
    y = tmp_path / "c.yaml"
    y.write_text(yaml.safe_dump({"agent": {"profile": "cascade-local-0.5b"}}))
    agent = _cfg(["--config", str(y)]).agent
    assert isinstance(agent, AgentProfile) and agent.name == "cascade-local-0.5b"
    y.write_text(
        yaml.safe_dump({"conversation_fn": "tests.orchestrator.perturbed_scripted:perturbed_scripted"})
    )
    cfg = _cfg(["--config", str(y)])
    assert isinstance(cfg.agent, ScriptedAgent)  # a custom conversation fn: agent untouched


def _run_cfg(argv: list[str]):  # type: ignore[no-untyped-def]
    from voxbench.cli.run import cli_overrides
    from voxbench.orchestrator import load_run_config

    args = build_parser().parse_args(["run", *argv])
    return load_run_config(args.config, cli_overrides(args))


def test_a_live_run_naming_no_caller_gets_the_goal_caller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VOXBENCH_SIMULATOR__KIND", raising=False)
    monkeypatch.delenv("VOXBENCH_AGENT", raising=False)
    assert _cfg([]).simulator.kind == "goal"  # experiment's offline stack
    assert _run_cfg(["--offline-default"]).simulator.kind == "goal"
    assert _run_cfg(["--offline-default", "--simulator", "trace"]).simulator.kind == "trace"
    # the one default, whoever reads the config (the scripted agent runs no caller: unused)
    assert _run_cfg(["--agent", "scripted"]).simulator.kind == DEFAULT_CALLER == "goal"
    y = tmp_path / "c.yaml"
    y.write_text(yaml.safe_dump({"simulator": {"kind": "llm"}}))
    assert _run_cfg(["--offline-default", "--config", str(y)]).simulator.kind == "llm"
