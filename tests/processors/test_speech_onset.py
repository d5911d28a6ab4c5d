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
