"""Energy onset stamping is sample-accurate on known signals, streamed in chunks."""

from __future__ import annotations

import numpy as np

from voxbench.processors.speech_onset import EnergyOnsetDetector, OnsetConfig, detect_segments

SR = 16000


def _signal(segments: list[tuple[float, float]], total: float, noise_db: float | None = None) -> np.ndarray:
    rng = np.random.default_rng(7)
    x = np.zeros(int(total * SR))
    if noise_db is not None:
        x += rng.normal(0, 32768 * 10 ** (noise_db / 20), x.size)
    t = np.arange(x.size) / SR
    for a, b in segments:
        m = (t >= a) & (t < b)
        x[m] += 8000 * np.sin(2 * np.pi * 180 * t[m])
    return np.clip(x, -32768, 32767).astype(np.int16)


def test_onsets_and_offsets_within_a_millisecond() -> None:
    truth = [(0.5123, 1.7311), (2.4007, 2.9), (3.61, 4.2)]
    x = _signal(truth, 5.0)
    det = EnergyOnsetDetector(SR)
    marks = []
    for i in range(0, x.size, 640):  # 40 ms chunks, as the wire delivers them
        marks += det.feed(x[i : i + 640], i / SR)
    marks += det.flush()
    on = [m.t for m in marks if m.state == "onset"]
    off = [m.t for m in marks if m.state == "offset"]
    assert len(on) == len(off) == 3
    for (a, b), o, f in zip(truth, on, off, strict=True):
        assert abs(o - a) < 0.001
        assert abs(f - b) < 0.001


def test_noise_below_threshold_is_ignored_and_short_blips_dropped() -> None:
    x = _signal([(1.0, 1.02), (2.0, 2.5)], 3.0, noise_db=-60)
    segs = detect_segments(x, SR, OnsetConfig(min_speech_ms=50))
    assert len(segs) == 1 and abs(segs[0][0] - 2.0) < 0.002


def test_pauses_shorter_than_hangover_join() -> None:
    x = _signal([(0.2, 0.6), (0.75, 1.2)], 2.0)
    assert len(detect_segments(x, SR, OnsetConfig(hangover_ms=300))) == 1
    assert len(detect_segments(x, SR, OnsetConfig(hangover_ms=100))) == 2


def _fade_in(start: float, ramp_s: float, total: float, noise_db: float | None = None) -> np.ndarray:
    """A 180 Hz voice that fades in linearly over ``ramp_s`` (as Piper's voices do)."""
    x = np.zeros(int(total * SR))
    if noise_db is not None:
        x += np.random.default_rng(3).normal(0, 32768 * 10 ** (noise_db / 20), x.size)
    t = np.arange(x.size) / SR
    env = np.clip((t - start) / ramp_s, 0.0, 1.0) * (t >= start)
    x += 8000 * env * np.sin(2 * np.pi * 180 * t)
    return np.clip(x, -32768, 32767).astype(np.int16)


def _onsets(x: np.ndarray, cfg: OnsetConfig | None = None) -> list[float]:
    det = EnergyOnsetDetector(SR, cfg)
    marks = []
    for i in range(0, x.size, 640):
        marks += det.feed(x[i : i + 640], i / SR)
    return [m.t for m in marks if m.state == "onset"]


def test_a_fade_in_is_stamped_at_its_first_sample_at_threshold() -> None:
    x = _fade_in(0.5003, 1.0, 2.0)  # reaches the sample threshold ~41 ms in, the window RMS ~17 ms later
    amp = 32768 * 10 ** (OnsetConfig().threshold_db / 20)
    first = np.flatnonzero(np.abs(x.astype(np.int32)) >= amp)[0] / SR
    assert abs(_onsets(x)[0] - first) < 0.001
    # without the look-back the stamp waits for the window whose RMS crosses: tens of ms late
    assert _onsets(x, OnsetConfig(lookback_ms=0))[0] - first > 0.01


def test_steady_noise_reaching_the_threshold_does_not_pull_onsets_early() -> None:
    x = _fade_in(1.0, 0.005, 2.0, noise_db=-46)  # noise peaks cross -40 dBFS in most windows
    on = _onsets(x)
    assert on and abs(on[0] - 1.0) < 0.012
