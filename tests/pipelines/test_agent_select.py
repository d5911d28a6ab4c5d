"""Choosing the agent by profile: unknown names and missing keys fail before any call."""

from __future__ import annotations

from pathlib import Path

import pytest

from voxbench.cli.main import main
from voxbench.pipelines.agent.selection import canonical_name, local_llm_config, resolve_agent


def test_aliases_and_local_default() -> None:
    assert canonical_name(None) == canonical_name("offline-default") == "cascade-local"
    prof = resolve_agent("offline-default")
    cfg = local_llm_config(prof)
    assert cfg is not None and cfg.kind == "local"
    assert local_llm_config(resolve_agent("cascade-openai-compatible")) is None


def test_run_refuses_a_profile_whose_key_is_missing_before_any_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    out = tmp_path / "run"
    assert main(["run", "--agent", "s2s-openai-realtime", "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "OPENAI_API_KEY is not set" in err[0]
    assert not (out / "records").exists()


def test_call_refuses_an_unknown_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(
        [
            "call",
            "--data",
            "x",
            "--domain",
            "airline",
            "--scenario",
            "bb.1",
            "--agent",
            "nope",
            "--out",
            str(tmp_path),
        ]
    )
    assert rc == 2
    assert "unknown agent profile 'nope'" in capsys.readouterr().err
