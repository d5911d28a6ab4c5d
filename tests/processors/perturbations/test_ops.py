"""Measurable properties of each pure perturbation op."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from voxbench.processors.perturbations.noise import (
    babble_from_speech,
    clatter,
    pink_noise,
    speech_like,
    white_noise,
)
from voxbench.processors.perturbations.ops import (
    gain_and_clip,
    mix_noise_at_snr,
    muffle,
    snr_db,
    speech_activity_mask,
)
from voxbench.processors.perturbations.packet_loss import (
    gilbert_elliott_mask,
    loss_burst_lengths,
    packet_loss,
)
from voxbench.processors.perturbations.telephony import (
    PolyphaseResampler,
    mulaw_decode,
    mulaw_encode,
    telephony,
)

SR = 16000


def _rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def _speech(seconds: float = 8.0, seed: int = 0) -> np.ndarray:
    return speech_like(SR, seconds, _rng(seed))


def _tone(freq: float, sr: int = SR, seconds: float = 1.0, amp: float = 0.5) -> np.ndarray:
    t = np.arange(int(sr * seconds)) / sr
    return (amp * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def _gain_db(y: np.ndarray, x: np.ndarray, skip: int) -> float:
    return float(10 * np.log10((np.mean(y[skip:-skip] ** 2) + 1e-20) / np.mean(x[skip:-skip] ** 2)))


# ---------------------------------------------------------------------------------- noise mix


@pytest.mark.parametrize("target", [-5.0, 0.0, 5.0, 10.0, 20.0, 40.0])
@pytest.mark.parametrize("noise_kind", ["white", "pink", "babble"])
def test_mix_hits_target_snr_over_active_speech(target: float, noise_kind: str) -> None:
    speech = _speech()
    rng = _rng(1)
    if noise_kind == "white":
        noise = white_noise(SR, 3.0, rng)
    elif noise_kind == "pink":
        noise = pink_noise(SR, 3.0, rng)
    else:
        talkers = [speech_like(SR, 3.0, rng, f0_hz=f) for f in (100, 140, 200, 230)]
        noise = babble_from_speech(talkers, SR, 5.0, rng)
    res = mix_noise_at_snr(speech, noise, target, _rng(2), sample_rate=SR)
    assert res.audio.dtype == np.float32 and len(res.audio) == len(speech)
    assert abs(res.achieved_snr_db - target) < 0.5
    # independent re-measurement: the added signal is everything but the (scaled) speech
    mask = speech_activity_mask(speech, SR)
    ref = speech * res.headroom_gain
    assert abs(snr_db(ref, res.audio - ref, mask) - target) < 0.5
    assert np.max(np.abs(res.audio)) <= 1.0


def test_snr_is_measured_over_speech_not_pauses() -> None:
    speech = _speech()
    mask = speech_activity_mask(speech, SR)
    assert 0.5 < mask.mean() < 0.95  # the stand-in has pauses, and they are excluded
    noise = white_noise(SR, 10.0, _rng(3))
    res = mix_noise_at_snr(speech, noise, 10.0, _rng(4), sample_rate=SR)
    whole = 10 * np.log10(np.mean(speech.astype(np.float64) ** 2) / np.mean((res.audio - speech) ** 2.0))
    assert whole < res.achieved_snr_db - 0.5  # pauses dilute the whole-file SNR


def test_mix_is_deterministic_per_seed() -> None:
    speech, noise = _speech(), pink_noise(SR, 4.0, _rng(5))
    a = mix_noise_at_snr(speech, noise, 5.0, _rng(9), sample_rate=SR).audio
    b = mix_noise_at_snr(speech, noise, 5.0, _rng(9), sample_rate=SR).audio
    c = mix_noise_at_snr(speech, noise, 5.0, _rng(10), sample_rate=SR).audio
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_noise_generators_are_seeded_and_unit_rms() -> None:
    for gen in (white_noise, pink_noise, clatter):
        a, b, c = gen(SR, 5.0, _rng(1)), gen(SR, 5.0, _rng(1)), gen(SR, 5.0, _rng(2))
        assert np.array_equal(a, b) and not np.array_equal(a, c)
        assert np.sqrt(np.mean(a.astype(np.float64) ** 2)) == pytest.approx(1.0, rel=1e-3)


def test_pink_noise_slope_is_about_minus_3_db_per_octave() -> None:
    from scipy import signal

    f, p = signal.welch(pink_noise(SR, 30.0, _rng(0)), SR, nperseg=4096)
    level = [10 * np.log10(p[np.argmin(abs(f - hz))]) for hz in (200, 400, 800, 1600, 3200)]
    slopes = np.diff(level)
    assert np.all(slopes < -1.5) and np.all(slopes > -4.5)


# ---------------------------------------------------------------------------------- telephony


@pytest.mark.parametrize("sr", [16000, 22050, 24000, 48000])
def test_telephony_band_edges(sr: int) -> None:
    skip = sr // 10
    for freq, check in ((100, lambda g: g < -20), (6000, lambda g: g < -20), (1000, lambda g: abs(g) < 3)):
        x = _tone(freq, sr)
        y = telephony(x, sr)
        assert len(y) == len(x) and y.dtype == np.float32
        g = _gain_db(y, x, skip)
        assert check(g), f"{freq} Hz at {sr} Hz: {g:.1f} dB"


def test_telephony_quantises_to_mulaw_levels_at_8k() -> None:
    # at an 8 kHz input rate with the band-pass off the resamplers are identity-like and the
    # output values must be mu-law reconstruction levels
    from voxbench.processors.perturbations.telephony import TelephonyChannel

    ch = TelephonyChannel(8000, codec="mulaw")
    assert ch._down.up == ch._down.down == 1
    levels = set((mulaw_decode(np.arange(256, dtype=np.uint8)).astype(np.float32) / 32768.0).tolist())
    y = ch.process(_tone(1000, 8000))
    assert len(y) == 8000
    # the up-sampler interpolates, so check the codec in isolation as well
    q = mulaw_decode(mulaw_encode((y * 32768).astype(np.int16))).astype(np.float32) / 32768.0
    assert set(q.tolist()) <= levels


def test_mulaw_is_bit_exact_with_audioop() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        audioop = pytest.importorskip("audioop")
    pcm = np.arange(-32768, 32768, dtype=np.int16)
    assert np.array_equal(np.frombuffer(audioop.lin2ulaw(pcm.tobytes(), 2), np.uint8), mulaw_encode(pcm))
    codes = np.arange(256, dtype=np.uint8)
    assert np.array_equal(np.frombuffer(audioop.ulaw2lin(codes.tobytes(), 2), np.int16), mulaw_decode(codes))


@pytest.mark.parametrize(
    ("rate_in", "rate_out"), [(22050, 8000), (8000, 22050), (16000, 8000), (48000, 8000)]
)
def test_resampler_is_chunking_invariant(rate_in: int, rate_out: int) -> None:
    x = _rng(0).standard_normal(rate_in).astype(np.float32)
    whole = PolyphaseResampler(rate_in, rate_out).process(x)
    r = PolyphaseResampler(rate_in, rate_out)
    cuts = np.cumsum(_rng(1).integers(1, 700, size=200))
    parts = np.split(x, cuts[cuts < len(x)])
    chunked = np.concatenate([r.process(p) for p in parts])
    assert len(whole) == len(chunked) == -(-rate_in * rate_out // rate_in)
    np.testing.assert_array_equal(whole, chunked)


# ---------------------------------------------------------------------------------- packet loss


@pytest.mark.parametrize(("rate", "burst"), [(0.05, 1.0), (0.1, 3.0), (0.2, 2.0), (0.5, 5.0)])
def test_gilbert_elliott_rate_and_burst(rate: float, burst: float) -> None:
    lost = gilbert_elliott_mask(200_000, rate, burst, _rng(7))
    assert abs(lost.mean() - rate) < 0.1 * rate + 0.005
    assert loss_burst_lengths(lost).mean() == pytest.approx(burst, rel=0.1)


def test_packet_loss_zeroes_whole_frames_and_reports_mask() -> None:
    x = np.full(SR * 600, 0.5, dtype=np.float32)  # 10 minutes = 30,000 frames of 20 ms
    res = packet_loss(x, SR, 0.1, 2.5, 20.0, _rng(3))
    assert res.frame_samples == 320 and len(res.lost_frames) == 30_000
    assert abs(res.achieved_loss_rate - 0.1) < 0.01
    assert loss_burst_lengths(res.lost_frames).mean() == pytest.approx(2.5, rel=0.1)
    frames = res.audio.reshape(-1, 320)
    assert np.array_equal(np.all(frames == 0.0, axis=1), res.lost_frames)
    assert np.all(frames[~res.lost_frames] == 0.5)


def test_packet_loss_jitter_adds_late_frames() -> None:
    x = np.ones(SR * 300, dtype=np.float32)
    res = packet_loss(x, SR, 0.05, 2.0, 20.0, _rng(4), jitter_ms=20.0, jitter_buffer_ms=60.0)
    late = res.late_frames.mean()
    assert abs(late - np.exp(-3.0) * 0.95) < 0.01  # exponential delay, mean 20 ms, past 60 ms
    assert res.achieved_loss_rate == pytest.approx(0.05 + late, abs=0.01)


def test_packet_loss_seed_determinism_and_zero_rate() -> None:
    x = _speech(4.0)
    a = packet_loss(x, SR, 0.2, 2.0, rng=_rng(1))
    b = packet_loss(x, SR, 0.2, 2.0, rng=_rng(1))
    c = packet_loss(x, SR, 0.2, 2.0, rng=_rng(2))
    assert np.array_equal(a.audio, b.audio) and not np.array_equal(a.lost_frames, c.lost_frames)
    assert np.array_equal(packet_loss(x, SR, 0.0, 1.0, rng=_rng(1)).audio, x)
    with pytest.raises(ValueError):
        packet_loss(x, SR, 0.1, 2.0)


# ---------------------------------------------------------------------------------- gain, muffle


@pytest.mark.parametrize(("gain", "clip"), [(0.0, 1.0), (12.0, 1.0), (20.0, 0.3), (-6.0, 0.5)])
def test_gain_and_clip_bound_and_linear_region(gain: float, clip: float) -> None:
    x = _speech()
    y = gain_and_clip(x, gain, clip)
    assert y.dtype == np.float32 and np.max(np.abs(y)) <= clip + 1e-7
    lin = np.abs(x * 10 ** (gain / 20)) < clip
    np.testing.assert_allclose(y[lin], x[lin] * 10 ** (gain / 20), rtol=1e-5, atol=1e-7)


def test_muffle_passes_lows_and_cuts_highs() -> None:
    skip = SR // 10
    assert abs(_gain_db(muffle(_tone(300), SR, 1500.0), _tone(300), skip)) < 1.0
    assert _gain_db(muffle(_tone(4000), SR, 1500.0), _tone(4000), skip) < -40.0
