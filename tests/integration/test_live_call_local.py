"""One real offline call end to end: Piper caller (trace replay) -> whisper + local LLM + Piper agent.

Slow (model loads, real-time audio, a CPU LLM). CI runs it on the built-in toy domain:
the agent's prompt there is short, so the LLM warm-up (prefill of policy and tool schemas,
22 tokens/s on one llama.cpp thread here: ~125 s for airline's ~2,800 tokens) does not
dominate the suite. The airline call (EVA's data) runs locally with `make test-all`. Checks the recording itself: both
channels carry speech (measured on the WAVs with soundfile), the agent's audio
transcribes to a non-empty reply, and the record is complete.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

pytest.importorskip("faster_whisper")
pytest.importorskip("piper")
pytest.importorskip("xllamacpp")

from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.config import CallConfig, LimitsConfig, SimulatorConfig, TraceSimConfig
from voxbench.pipelines.local_stack import local_agent, local_simulator, start_llm_server
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.services.stt import WhisperTranscriber
from voxbench.processors.speech_onset import detect_segments
from voxbench.records import Speech, Transcript, Utterance, read_record
from voxbench.scenarios import load_dataset
from voxbench.scenarios.loader import toy_dataset_dir


@pytest.mark.slow
@pytest.mark.ci_slow
@pytest.mark.timeout(600)
async def test_one_real_offline_call_toy(tmp_path: Path) -> None:
    dd = load_dataset(toy_dataset_dir(), ["toy"]).domains["toy"]
    await _one_real_call(CallScenario.from_domain(dd, "ty.1"), tmp_path)


@pytest.mark.slow
@pytest.mark.timeout(900)
async def test_one_real_offline_call_airline(eva_data: Path, tmp_path: Path) -> None:
    dd = load_dataset(eva_data, ["airline"]).domains["airline"]
    await _one_real_call(CallScenario.from_domain(dd, "7.4.1"), tmp_path)


async def _one_real_call(call: CallScenario, tmp_path: Path) -> None:
    cfg = CallConfig(
        simulator=SimulatorConfig(kind="trace", trace=TraceSimConfig(max_lines=2, turn_gap_s=2.0)),
        limits=LimitsConfig(time_limit_s=240, inactivity_s=90),
    )
    server = start_llm_server()
    try:
        record = await run_call(call, cfg, local_agent(server), local_simulator("trace"), tmp_path)
    finally:
        server.stop()
    assert record.status == "completed", record.error
    b = read_record(tmp_path)

    # both channels have speech, measured on the audio files
    for ch in ("user", "agent"):
        pcm, sr = sf.read(tmp_path / f"{ch}.wav", dtype="int16")
        segs = detect_segments(np.asarray(pcm), sr)
        assert sum(b - a for a, b in segs) > 1.0, f"{ch}: {segs}"
    mix, _ = sf.read(tmp_path / "mix.wav", dtype="int16")
    assert mix.shape[1] == 2

    # the agent said something intelligible after the greeting
    agent_pcm, sr = sf.read(tmp_path / "agent.wav", dtype="float32")
    text = WhisperTranscriber().transcribe(np.asarray(agent_pcm), sr)
    assert text.strip(), "agent audio transcribed to nothing"

    ev = b.events
    assert [u.text for u in ev if isinstance(u, Utterance)][:1] == [
        str(call.resolver.resolve(call.scenario.starting_utterance()))
    ]
    assert any(isinstance(e, Transcript) and e.side == "agent" and e.text.strip() for e in ev)
    assert any(isinstance(e, Speech) and e.channel == "agent" for e in ev)
    assert b.final_db is not None and b.initial_db is not None
