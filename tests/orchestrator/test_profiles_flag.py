"""``--profiles FILE`` on `voxbench run` and `voxbench experiment`, and ``agent.profiles`` in the
run YAML, reach the resolved agent the way ``--profiles`` does on `call`, `talk` and `agents`."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from voxbench.cli.experiment import experiment_base_config
from voxbench.cli.main import build_parser
from voxbench.cli.run import cli_overrides
from voxbench.orchestrator import load_run_config
from voxbench.pipelines.agent.profiles import AgentProfile


def _run(argv: list[str]):  # type: ignore[no-untyped-def]
    args = build_parser().parse_args(["run", *argv])
    return load_run_config(args.config, cli_overrides(args))


def _experiment(argv: list[str]):  # type: ignore[no-untyped-def]
    return experiment_base_config(build_parser().parse_args(["experiment", "--conditions", "clean", *argv]))


@pytest.fixture
def profiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.delenv("VOXBENCH_AGENTS", raising=False)
    monkeypatch.delenv("VOXBENCH_AGENT", raising=False)
    a = tmp_path / "a.yaml"
    a.write_text(
        "my-bot:\n  architecture: external\n  external: {url: 'ws://127.0.0.1:9/ws', protocol: twilio}\n"
    )
    b = tmp_path / "b.yaml"
    b.write_text("my-bot-2:\n  base: my-bot\n  external: {url: 'ws://127.0.0.1:10/ws'}\n")
    return a, b


@pytest.mark.parametrize("load", [_run, _experiment])
def test_profiles_flag_reaches_the_agent(load, profiles: tuple[Path, Path]) -> None:  # type: ignore[no-untyped-def]
    a, b = profiles
    agent = load(["--agent", "my-bot", "--profiles", str(a)]).agent
    assert isinstance(agent, AgentProfile) and agent.name == "my-bot"
    assert agent.external is not None and agent.external.protocol == "twilio"
    # repeatable, later files see earlier ones (base:) as in `voxbench agents --profiles`
    agent = load(["--agent", "my-bot-2", "--profiles", str(a), "--profiles", str(b)]).agent
    assert isinstance(agent, AgentProfile) and agent.external is not None
    assert agent.external.url == "ws://127.0.0.1:10/ws" and agent.external.protocol == "twilio"
    assert load(["--agent", "my-bot", "--profiles", str(a)]).resolved_conversation_fn() == "live"


@pytest.mark.parametrize("load", [_run, _experiment])
def test_the_run_yaml_takes_the_same_key(load, profiles: tuple[Path, Path], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    a, b = profiles
    cfg = tmp_path / "run.yaml"
    cfg.write_text(yaml.safe_dump({"agent": {"profile": "my-bot", "profiles": [str(a)]}}))
    agent = load(["--config", str(cfg)]).agent
    assert isinstance(agent, AgentProfile) and agent.name == "my-bot"
    # files add up across layers: the YAML's file and the flag's, the flag naming the agent
    agent = load(["--config", str(cfg), "--agent", "my-bot-2", "--profiles", str(b)]).agent
    assert isinstance(agent, AgentProfile) and agent.name == "my-bot-2"
    # a bare name in the YAML with the files on the command line
    cfg.write_text(yaml.safe_dump({"agent": "my-bot"}))
    agent = load(["--config", str(cfg), "--profiles", str(a)]).agent
    assert isinstance(agent, AgentProfile) and agent.name == "my-bot"


def test_profile_files_naming_no_agent_are_an_error(profiles: tuple[Path, Path]) -> None:
    a, _ = profiles
    with pytest.raises(ValidationError, match="no profile named"):
        _run(["--profiles", str(a)])
    with pytest.raises(ValidationError, match="unknown agent profile 'my-bot'"):
        _run(["--agent", "my-bot"])  # the file is needed
