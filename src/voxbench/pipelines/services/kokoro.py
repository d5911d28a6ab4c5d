"""Local Kokoro TTS as a pipecat service: a caller voice that is not the agent's Piper joe.

The model, the voice packs and their checksums come from :mod:`voxbench.localmodels.kokoro`.
Kokoro renders 24 kHz; audio is resampled (soxr, whole sentence) to the pipeline's output rate.
Text is cut into sentences before synthesis so the first sentence can play while the next one is
still being made: Kokoro's RTF here is ~0.35 (Piper's ~0.05), so synthesising a two-sentence
caller line in one go would delay the caller's first word by a second or more. A sentence is
released when the next one will be ready before the audio released so far has played, or when
holding it longer would leave a silence over
:data:`~voxbench.records.voice.MAX_SILENCE_S`
(:mod:`voxbench.pipelines.services.playout`): a slow machine delays the line by at most that
much, and any longer pause it needs falls between two sentences, never inside one.

Voices are named ``kokoro:<voice>`` (``kokoro:jm_kumo``); :attr:`KokoroVoiceParams.voice_id` adds
the rate and phonemiser language when they differ from the defaults, for run records.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from voxbench.localmodels.kokoro import KOKORO_LANGS, KOKORO_RATE, KOKORO_VOICES
from voxbench.pipelines.services.playout import HeldPause, OpenPause, paced_chunks
from voxbench.records.voice import SENTENCE_PAUSE_S, split_sentences

KOKORO_PREFIX = "kokoro:"
KEEPALIVE_S = 1.0
"""How often (at most; a third of pipecat's idle timeout if that is shorter) a sentence still
being synthesised refreshes pipecat's audio context."""


@dataclass(frozen=True)
class KokoroVoiceParams:
    """One Kokoro voice and how it is spoken."""

    voice: str = "jm_kumo"
    speaking_rate: float = 1.0
    lang: str = "en-us"

    def __post_init__(self) -> None:
        if self.voice not in KOKORO_VOICES:
            raise ValueError(
                f"unknown Kokoro voice {self.voice!r}; Kokoro voices: "
                + ", ".join(f"{KOKORO_PREFIX}{v}" for v in KOKORO_VOICES)
            )
        if not 0.5 <= self.speaking_rate <= 2.0:
            raise ValueError(f"speaking_rate must be in [0.5, 2.0], got {self.speaking_rate}")
        if self.lang not in KOKORO_LANGS:
            raise ValueError(f"Kokoro phonemiser language must be one of {KOKORO_LANGS}, got {self.lang!r}")

    @property
    def model(self) -> str:
        return "kokoro-v1.0-int8"

    @property
    def voice_id(self) -> str:
        """Stable identifier of this exact voice, e.g. ``kokoro:jm_kumo@rate1.1``."""
        mods: list[str] = []
        if self.speaking_rate != 1.0:
            mods.append(f"rate{self.speaking_rate:g}")
        if self.lang != "en-us":
            mods.append(f"lang={self.lang}")
        return f"{KOKORO_PREFIX}{self.voice}" + (("@" + ",".join(mods)) if mods else "")


def parse_kokoro_voice(name: str) -> KokoroVoiceParams:
    """``kokoro:<voice>`` -> params; a clear error naming the bad voice otherwise."""
    if not name.startswith(KOKORO_PREFIX):
        raise ValueError(f"{name!r} is not a Kokoro voice name (expected '{KOKORO_PREFIX}<voice>')")
    return KokoroVoiceParams(voice=name.removeprefix(KOKORO_PREFIX))


class KokoroSynth:
    """Synchronous Kokoro synthesis to PCM16 (used by the service, caller acts and benchmarks).

    The 92 MB model is shared by every ``KokoroSynth`` in the process with the same thread count.
    """

    def __init__(self, voice: KokoroVoiceParams, *, n_threads: int | None = None) -> None:
        from voxbench.localmodels.kokoro import shared_kokoro_engine

        self.params = voice
        self.engine = shared_kokoro_engine(n_threads=n_threads)
        self.native_rate = KOKORO_RATE

    def sentence_pcm(self, sentence: str, out_rate: int) -> bytes:
        from voxbench.pipelines.services.tts import to_pcm16

        p = self.params
        audio = self.engine.create(sentence, p.voice, speed=p.speaking_rate, lang=p.lang)
        return to_pcm16(audio, KOKORO_RATE, out_rate)

    def iter_sentences(
        self,
        text: str,
        out_rate: int,
        on_pause: Callable[[HeldPause], None] | None = None,
        on_open: Callable[[OpenPause], None] | None = None,
    ) -> Iterator[bytes]:
        """PCM16 mono at ``out_rate``, a sentence (or several) per chunk.

        Every sentence but the last ends in a pause (``SENTENCE_PAUSE_S``). A chunk is handed
        over when the next sentence is predicted to be ready before it has played, or when
        waiting longer would hold a silence past the bound (:mod:`.playout`): on an idle
        machine it is one chunk per sentence and no gap; on a loaded one the line starts within
        the bound and any gap lengthens a sentence pause, reported to ``on_pause``; ``on_open``
        gets the line's :data:`~.playout.OpenPause`.
        """
        parts = split_sentences(text)
        gap = bytes(2 * round(SENTENCE_PAUSE_S * out_rate))

        def one(i: int, sentence: str) -> bytes:
            pcm = self.sentence_pcm(sentence, out_rate)
            return pcm + gap if i < len(parts) - 1 else pcm

        yield from paced_chunks(parts, one, 2.0 * out_rate, on_pause=on_pause, on_open=on_open)

    def sentences(self, text: str, out_rate: int) -> list[bytes]:
        return list(self.iter_sentences(text, out_rate))

    def synthesize(self, text: str, out_rate: int) -> bytes:
        return b"".join(self.iter_sentences(text, out_rate))

    def synthesize_float(self, text: str, out_rate: int) -> np.ndarray:
        return np.frombuffer(self.synthesize(text, out_rate), dtype="<i2").astype(np.float32) / 32768.0


def make_kokoro_tts(
    voice: str | KokoroVoiceParams = "kokoro:jm_kumo",
    *,
    sample_rate: int | None = None,
    n_threads: int | None = None,
    **kwargs: Any,
) -> Any:
    """A ``LocalKokoroTTSService``. ``sample_rate=None`` follows the pipeline's output rate."""
    from voxbench.pipelines.services.local_tts import LocalKokoroTTSService

    return LocalKokoroTTSService(voice=voice, sample_rate=sample_rate, n_threads=n_threads, **kwargs)
