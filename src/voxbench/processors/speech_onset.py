"""Energy-based speech onset/offset stamping, sample-accurate (pure numpy, no pipecat).

VAD decisions arrive 100+ ms after the speech they report; turn-taking metrics need
when the sound actually started. This detector looks at the samples: a 10 ms window
above a level threshold opens speech, and the onset is back-dated to the first sample
whose magnitude crosses the threshold, in that window or in the windows just before it
that already had such samples (up to `lookback_ms`): a voice that fades in (Piper's do)
crosses the sample threshold a few windows before its window RMS does, and stamping only
within the opening window put onsets 10-40 ms late. Speech ends after `hangover_ms`
below threshold; the offset is stamped at the last loud sample.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from voxbench.processors.onset_config import OnsetConfig

__all__ = ["EnergyOnsetDetector", "OnsetConfig", "SpeechMark", "detect_segments", "rms_db"]


@dataclass(frozen=True)
class SpeechMark:
    state: str  # "onset" | "offset"
    t: float
    level_db: float


def rms_db(x: np.ndarray) -> float:
    if x.size == 0:
        return -120.0
    r = float(np.sqrt(np.mean(np.square(x.astype(np.float64)))))
    return 20.0 * np.log10(max(r, 1e-9) / 32768.0)


class EnergyOnsetDetector:
    """Streaming detector: feed int16 chunks with the time of their first sample."""

    def __init__(self, sample_rate: int, config: OnsetConfig | None = None):
        self.sr = sample_rate
        self.cfg = config or OnsetConfig()
        self.win = max(1, round(self.sr * self.cfg.window_ms / 1000))
        self._amp = 32768.0 * 10 ** (self.cfg.threshold_db / 20)
        self._pending = np.zeros(0, dtype=np.int16)
        self._pending_t = 0.0
        self._in_speech = False
        self._confirmed = False
        self._onset_t = 0.0
        self._onset_level = -120.0
        self._loud_s = 0.0
        self._last_loud_t = 0.0
        self._quiet_s = 0.0
        # the quiet windows just before speech: (t0, first index at threshold or -1, level dB)
        self._before: deque[tuple[float, int, float]] = deque(
            maxlen=max(0, round(self.cfg.lookback_ms / self.cfg.window_ms))
        )
        self._floor: deque[float] = deque(maxlen=max(1, round(500 / self.cfg.window_ms)))  # levels, 0.5 s

    @property
    def in_speech(self) -> bool:
        return self._in_speech and self._confirmed

    @property
    def idle(self) -> bool:
        """No segment open, not even an unconfirmed one or a hangover: the next sound is new."""
        return not self._in_speech

    def quiet(self, samples: np.ndarray) -> bool:
        """True when no sample reaches the threshold: nothing here could start or extend speech.

        The recorder's track may shift such a chunk in time (re-aligning to the sender's
        clock) without moving any onset or offset.
        """
        return samples.size == 0 or int(np.max(np.abs(samples.astype(np.int32)))) < self._amp

    def feed(self, samples: np.ndarray, t_start: float) -> list[SpeechMark]:
        """Process samples whose first sample plays at `t_start` (seconds)."""
        if self._pending.size == 0:
            self._pending_t = t_start
        buf = np.concatenate([self._pending, samples.astype(np.int16, copy=False)])
        out: list[SpeechMark] = []
        n_win = buf.size // self.win
        for i in range(n_win):
            w = buf[i * self.win : (i + 1) * self.win]
            t0 = self._pending_t + i * self.win / self.sr
            self._step(w, t0, out)
        rest = n_win * self.win
        self._pending = buf[rest:].copy()
        self._pending_t += rest / self.sr
        return out

    def flush(self, t_end: float | None = None) -> list[SpeechMark]:
        """Close an open segment at the end of the stream."""
        out: list[SpeechMark] = []
        if self._in_speech and self._confirmed:
            out.append(SpeechMark("offset", self._last_loud_t, self._onset_level))
        self._in_speech = self._confirmed = False
        return out

    def _step(self, w: np.ndarray, t0: float, out: list[SpeechMark]) -> None:
        level = rms_db(w)
        dur = w.size / self.sr
        loud = level >= self.cfg.threshold_db
        if loud:
            idx = np.flatnonzero(np.abs(w.astype(np.int32)) >= self._amp)
            first = int(idx[0]) if idx.size else 0
            last = int(idx[-1]) if idx.size else w.size - 1
            if not self._in_speech:
                self._in_speech = True
                self._confirmed = False
                self._onset_t = self._back_dated(t0 + first / self.sr)
                self._onset_level = level
                self._loud_s = 0.0
            self._loud_s += dur
            self._quiet_s = 0.0
            self._last_loud_t = t0 + (last + 1) / self.sr
            self._onset_level = max(self._onset_level, level)
            if not self._confirmed and self._loud_s * 1000 >= self.cfg.min_speech_ms:
                self._confirmed = True
                out.append(SpeechMark("onset", self._onset_t, round(level, 1)))
            return
        if not self._in_speech:
            self._floor.append(level)
            if self._before.maxlen:
                idx = np.flatnonzero(np.abs(w.astype(np.int32)) >= self._amp)
                self._before.append((t0, int(idx[0]) if idx.size else -1, level))
            return
        self._quiet_s += dur
        if self._quiet_s * 1000 >= self.cfg.hangover_ms:
            if self._confirmed:
                out.append(SpeechMark("offset", self._last_loud_t, round(self._onset_level, 1)))
            self._in_speech = self._confirmed = False
        elif not self._confirmed and self._quiet_s * 1000 >= self.cfg.window_ms * 3:
            # an unconfirmed blip followed by quiet: drop it
            self._in_speech = False

    def _back_dated(self, t: float) -> float:
        """``t``, or the first sample at threshold of the unbroken run of windows before it that
        each had one and stood 6 dB over the quiet floor (a fade-in, not steady noise whose
        peaks reach the threshold); the run ends at the first window that fails either."""
        floor = min(self._floor, default=-120.0)
        for t0, first, level in reversed(self._before):
            if first < 0 or level < floor + 6.0:
                break
            t = t0 + first / self.sr
        self._before.clear()
        return t


def detect_segments(
    samples: np.ndarray, sample_rate: int, config: OnsetConfig | None = None
) -> list[tuple[float, float]]:
    """Offline helper: (onset, offset) pairs of a whole signal starting at t=0."""
    det = EnergyOnsetDetector(sample_rate, config)
    marks = det.feed(samples, 0.0) + det.flush()
    segs: list[tuple[float, float]] = []
    start: float | None = None
    for m in marks:
        if m.state == "onset":
            start = m.t
        elif start is not None:
            segs.append((start, m.t))
            start = None
    return segs
