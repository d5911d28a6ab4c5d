"""A perturbed call over the real loopback WebSocket with fake services, on the virtual clock.

accent+noise (synthetic babble, so no Piper is needed) plus caller behaviour: the record carries
the condition, seed, achieved SNR and voice id; the caller's WAV has a noise bed between turns
that the clean call does not; caller speech is stamped from the clean reference; acts are events.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from tests.fakes.services import FakeLLM, FakeSTT, FakeTTS, Reply, buzz
from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.call.runner import run_call
from voxbench.pipelines.caller.side import CallPerturbation
from voxbench.pipelines.caller.trace_simulator import reference_user_lines
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
from voxbench.processors.perturbations import (
    BackchannelConfig,
    BargeInPoint,
    CallerBehavior,
    NoiseOp,
    resolve_condition,
)
from voxbench.processors.speech_onset import detect_segments
from voxbench.records import CallerAct, ServicePart, SimulatorInfo, Speech, Utterance, read_record
from voxbench.scenarios import load_dataset
from voxbench.transports.virtual_loop import run_virtual

SCENARIO = "bb.1"


def fast_config() -> CallConfig:
    vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
    # the agent's energy gate would hear the noise bed as endless speech; a loudness floor
    # between the bed (~-37 LUFS) and the caller's voice (~-27) keeps it usable
    agent_vad = vad.model_copy(update={"min_volume": 0.79})
    return CallConfig(
        agent=AgentConfig(vad=agent_vad, turn=TurnConfig(smart_turn=False, speech_timeout_s=0.2)),
        simulator=SimulatorConfig(
            kind="trace", vad=vad, trace=TraceSimConfig(turn_gap_s=0.8, no_greeting_s=3)
        ),
        limits=LimitsConfig(time_limit_s=60, inactivity_s=10, drain_s=2),
        post_call_transcribe_agent=False,  # fake TTS is a buzz: nothing to transcribe
    )


def call_input() -> CallScenario:
    dd = load_dataset().domains["airline"]
    return CallScenario.from_domain(dd, SCENARIO)


def agent_services(lines: list[str]) -> AgentServices:
    # long-ish replies (FakeTTS: 20 ms per character, up to 2.5 s) so acts fit inside them
    long = "Certainly, I can help you with that today, let me just pull up the details for you now."
    script = [Reply(long), Reply(long), Reply(long), Reply("Goodbye and thank you for calling.")] * 2
    return AgentServices(stt=FakeSTT(lines * 3), llm=FakeLLM(script), tts=FakeTTS(f0=120.0))


def accent_noise():
    cond = resolve_condition("accent+noise")
    noise = NoiseOp(snr_db=10.0, babble="synthetic", bed_seconds=8.0)
    return cond.model_copy(update={"ops": (noise,)})


def _floor_db(user: np.ndarray, clean: np.ndarray, sr: int) -> float:
    """RMS of the caller's channel where the clean caller is silent (between turns), in dBFS."""
    win = sr // 50
    n = min(user.size, clean.size) // win
    u = user[: n * win].astype(np.float64).reshape(n, win)
    c = clean[: n * win].astype(np.float64).reshape(n, win)
    quiet = np.sqrt(np.mean(c**2, axis=1)) < 3.0  # digital silence in the clean reference
    quiet[: int(1.0 * 50)] = False  # skip the first second (connection)
    assert quiet.sum() > 50, "expected gaps between the caller's turns"
    rms = float(np.sqrt(np.mean(u[quiet] ** 2)))
    return 20 * np.log10(max(rms, 1e-9) / 32768.0)


def test_accent_noise_visible_in_record_and_audible(tmp_path: Path) -> None:
    call = call_input()
    lines = reference_user_lines(call.scenario, call.resolver)
    cond = accent_noise()
    pert = CallPerturbation(cond, cond.seed(SCENARIO, 0))
    sim = SimulatorServices(
        tts=FakeTTS(f0=220.0), info=SimulatorInfo(tts=ServicePart(vendor="fake", model="fake-accent"))
    )
    record = run_virtual(
        run_call(call, fast_config(), agent_services(lines), sim, tmp_path / "noisy", perturbation=pert)
    )
    assert record.status == "completed", record.error

    b = read_record(tmp_path / "noisy")
    p = b.record.perturbation
    assert b.record.condition == "accent+noise"
    assert p["condition"]["name"] == "accent+noise" and p["seed"] == pert.seed
    assert p["voice_id"] == "piper:joe@fr"
    assert p["achieved_snr_db"] is not None and abs(p["achieved_snr_db"] - 10.0) < 2.0
    assert p["applied_at"] == "mixer" and p["summary"]["frames_perturbed"] > 100
    assert b.record.audio is not None and b.record.audio.user_clean == "user_clean.wav"

    # the caller's speech is stamped from the clean reference: one onset per line, not a
    # noise bed that never ends
    onsets = [e for e in b.events if isinstance(e, Speech) and e.channel == "user" and e.state == "onset"]
    assert len(onsets) == len(lines)

    user, sr = sf.read(tmp_path / "noisy" / "user.wav", dtype="int16")
    clean, _ = sf.read(tmp_path / "noisy" / "user_clean.wav", dtype="int16")
    assert len(detect_segments(np.asarray(clean), sr)) == len(lines)
    noisy_floor = _floor_db(np.asarray(user), np.asarray(clean), sr)

    # the same call, clean: the floor between turns is digital silence
    record = run_virtual(
        run_call(
            call,
            fast_config(),
            agent_services(lines),
            SimulatorServices(tts=FakeTTS(f0=220.0)),
            tmp_path / "clean",
        )
    )
    assert record.status == "completed" and record.perturbation == {}
    cu, _ = sf.read(tmp_path / "clean" / "user.wav", dtype="int16")
    clean_floor = _floor_db(np.asarray(cu), np.asarray(cu), sr)
    assert noisy_floor > -45.0, noisy_floor
    assert noisy_floor > clean_floor + 40.0, (noisy_floor, clean_floor)


def test_caller_behaviour_acts_are_events(tmp_path: Path) -> None:
    call = call_input()
    lines = reference_user_lines(call.scenario, call.resolver)
    cond = resolve_condition("clean").model_copy(
        update={
            "name": "acts",
            "behavior": CallerBehavior(
                barge_in=(BargeInPoint(turn=2, after_ms=600.0, text="Sorry, one thing."),),
                backchannel=BackchannelConfig(probability=1.0, min_agent_speech_ms=400.0),
            ),
        }
    )

    def clip(text: str, sr: int) -> np.ndarray:
        return buzz(0.4, sr, f0=300.0)

    pert = CallPerturbation(cond, 7, clip_synth=clip)
    sim = SimulatorServices(tts=FakeTTS(f0=220.0))
    record = run_virtual(
        run_call(call, fast_config(), agent_services(lines), sim, tmp_path, perturbation=pert)
    )
    assert record.status == "completed", record.error
    b = read_record(tmp_path)
    # the behaviour's acts; the policy's own acts (its lines, each with the rule that decided
    # it) are in the same caller_act trail
    acts = [e for e in b.events if isinstance(e, CallerAct) and not e.rule]
    kinds = {a.kind for a in acts}
    assert "backchannel" in kinds and "barge_in" in kinds, acts
    assert "reference_line" in {e.rule for e in b.events if isinstance(e, CallerAct)}
    assert all(a.agent_speaking for a in acts)
    barge = next(a for a in acts if a.kind == "barge_in")
    assert barge.agent_turn == 2 and barge.text == "Sorry, one thing."
    assert b.record.perturbation["behavior"]["acts"]["barge_in"] == 1
    # a deliberate barge-in is mixed into the caller's output, never a line the driver holds:
    # the caller's voice cuts in over the agent, and no line of it is withdrawn
    assert not any(isinstance(e, CallerAct) and e.kind == "withdrawn" for e in b.events)
    # On the virtual clock the caller sends a chunk every wire.chunk_ms exactly, and an act
    # starts with the first chunk due at or after its planned instant: the barge-in 0.6 s into
    # agent turn 2 (turn k opens at the first agent onset after the caller's k-th line).
    chunk_s = fast_config().wire.chunk_ms / 1000.0
    onsets = [e.t for e in b.events if isinstance(e, Speech) and e.channel == "agent" and e.state == "onset"]
    said = [e.t for e in b.events if isinstance(e, Utterance) and e.channel == "user"]
    turn2 = next(t for t in onsets if t > said[1])
    assert barge.t == pytest.approx(math.ceil((turn2 + 0.6) / chunk_s) * chunk_s, abs=1e-9)
    for a in acts:
        assert a.t / chunk_s == pytest.approx(round(a.t / chunk_s), abs=1e-6), a
    # every act is audible in the clean caller track where the event says it started
    clean, sr = sf.read(tmp_path / "user_clean.wav", dtype="int16")
    for a in acts:
        i = int(a.t * sr)
        seg = np.asarray(clean[i : i + int(0.3 * sr)], dtype=np.float64)
        assert np.sqrt(np.mean(seg**2)) > 300, a
