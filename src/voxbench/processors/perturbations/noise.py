"""Noise sources: pink/white noise, clatter transients, babble, user files.

Whole-signal generators are pure functions of (sample rate, duration, rng, ...). The
:class:`NoiseStream` classes produce the same kinds of noise chunk by chunk for the streaming
chain; pink noise streams exactly (stateful filter), bed-based noise loops a pre-built bed.
Babble is built from a list of speech arrays, so the DSP does not depend on any TTS; see
:mod:`.voices` for a Piper helper that makes those arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt
from scipy import signal

from .ops import FloatArray, as_mono_float32

# Julius O. Smith's pinking filter (Spectral Audio Signal Processing, "Example: Synthesis of 1/F
# Noise"): -3 dB/octave within about 0.3 dB over most of the band; the slope is set by fs).
_PINK_B = np.array([0.049922035, -0.095993537, 0.050612699, -0.004408786])
_PINK_A = np.array([1.0, -2.494956002, 2.017265875, -0.522189400])


def _unit_rms(x: npt.NDArray[np.float64]) -> FloatArray:
    rms = float(np.sqrt(np.mean(x**2))) if len(x) else 0.0
    return (x / rms if rms > 0 else x).astype(np.float32)


def white_noise(sample_rate: int, duration_s: float, rng: np.random.Generator) -> FloatArray:
    """Gaussian white noise scaled to unit RMS (scale it before use)."""
    return _unit_rms(rng.standard_normal(round(sample_rate * duration_s)))


def pink_noise(sample_rate: int, duration_s: float, rng: np.random.Generator) -> FloatArray:
    """1/f (pink) noise at unit RMS, from white noise through a fixed pinking filter."""
    n = round(sample_rate * duration_s)
    warm = sample_rate // 2  # let the filter settle, then drop the start
    y = signal.lfilter(_PINK_B, _PINK_A, rng.standard_normal(n + warm))[warm:]
    return _unit_rms(np.asarray(y))


def clatter(
    sample_rate: int,
    duration_s: float,
    rng: np.random.Generator,
    *,
    events_per_s: float = 1.5,
) -> FloatArray:
    """Cafe clatter: Poisson-timed transients (knocks and cutlery/cup clinks), unit RMS.

    Knocks are short bursts of band-passed noise with an exponential decay; clinks are a few
    inharmonic damped sinusoids between 2 and 7 kHz (capped below Nyquist).
    """
    n = round(sample_rate * duration_s)
    out = np.zeros(n)
    n_events = int(rng.poisson(events_per_s * duration_s))
    nyq = sample_rate / 2.0
    for _ in range(n_events):
        start = int(rng.integers(0, max(1, n)))
        amp = float(10 ** (rng.uniform(-12, 0) / 20))
        if rng.random() < 0.5:  # knock
            length = int(sample_rate * rng.uniform(0.02, 0.12))
            burst = rng.standard_normal(length)
            lo = rng.uniform(200, 1500)
            hi = min(lo * rng.uniform(2, 6), 0.9 * nyq)
            sos = signal.butter(2, [lo, hi], btype="bandpass", fs=sample_rate, output="sos")
            burst = signal.sosfilt(sos, burst)
            env = np.exp(-np.arange(length) / (sample_rate * rng.uniform(0.005, 0.03)))
            ev = burst * env
        else:  # clink
            length = int(sample_rate * rng.uniform(0.15, 0.5))
            t = np.arange(length) / sample_rate
            ev = np.zeros(length)
            for _k in range(int(rng.integers(2, 5))):
                f = min(rng.uniform(2000, 7000), 0.9 * nyq)
                tau = rng.uniform(0.03, 0.2)
                ev += (
                    rng.uniform(0.3, 1.0)
                    * np.sin(2 * np.pi * f * t + rng.uniform(0, 2 * np.pi))
                    * np.exp(-t / tau)
                )
        ev = ev / (np.max(np.abs(ev)) + 1e-12) * amp
        end = min(n, start + len(ev))
        out[start:end] += ev[: end - start]
    if not out.any():
        return np.zeros(n, dtype=np.float32)
    return _unit_rms(out)


def speech_like(
    sample_rate: int,
    duration_s: float,
    rng: np.random.Generator,
    *,
    f0_hz: float = 120.0,
    pause_fraction: float = 0.25,
) -> FloatArray:
    """A crude speech stand-in (no TTS needed): a glottal-like harmonic source with a jittered
    pitch, two moving formant resonances, syllabic (~4 Hz) amplitude modulation and pauses.
    Used for tests and as a babble fallback when no TTS voice is available. Peak 0.5."""
    n = round(sample_rate * duration_s)
    t = np.arange(n) / sample_rate
    f0 = f0_hz * (1 + 0.08 * np.sin(2 * np.pi * rng.uniform(0.2, 0.6) * t + rng.uniform(0, 6)))
    phase = 2 * np.pi * np.cumsum(f0) / sample_rate
    src = np.zeros(n)
    nyq = sample_rate / 2
    for h in range(1, int(min(4000, 0.9 * nyq) // f0_hz)):
        src += np.sin(h * phase) / h
    src += 0.05 * rng.standard_normal(n)
    out = np.zeros(n)
    for fc in (rng.uniform(400, 900), rng.uniform(1100, 2400)):
        hi = min(fc * 1.3, 0.9 * nyq)
        sos = signal.butter(2, [fc * 0.7, hi], btype="bandpass", fs=sample_rate, output="sos")
        out += signal.sosfilt(sos, src)
    syll = 0.5 * (1 - np.cos(2 * np.pi * rng.uniform(3.0, 5.0) * t + rng.uniform(0, 6)))
    env = syll**0.7
    # pauses: zero out random 0.2-0.8 s stretches until pause_fraction is reached
    paused = np.zeros(n, dtype=bool)
    while paused.mean() < pause_fraction and n > 0:
        length = int(sample_rate * rng.uniform(0.2, 0.8))
        start = int(rng.integers(0, n))
        paused[start : start + length] = True
    env[paused] = 0.0
    out *= env
    peak = float(np.max(np.abs(out))) if n else 0.0
    return (0.5 * out / peak if peak > 0 else out).astype(np.float32)


def resample_to(audio: FloatArray, rate_in: int, rate_out: int) -> FloatArray:
    """Whole-signal polyphase resampling (for noise beds and babble sources)."""
    if rate_in == rate_out:
        return as_mono_float32(audio)
    from math import gcd

    g = gcd(rate_in, rate_out)
    return np.asarray(signal.resample_poly(audio, rate_out // g, rate_in // g), dtype=np.float32)


def babble_from_speech(
    voices: Sequence[npt.ArrayLike],
    sample_rate: int,
    duration_s: float,
    rng: np.random.Generator,
    *,
    n_talkers: int = 6,
    gap_s: tuple[float, float] = (0.1, 0.8),
    level_spread_db: float = 6.0,
) -> FloatArray:
    """Multi-talker babble at unit RMS from a list of speech arrays (all at ``sample_rate``).

    Each of ``n_talkers`` tracks strings randomly chosen utterances together with random gaps
    and starts at a random offset; tracks get random levels within ``level_spread_db`` and are
    summed. Pass utterances from several voices (different TTS speakers, rates, pitches).
    """
    utts = [u for u in (as_mono_float32(v) for v in voices) if len(u) > 0]
    if not utts:
        raise ValueError("babble needs at least one non-empty speech array")
    n = round(sample_rate * duration_s)
    mix = np.zeros(n)
    for _ in range(n_talkers):
        track: list[np.ndarray] = []
        total = 0
        while total < 2 * n:
            u = utts[int(rng.integers(0, len(utts)))]
            u = u / (np.sqrt(np.mean(u.astype(np.float64) ** 2)) + 1e-12)
            gap = np.zeros(int(sample_rate * rng.uniform(*gap_s)))
            track += [u, gap]
            total += len(u) + len(gap)
        tr = np.concatenate(track)
        offset = int(rng.integers(0, len(tr) - n + 1))
        gain = 10 ** (rng.uniform(-level_spread_db / 2, level_spread_db / 2) / 20)
        mix += gain * tr[offset : offset + n]
    return _unit_rms(mix)


def load_noise_file(path: str | Path, sample_rate: int) -> FloatArray:
    """Read a user-supplied noise file (any format soundfile reads), downmix, resample, unit RMS."""
    import soundfile as sf

    data, rate = sf.read(str(path), dtype="float32", always_2d=True)
    mono = data.mean(axis=1)
    return _unit_rms(resample_to(mono, int(rate), sample_rate).astype(np.float64))


# --------------------------------------------------------------------------------------------
# Streaming sources
# --------------------------------------------------------------------------------------------


class NoiseStream(Protocol):
    """A continuing noise source at unit nominal RMS."""

    def read(self, n: int) -> FloatArray: ...


class PinkNoiseStream:
    """Pink noise generated on the fly with a stateful filter (chunking-invariant)."""

    def __init__(self, sample_rate: int, rng: np.random.Generator) -> None:
        self._rng = rng
        self._zi = np.zeros(len(_PINK_A) - 1)
        # calibrate the filter's output RMS for unit-variance input, then warm up the state
        calib = signal.lfilter(_PINK_B, _PINK_A, np.random.default_rng(0).standard_normal(1 << 16))
        self._scale = 1.0 / float(np.sqrt(np.mean(calib[4096:] ** 2)))
        self.read(sample_rate // 2)

    def read(self, n: int) -> FloatArray:
        y, self._zi = signal.lfilter(_PINK_B, _PINK_A, self._rng.standard_normal(n), zi=self._zi)
        return (np.asarray(y) * self._scale).astype(np.float32)


class WhiteNoiseStream:
    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng

    def read(self, n: int) -> FloatArray:
        return self._rng.standard_normal(n).astype(np.float32)


class LoopedBedStream:
    """Loops a pre-built noise bed (babble, clatter, a user file) from a random start."""

    def __init__(self, bed: FloatArray, rng: np.random.Generator) -> None:
        bed = as_mono_float32(bed)
        if len(bed) == 0:
            raise ValueError("noise bed is empty")
        self._bed = bed
        self._pos = int(rng.integers(0, len(bed)))

    def read(self, n: int) -> FloatArray:
        idx = (self._pos + np.arange(n)) % len(self._bed)
        self._pos = (self._pos + n) % len(self._bed)
        return self._bed[idx]
