"""Pure audio perturbation operations: levels, noise mixing at an SNR, gain, clipping, muffling.

The phone line is :mod:`.telephony`, packet loss :mod:`.packet_loss`; the same rules hold
there. Every function takes mono ``float32`` audio in [-1, 1], an explicit ``sample_rate`` where the
operation depends on it, and an explicit ``numpy.random.Generator`` where it is random. Nothing
here reads globals, the clock or the file system, and nothing imports pipecat.

The streaming stages in :mod:`.streaming` reuse the filter designs below, so whole-signal and
chunked processing agree.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import signal

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]

_EPS = 1e-12


def as_mono_float32(audio: npt.ArrayLike) -> FloatArray:
    """Validate and convert to a contiguous 1-D float32 array."""
    arr = np.asarray(audio)
    if arr.ndim != 1:
        raise ValueError(f"expected mono 1-D audio, got shape {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.float32)


def db_to_amplitude(db: float) -> float:
    return float(10.0 ** (db / 20.0))


# --------------------------------------------------------------------------------------------
# Speech activity and levels
# --------------------------------------------------------------------------------------------


def frame_powers(audio: FloatArray, sample_rate: int, frame_ms: float = 20.0) -> npt.NDArray[np.float64]:
    """Mean power per frame (last partial frame included)."""
    n = max(1, round(sample_rate * frame_ms / 1000.0))
    x = np.asarray(audio, dtype=np.float64)
    n_frames = -(-len(x) // n)
    padded = np.zeros(n_frames * n)
    padded[: len(x)] = x
    sq = padded.reshape(n_frames, n) ** 2
    counts = np.full(n_frames, n, dtype=np.float64)
    if len(x) % n:
        counts[-1] = len(x) % n
    return np.asarray(sq.sum(axis=1) / counts)


def speech_activity_mask(
    audio: FloatArray,
    sample_rate: int,
    frame_ms: float = 20.0,
    dynamic_range_db: float = 35.0,
    floor_dbfs: float = -60.0,
) -> BoolArray:
    """Per-sample speech-activity mask from frame energy.

    A frame is active when its level is within ``dynamic_range_db`` of the loudest frames
    (95th percentile) and above ``floor_dbfs``. It is a simple stand-in for ITU-T P.56's active
    speech level, good enough to keep the pauses of a TTS utterance out of the SNR.
    """
    x = as_mono_float32(audio)
    if len(x) == 0:
        return np.zeros(0, dtype=bool)
    n = max(1, round(sample_rate * frame_ms / 1000.0))
    db = 10.0 * np.log10(frame_powers(x, sample_rate, frame_ms) + _EPS)
    threshold = max(float(np.percentile(db, 95)) - dynamic_range_db, floor_dbfs)
    active_frames = db > threshold
    return np.repeat(active_frames, n)[: len(x)]


def active_power(audio: FloatArray, mask: BoolArray) -> float:
    """Mean power over the samples where ``mask`` is true (0.0 if none)."""
    if not mask.any():
        return 0.0
    sel = np.asarray(audio, dtype=np.float64)[mask]
    return float(np.mean(sel**2))


def snr_db(speech: FloatArray, noise: FloatArray, mask: BoolArray) -> float:
    """SNR of ``speech`` to ``noise`` measured over the samples selected by ``mask``."""
    ps = active_power(speech, mask)
    pn = active_power(noise, mask)
    if pn <= 0.0:
        return float("inf")
    if ps <= 0.0:
        return float("-inf")
    return float(10.0 * np.log10(ps / pn))


# --------------------------------------------------------------------------------------------
# Noise mixing
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MixResult:
    """Output of :func:`mix_noise_at_snr`."""

    audio: FloatArray
    achieved_snr_db: float
    target_snr_db: float
    noise_gain: float
    """Linear gain applied to the noise before mixing (before any headroom scaling)."""
    headroom_gain: float
    """Linear gain applied to the whole mix to keep it within [-1, 1] (1.0 if none)."""
    active_fraction: float


def fit_noise_length(noise: FloatArray, n: int, rng: np.random.Generator) -> FloatArray:
    """Loop or crop ``noise`` to ``n`` samples, starting at a random offset."""
    noise = as_mono_float32(noise)
    if len(noise) == 0:
        raise ValueError("noise is empty")
    start = int(rng.integers(0, len(noise)))
    idx = (start + np.arange(n)) % len(noise)
    return noise[idx]


def mix_noise_at_snr(
    speech: npt.ArrayLike,
    noise: npt.ArrayLike,
    snr_db_target: float,
    rng: np.random.Generator,
    *,
    sample_rate: int = 16000,
    prevent_clipping: bool = True,
) -> MixResult:
    """Mix ``noise`` into ``speech`` so the SNR over the speech-active part is ``snr_db_target``.

    The noise is looped/cropped from a random offset (drawn from ``rng``). If the mix would
    exceed full scale and ``prevent_clipping`` is set, the whole mix is scaled down (which keeps
    the SNR); otherwise it is clipped. The achieved SNR is measured on the final float32 output
    against the (scaled) clean speech, over the speech-active samples.
    """
    s = as_mono_float32(speech)
    n = fit_noise_length(as_mono_float32(noise), len(s), rng).astype(np.float64)
    mask = speech_activity_mask(s, sample_rate)
    if not mask.any():
        mask = np.ones(len(s), dtype=bool)
    ps = active_power(s, mask)
    pn = active_power(n.astype(np.float32), mask)
    if pn <= 0.0:
        raise ValueError("noise is silent over the speech-active part")
    gain = float(np.sqrt(ps / (pn * 10.0 ** (snr_db_target / 10.0)))) if ps > 0 else 0.0
    mix = s.astype(np.float64) + gain * n
    peak = float(np.max(np.abs(mix))) if len(mix) else 0.0
    headroom = 1.0
    if peak > 1.0 and prevent_clipping:
        headroom = 0.999 / peak
        mix *= headroom
    out = np.clip(mix, -1.0, 1.0).astype(np.float32)
    ref = (s.astype(np.float64) * headroom).astype(np.float32)
    achieved = snr_db(ref, out - ref, mask)
    return MixResult(
        audio=out,
        achieved_snr_db=achieved,
        target_snr_db=float(snr_db_target),
        noise_gain=gain,
        headroom_gain=headroom,
        active_fraction=float(mask.mean()) if len(mask) else 0.0,
    )


# --------------------------------------------------------------------------------------------
# Gain, clipping, muffling
# --------------------------------------------------------------------------------------------


def gain_and_clip(audio: npt.ArrayLike, gain_db: float, clip_level: float = 1.0) -> FloatArray:
    """Apply ``gain_db`` then hard-clip at ``+-clip_level`` (full scale is 1.0)."""
    if not 0.0 < clip_level <= 1.0:
        raise ValueError("clip_level must be in (0, 1]")
    x = as_mono_float32(audio).astype(np.float64) * db_to_amplitude(gain_db)
    return np.clip(x, -clip_level, clip_level).astype(np.float32)


def lowpass_sos(sample_rate: int, cutoff_hz: float, order: int = 6) -> npt.NDArray[np.float64]:
    nyq = sample_rate / 2.0
    if not 0.0 < cutoff_hz < nyq:
        raise ValueError(f"cutoff {cutoff_hz} Hz must be inside (0, {nyq})")
    return np.asarray(signal.butter(order, cutoff_hz, btype="lowpass", fs=sample_rate, output="sos"))


def muffle(audio: npt.ArrayLike, sample_rate: int, cutoff_hz: float = 1500.0, order: int = 6) -> FloatArray:
    """Low-pass ``audio`` (a caller's hand over the mic, a phone in a pocket)."""
    x = as_mono_float32(audio)
    sos = lowpass_sos(sample_rate, cutoff_hz, order)
    return np.asarray(signal.sosfilt(sos, x), dtype=np.float32)
