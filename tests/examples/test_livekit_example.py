"""A LiveKit Agents agent benchmarked by `voxbench run --agent NAME --profiles FILE`, as a user
runs one: the run's workers load the profile, build the agent from its factory per call, score
the record (task completion from its tool calls, turn-taking from its audio).

CI: the LiveKit agent of test doubles (``tests/fakes/livekit_profile.yaml``: LiveKit's STT/LLM/
TTS base classes, no model) on EVA's public airline scenario 7.4.1, with a tone-voiced trace
caller. Slow: ``examples/livekit_agent`` itself (whisper, the embedded llama.cpp Qwen through
LiveKit's OpenAI plugin, Piper) on a built-in airline scenario with a Piper-voiced caller.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from voxbench.cli.main import main

pytest.importorskip(
    "livekit.agents", reason="livekit-agents is not installed (pip install 'voxbench[livekit]')"
)

REPO = Path(__file__).resolve().parents[2]
FAST_CALL = {
    "simulator": {
        "vad": {"engine": "energy", "start_secs": 0.1, "stop_secs": 0.25},
        "trace": {"turn_gap_s": 0.8, "no_greeting_s": 3},
    },
    "limits": {"inactivity_s": 10, "drain_s": 1},
    "post_call_transcribe_agent": False,  # the fake agent speaks a buzz: nothing to transcribe
}


def run_livekit(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    agent: str,
    profiles: Path,
    config: dict[str, Any],
    *args: str,
) -> Path:
    """`voxbench run` of one conversation; the record's folder."""
    # the run's worker processes import these sources (a worktree's too) and the test doubles
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO), str(REPO / "src")]))
    cfg = tmp_path / "run.yaml"
    cfg.write_text(yaml.safe_dump(config))
    out = tmp_path / "run"
    argv = ["run", "--config", str(cfg), "--agent", agent, "--profiles", str(profiles)]
    assert main([*argv, *args, "--out", str(out), "--no-progress"]) == 0
    # the conversation's folder (a failed attempt's is kept beside it, named so)
    (rec_dir,) = [
        d for d in (out / "records").iterdir() if d.name[0] != "." and "_failed_attempt_" not in d.name
    ]
    return rec_dir


def scored(rec_dir: Path, agent: str) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """The record (completed, a LiveKit agent), its metrics (task completion and response speed
    scored) and its events."""
    rec = json.loads((rec_dir / "record.json").read_text())
    assert rec["status"] == "completed", rec.get("error")
    assert rec["agent"]["name"] == agent and rec["agent"]["architecture"] == "livekit"
    metrics = json.loads((rec_dir / "metrics.json").read_text())["metrics"]
    assert "task_completion" in metrics and "response_speed" in metrics
    assert metrics["response_speed"]["score"] is not None  # the agent's answers were heard and timed
    events = [json.loads(line) for line in (rec_dir / "events.jsonl").read_text().splitlines() if line]
    return rec, metrics, events


def test_livekit_agent_of_test_doubles_benchmarked_by_voxbench_run(
    eva_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = {
        "time_limit_s": 90,
        "simulator": {"kind": "trace", "voice": "tone"},
        "call": FAST_CALL,
        "validation": {"validator": "builtin"},
    }
    profiles = REPO / "tests" / "fakes" / "livekit_profile.yaml"
    rec_dir = run_livekit(
        tmp_path,
        monkeypatch,
        "livekit-fakes",
        profiles,
        config,
        "--data",
        str(eva_data),
        "--scenarios",
        "7.4.1",
    )
    rec, metrics, events = scored(rec_dir, "livekit-fakes")
    # the agent's scripted lookup ran on this conversation's database and was scored from it
    calls = [e for e in events if e.get("type") == "tool_call"]
    assert [c["name"] for c in calls] == ["get_reservation"]
    assert rec["num_tool_calls"] == 1
    assert metrics["task_completion"]["score"] is not None


@pytest.mark.slow
@pytest.mark.timeout(1800)  # loads whisper, Piper, Kokoro and llama.cpp; warms the policy; a call
def test_the_example_livekit_agent_benchmarked_with_real_models(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a 1.5B model on shared CPU cores can take longer than the caller's default 45 s of
    # silence to answer: this test checks the plumbing with real models, not their speed
    config = {"time_limit_s": 300, "simulator": {"kind": "trace"}, "call": {"limits": {"inactivity_s": 150}}}
    profiles = REPO / "examples" / "livekit_agent" / "profile.yaml"
    rec_dir = run_livekit(tmp_path, monkeypatch, "livekit-local", profiles, config, "--scenarios", "bb.1")
    _, _, events = scored(rec_dir, "livekit-local")
    said = [
        e for e in events if e.get("type") == "transcript" and e.get("side") == "agent" and e.get("final")
    ]
    assert said, "the session heard none of the caller's lines"
