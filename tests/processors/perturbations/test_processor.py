"""The thin pipecat wrapper: audio frames perturbed, everything else passed through."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pipecat")

from pipecat.frames.frames import (
    InputAudioRawFrame,
    OutputAudioRawFrame,
    TextFrame,
    TTSAudioRawFrame,
)
from pipecat.tests.utils import run_test

from voxbench.processors.perturbations import PerturbationProcessor, resolve_condition
from voxbench.processors.perturbations.noise import speech_like

SR = 16000


def _pcm(seconds: float = 0.2, seed: int = 0) -> bytes:
    x = speech_like(SR, seconds, np.random.default_rng(seed), pause_fraction=0.0)
    return (x * 32768).astype("<i2").tobytes()


async def test_non_audio_frames_pass_through_unchanged() -> None:
    proc = PerturbationProcessor(resolve_condition("telephony"), seed=1)
    text = TextFrame(text="hello")
    mic = InputAudioRawFrame(audio=_pcm(), sample_rate=SR, num_channels=1)
    mic_bytes = mic.audio
    # InputAudioRawFrame is a system frame, so pipecat delivers it ahead of the text
    down, _ = await run_test(
        proc, frames_to_send=[text, mic], expected_down_frames=[InputAudioRawFrame, TextFrame]
    )
    assert down[0].audio == mic_bytes  # input audio is not the simulator's outgoing audio
    assert down[1].text == "hello"
    assert proc.summary()["frames_perturbed"] == 0


async def test_output_audio_is_perturbed_and_summarised() -> None:
    cond = resolve_condition("bad_line")
    proc = PerturbationProcessor(cond, seed=cond.seed("airline_001", 0))
    clean = [_pcm(0.2, seed=i) for i in range(10)]
    frames = [TTSAudioRawFrame(audio=b, sample_rate=SR, num_channels=1, context_id="c1") for b in clean[:5]]
    frames += [OutputAudioRawFrame(audio=b, sample_rate=SR, num_channels=1) for b in clean[5:]]
    down, _ = await run_test(
        proc, frames_to_send=frames, expected_down_frames=[TTSAudioRawFrame] * 5 + [OutputAudioRawFrame] * 5
    )
    for got, orig in zip(down, clean, strict=True):
        assert len(got.audio) == len(orig) and got.audio != orig
        assert got.metadata[PerturbationProcessor.METADATA_KEY] == "bad_line"
    assert down[0].context_id == "c1"
    s = proc.summary()
    assert s["frames_perturbed"] == 10 and s["condition"]["name"] == "bad_line"
    assert s["seed"] == cond.seed("airline_001", 0)
    stages = s["chains"][0]["stages"]
    assert [st["kind"] for st in stages] == ["telephony", "packet_loss"]
    assert stages[1]["frames"] == 100


async def test_clean_condition_is_a_pure_pass_through() -> None:
    proc = PerturbationProcessor(resolve_condition("clean"), seed=0)
    b = _pcm()
    down, _ = await run_test(
        proc,
        frames_to_send=[OutputAudioRawFrame(audio=b, sample_rate=SR, num_channels=1)],
        expected_down_frames=[OutputAudioRawFrame],
    )
    assert down[0].audio == b
    assert proc.summary()["chains"] == []


async def test_same_seed_same_audio_across_frame_sizes() -> None:
    cond = resolve_condition("pink_noise")
    pcm = _pcm(1.0)
    outs = []
    for frame_bytes in (640, 1920):
        proc = PerturbationProcessor(cond, seed=7)
        frames = [
            OutputAudioRawFrame(audio=pcm[i : i + frame_bytes], sample_rate=SR, num_channels=1)
            for i in range(0, len(pcm), frame_bytes)
        ]
        down, _ = await run_test(
            proc, frames_to_send=frames, expected_down_frames=[OutputAudioRawFrame] * len(frames)
        )
        outs.append(b"".join(f.audio for f in down))
    assert outs[0] == outs[1]
