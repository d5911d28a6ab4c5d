"""A mono audio track laid on the conversation clock (pure numpy, no pipecat).

Chunks arrive over a socket with jitter and, for non-continuous senders, with gaps. A
chunk that arrives within `tolerance_s` of where the track ends is appended (the
stream stays sample-contiguous); one that arrives later opens a gap of silence, so the
WAV's sample positions agree with event times to within the tolerance.
"""

from __future__ import annotations

import numpy as np


class TimelineTrack:
    def __init__(self, sample_rate: int, tolerance_s: float = 0.06):
        self.sr = sample_rate
        self.tol = round(tolerance_s * sample_rate)
        self._parts: list[np.ndarray] = []
        self._cursor = 0  # samples written so far
        self.gaps = 0

    @property
    def duration(self) -> float:
        return self._cursor / self.sr

    def add(self, samples: np.ndarray, t_arrival: float) -> float:
        """Place `samples` (int16) that arrived at `t_arrival`; return their start time."""
        pos = max(0, round(t_arrival * self.sr))
        if pos > self._cursor + self.tol:
            self._parts.append(np.zeros(pos - self._cursor, dtype=np.int16))
            self._cursor = pos
            self.gaps += 1
        start = self._cursor
        self._parts.append(samples.astype(np.int16, copy=False))
        self._cursor += samples.size
        return start / self.sr

    def samples(self, length: int | None = None) -> np.ndarray:
        data = np.concatenate(self._parts) if self._parts else np.zeros(0, dtype=np.int16)
        if length is not None and data.size < length:
            data = np.concatenate([data, np.zeros(length - data.size, dtype=np.int16)])
        return data


def stereo_mix(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Two mono int16 tracks as one (n, 2) int16 array, padded to the longer."""
    n = max(left.size, right.size)
    out = np.zeros((n, 2), dtype=np.int16)
    out[: left.size, 0] = left
    out[: right.size, 1] = right
    return out
