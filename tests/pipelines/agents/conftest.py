"""Shared helpers for agent-profile tests: a fast call config and the airline scenario."""

from __future__ import annotations

from pathlib import Path

import pytest

from voxbench.pipelines.config import (
    AgentConfig,
    CallConfig,
    LimitsConfig,
    SimulatorConfig,
    TraceSimConfig,
    TurnConfig,
    VADConfig,
)
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.scenarios import load_dataset

SCENARIO = "7.4.1"
FAKE_KEYS = (
    "OPENAI_API_KEY",
    "DEEPGRAM_API_KEY",
    "CARTESIA_API_KEY",
    "ELEVENLABS_API_KEY",
    "ANTHROPIC_API_KEY",
    "GOOGLE_API_KEY",
    "ULTRAVOX_API_KEY",
)


def fast_config(**kw: object) -> CallConfig:
    """Energy VAD and short gaps; generous limits (the machine is shared and slow)."""
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    kw.setdefault("post_call_transcribe_agent", False)  # fake TTS is a buzz: nothing to transcribe
    return CallConfig(
        agent=AgentConfig(vad=vad, turn=TurnConfig(smart_turn=False, speech_timeout_s=0.2)),
        simulator=SimulatorConfig(
            kind="trace", vad=vad, trace=TraceSimConfig(turn_gap_s=0.8, no_greeting_s=4)
        ),
        limits=LimitsConfig(time_limit_s=90, inactivity_s=15, drain_s=2),
        **kw,
    )


@pytest.fixture
def call(eva_data: Path) -> CallScenario:
    dd = load_dataset(eva_data, ["airline"]).domains["airline"]
    return CallScenario.from_domain(dd, SCENARIO)


@pytest.fixture
def fake_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for k in FAKE_KEYS:
        monkeypatch.setenv(k, f"fake-{k.lower()}")
