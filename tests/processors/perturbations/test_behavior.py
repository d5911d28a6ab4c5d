"""Caller behaviour: config merging, text ops, and the send-time engine (pure numpy)."""

from __future__ import annotations

import random

import numpy as np

from voxbench.processors.perturbations import (
    BackchannelConfig,
    BargeInPoint,
    CallerBehavior,
    PauseConfig,
    behave_lines,
    resolve_condition,
)
from voxbench.processors.perturbations.behavior import FORGOT_LINE
from voxbench.processors.perturbations.live import Act, CallerAudio

SR = 16000
CHUNK = 320  # 20 ms


def _tone(seconds: float) -> np.ndarray:
    t = np.arange(int(seconds * SR)) / SR
    return (8000 * np.sin(2 * np.pi * 200 * t)).astype(np.int16)


def _run(engine: CallerAudio, signal: np.ndarray, clock: list[float]) -> np.ndarray:
    out = []
    for i in range(0, len(signal), CHUNK):
        clock[0] = i / SR
        out.append(engine(signal[i : i + CHUNK]))
    return np.concatenate(out)


def test_conditions_compose_behaviour() -> None:
    c = resolve_condition("noise+backchannel+barge_in")
    assert c.behavior.backchannel.probability == 0.6 and len(c.behavior.barge_in) == 2
    assert not c.is_clean and not resolve_condition("forgetful").is_clean
    assert resolve_condition("clean").behavior.is_default


def test_lines_disfluent_and_forgetful_are_seeded() -> None:
    lines = [
        "Hi, I'd like to add a checked bag to my flight.",
        "It's Q X 7 T 4 M, and the name is Whitfield.",
    ]
    beh = CallerBehavior(persona="forgetful", disfluency=resolve_condition("disfluent").behavior.disfluency)
    a = behave_lines(lines, beh, random.Random(3))
    assert a == behave_lines(lines, beh, random.Random(3))
    assert FORGOT_LINE in a and a.index(FORGOT_LINE) == 1  # a stall before the line with the code
    assert behave_lines(lines, CallerBehavior(), random.Random(3)) == lines


def test_pause_delays_the_rest_of_the_line_and_is_absorbed_after_it() -> None:
    beh = CallerBehavior(
        pauses=PauseConfig(probability=1.0, after_ms=(500.0, 500.0), duration_ms=(800.0, 800.0))
    )
    acts: list[Act] = []
    clock = [0.0]
    eng = CallerAudio(beh, SR, 1, now=lambda: clock[0], on_act=acts.append)
    line = np.concatenate([np.zeros(SR // 2, np.int16), _tone(1.5), np.zeros(3 * SR, np.int16)])
    out = _run(eng, line, clock)
    loud = np.abs(out.astype(np.int32)).reshape(-1, CHUNK).max(axis=1) > 1000
    # speech 0.5-1.0 s, silence for 0.8 s, then the remaining 1.0 s of the line
    assert loud[int(0.6 * 50)] and not loud[int(1.3 * 50)] and loud[int(2.0 * 50)] and loud[int(2.7 * 50)]
    assert not loud[int(3.0 * 50) :].any()
    assert [a.kind for a in acts] == ["pause"] and abs(acts[0].duration_s - 0.8) < 0.03
    assert int(np.count_nonzero(loud)) == 75  # 1.5 s of speech, nothing lost
    assert eng.summary()["pause_s"] == 0.8


def test_acts_fire_during_agent_speech_on_the_right_turn() -> None:
    beh = CallerBehavior(
        barge_in=(BargeInPoint(turn=1, after_ms=300.0, text="wait"),),
        backchannel=BackchannelConfig(probability=1.0, min_agent_speech_ms=200.0, texts=("mm-hmm",)),
    )
    acts: list[Act] = []
    clock = [0.0]
    clips = {"wait": _tone(0.3), "mm-hmm": _tone(0.2)}
    eng = CallerAudio(beh, SR, 5, clips=clips, now=lambda: clock[0], on_act=acts.append)
    silence = np.zeros(4 * SR, np.int16)
    eng.on_agent_speech("onset", 0.0)  # greeting: turn 0
    _run(eng, silence, clock)
    assert [a.kind for a in acts] == ["backchannel"] and acts[0].agent_turn == 0 and acts[0].t >= 0.2
    eng.on_agent_speech("offset", 3.9)
    eng.on_agent_speech("onset", 4.0)  # the caller has not spoken: still turn 0, nothing new
    assert eng.agent_turn == 0
    _run(eng, _tone(1.0), clock)  # the caller says a line
    eng.on_agent_speech("onset", 5.0)  # turn 1
    out = []
    for i in range(0, 2 * SR, CHUNK):
        clock[0] = 5.0 + i / SR
        out.append(eng(np.zeros(CHUNK, np.int16)))
    kinds = [(a.kind, a.agent_turn) for a in acts]
    assert ("barge_in", 1) in kinds
    barge = next(a for a in acts if a.kind == "barge_in")
    assert 5.3 <= barge.t < 5.35 and barge.agent_speaking
    assert np.abs(np.concatenate(out)).max() > 1000


def test_vocal_tics_and_side_speech_fire_in_speech_and_in_silence() -> None:
    from voxbench.processors.perturbations import SideSpeechConfig, VocalTicConfig

    beh = CallerBehavior(
        vocal_tic=VocalTicConfig(
            probability=1.0, silence_probability=1.0, min_agent_speech_ms=200.0, texts=("um",)
        ),
        side_speech=SideSpeechConfig(silence_probability=1.0, texts=("hold on",)),
    )
    assert beh.injects_audio and set(beh.clip_texts()) == {"um", "hold on"}
    acts: list[Act] = []
    clock = [0.0]
    clips = {"um": _tone(0.2), "hold on": _tone(0.5)}
    eng = CallerAudio(beh, SR, 11, clips=clips, now=lambda: clock[0], on_act=acts.append)
    eng.on_agent_speech("onset", 0.0)  # turn 0: the agent speaks 0-3 s, then falls silent
    _run(eng, np.zeros(3 * SR, np.int16), clock)
    assert [(a.kind, a.agent_speaking) for a in acts] == [("vocal_tic", True)]
    assert acts[0].t >= 0.2 and acts[0].agent_turn == 0
    eng.on_agent_speech("offset", 3.0)
    out = []
    for i in range(0, 3 * SR, CHUNK):
        clock[0] = 3.0 + i / SR
        out.append(eng(np.zeros(CHUNK, np.int16)))
    silent = [a for a in acts if not a.agent_speaking]
    assert sorted(a.kind for a in silent) == ["side_speech", "vocal_tic"]
    assert all(3.15 <= a.t < 4.5 for a in silent)  # after the agent fell silent, one after the other
    assert np.abs(np.concatenate(out)).max() > 1000


def test_caller_line_cancels_acts_planned_for_the_silence() -> None:
    from voxbench.processors.perturbations import VocalTicConfig

    beh = CallerBehavior(vocal_tic=VocalTicConfig(silence_probability=1.0, texts=("um",)))
    acts: list[Act] = []
    clock = [0.0]
    eng = CallerAudio(beh, SR, 2, clips={"um": _tone(0.2)}, now=lambda: clock[0], on_act=acts.append)
    eng.on_agent_speech("onset", 0.0)
    eng.on_agent_speech("offset", 0.0)
    _run(eng, _tone(1.0), clock)  # the caller answers at once: its line comes first
    assert acts == [] and eng.summary()["planned_not_fired"] == 1


def test_interaction_panel_preset_exercises_every_event_kind() -> None:
    b = resolve_condition("interaction_panel").behavior
    assert len(b.barge_in) >= 5 and b.backchannel.probability > 0
    assert b.side_speech.probability > 0 and b.side_speech.silence_probability > 0
    assert b.vocal_tic.probability > 0 and b.vocal_tic.silence_probability > 0
