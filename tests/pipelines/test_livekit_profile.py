"""The ``livekit`` profile section: YAML, relative agent files, and what `agents check` says.

Needs no livekit-agents: profiles load, list and preflight without the extra (the CI test of
a whole call is tests/pipelines/test_livekit_agent.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from voxbench.pipelines.agent.livekit_config import LiveKitAgentConfig
from voxbench.pipelines.agent.profiles import (
    ProfileUnavailable,
    _importable,
    missing,
    preflight,
    profiles_from_yaml,
)

HAVE_LIVEKIT = _importable("livekit.agents")


def _yaml(tmp_path: Path, agent: str) -> Path:
    path = tmp_path / "profiles.yaml"
    path.write_text(
        f"my-lk:\n  architecture: livekit\n  livekit:\n    agent: {agent}\n    session_options: {{max_tool_steps: 4}}\n",
        encoding="utf-8",
    )
    return path


def test_relative_agent_file_is_found_next_to_the_profiles_file(tmp_path: Path) -> None:
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "agent.py").write_text("def build():\n    return None\n", encoding="utf-8")
    prof = profiles_from_yaml(_yaml(tmp_path, "bot/agent.py:build"))["my-lk"]
    assert prof.livekit is not None
    assert prof.livekit.agent == f"{(tmp_path / 'bot' / 'agent.py').resolve()}:build"
    assert prof.livekit.session_options == {"max_tool_steps": 4}
    info = prof.info()
    assert info.architecture == "livekit" and info.external is not None and info.external.vendor == "livekit"
    gaps = [r.problem for r in missing(prof)]
    assert not any("agent file" in g for g in gaps)
    assert any("livekit-agents is not installed" in g for g in gaps) == (not HAVE_LIVEKIT)


def test_check_names_the_missing_agent_module(tmp_path: Path) -> None:
    prof = profiles_from_yaml(_yaml(tmp_path, "no_such_team_pkg.agent:build"))["my-lk"]
    with pytest.raises(ProfileUnavailable) as err:
        preflight(prof)
    msg = str(err.value)
    assert "agent module no_such_team_pkg.agent is not importable" in msg
    assert ("livekit-agents is not installed" in msg) == (not HAVE_LIVEKIT)
    assert ('pip install "voxbench[livekit]"' in msg) == (not HAVE_LIVEKIT)


def test_check_names_a_missing_agent_file(tmp_path: Path) -> None:
    prof = profiles_from_yaml(_yaml(tmp_path, "gone.py:build"))["my-lk"]
    assert any(f"agent file {tmp_path.resolve() / 'gone.py'} not found" in r.problem for r in missing(prof))


@pytest.mark.parametrize("bad", ["agent", "mod:", ":build", "mod:not-a-name"])
def test_bad_agent_target_is_a_clear_error(bad: str) -> None:
    with pytest.raises(ValueError, match="module:factory"):
        LiveKitAgentConfig(agent=bad)
