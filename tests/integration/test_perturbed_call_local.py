"""One real offline call under accent+noise: Piper caller with French phonemes and cafe babble ->
whisper + local LLM + Piper agent. Slow (models, real-time audio, CPU LLM).

The perturbation is visible in the record (condition, seed, achieved SNR, voice) and audible in
the audio: between the caller's turns user.wav carries the noise bed, far above the clean
reference (user_clean.wav, what the caller said before the line) in the same windows.
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
from voxbench.pipelines.caller.side import CallPerturbation
from voxbench.pipelines.config import CallConfig, LimitsConfig, SimulatorConfig, TraceSimConfig
from voxbench.pipelines.local_stack import local_agent, local_simulator, start_llm_server
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.processors.perturbations import resolve_condition
from voxbench.processors.speech_onset import detect_segments
from voxbench.records import Speech, read_record
from voxbench.scenarios import load_dataset


def _rms_db(x: np.ndarray) -> float:
    return 20 * np.log10(max(float(np.sqrt(np.mean(x.astype(np.float64) ** 2))), 1e-9) / 32768.0)


@pytest.mark.slow
@pytest.mark.timeout(900)
async def test_real_call_under_accent_noise(tmp_path: Path) -> None:
    call = CallScenario.from_domain(load_dataset().domains["airline"], "bb.1")
    cond = resolve_condition("accent+noise")
    pert = CallPerturbation(cond, cond.seed("bb.1", 0))
    cfg = CallConfig(
        simulator=SimulatorConfig(kind="trace", trace=TraceSimConfig(max_lines=2, turn_gap_s=2.0)),
        limits=LimitsConfig(time_limit_s=240, inactivity_s=90),
    )
    server = start_llm_server()
    try:
        sim = local_simulator("trace", voice_id=cond.voice_id)
        record = await run_call(call, cfg, local_agent(server), sim, tmp_path, perturbation=pert)
    finally:
        server.stop()
    assert record.status == "completed", record.error

    b = read_record(tmp_path)
    p = b.record.perturbation
    assert b.record.condition == "accent+noise" and p["seed"] == pert.seed
    assert p["voice_id"] == "piper:joe@fr" and "espeak=fr" in p["tts_voice"]
    assert b.record.simulator.tts is not None and b.record.simulator.tts.model == p["tts_voice"]
    assert p["achieved_snr_db"] is not None and abs(p["achieved_snr_db"] - 10.0) < 2.0, p["achieved_snr_db"]

    user, sr = sf.read(tmp_path / "user.wav", dtype="int16")
    clean, _ = sf.read(tmp_path / "user_clean.wav", dtype="int16")
    user, clean = np.asarray(user), np.asarray(clean)
    segs = detect_segments(clean, sr)
    assert len(segs) >= 2, segs  # both lines were spoken (stamped on the clean reference)
    onsets = [e for e in b.events if isinstance(e, Speech) and e.channel == "user" and e.state == "onset"]
    assert len(onsets) == len(segs)
    # between the two lines: noise bed in what the agent heard, digital silence in the reference.
    # The widest gap between speech segments is the agent's turn between the lines (a line can
    # itself be two segments: the French-phonemised "Hi, ..." pauses 0.3 s after "Hi").
    k = max(range(len(segs) - 1), key=lambda i: segs[i + 1][0] - segs[i][1])
    a, z = int((segs[k][1] + 0.5) * sr), int((segs[k + 1][0] - 0.3) * sr)
    assert z - a > sr // 2
    noisy, quiet = _rms_db(user[a:z]), _rms_db(clean[a:z])
    assert noisy > -50.0 and noisy - quiet > 30.0, (noisy, quiet)
