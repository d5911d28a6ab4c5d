"""A mono audio track laid on the conversation clock (pure numpy, no pipecat).

Chunks arrive over a socket with jitter, sometimes ahead of real time (pipecat's output
sends the first chunk of every burst with no pacing sleep, so the stream then runs one
chunk early) and sometimes behind it (a sender whose event loop stalled). The track keeps
speech sample-contiguous and keeps the timeline honest:

* the first chunk starts where it arrived (the track is silence before it);
* a chunk that arrives within `tolerance_s` of where the track ends is appended, so
  jitter never tears speech apart; a later one opens a gap of silence;
* a *quiet* chunk (the caller says nothing in it is audible) is re-aligned: silence is
  inserted or dropped so it starts at the earliest the stream has been arriving over the
  last `realign_window_s` (the sender's clock plus the minimum transit, a jitter-free
  estimate). Drift from early or late senders is thus undone between utterances, where
  it costs nothing audible;
* a chunk that *starts* a sound after quiet is laid at its own arrival when that is
  later than the track's end (silence inserted, nothing dropped): a sender that sent it
  late (its loop stalled) is heard late, and the onset is stamped when it was heard.

So the WAV's sample positions agree with arrival times, and event times derived from
positions (speech onsets) agree with both.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Placement:
    """Where a chunk went: `start` of its first kept sample, and what was written.

    `written` starts at the previous end of the track (inserted silence, then the kept
    samples), so feeding it to a detector keeps the detector sample-aligned with the WAV.
    """

    start: float
    written_start: float
    written: np.ndarray


class TimelineTrack:
    def __init__(
        self,
        sample_rate: int,
        tolerance_s: float = 0.06,
        realign_window_s: float = 0.5,
        realign_tol_s: float = 0.002,
    ):
        self.sr = sample_rate
        self.tol = round(tolerance_s * sample_rate)
        self._window = realign_window_s
        self._realign_tol = round(realign_tol_s * sample_rate)
        self._parts: list[np.ndarray] = []
        self._cursor = 0  # samples written so far
        self._received = 0  # samples received since the last anchor (the sender's clock)
        self._offsets: deque[tuple[float, float]] = deque()  # (arrival, arrival - stream position)
        self.gaps = 0
        self.realigned = 0

    @property
    def duration(self) -> float:
        return self._cursor / self.sr

    def add(
        self, samples: np.ndarray, t_arrival: float, quiet: bool = False, starts_sound: bool = False
    ) -> float:
        """Place `samples` (int16) that arrived at `t_arrival`; return their start time."""
        return self.place(samples, t_arrival, quiet, starts_sound).start

    def place(
        self, samples: np.ndarray, t_arrival: float, quiet: bool = False, starts_sound: bool = False
    ) -> Placement:
        """Place a chunk; see the module docstring for the rules."""
        x = samples.astype(np.int16, copy=False)
        before = self._cursor
        pos = max(0, round(t_arrival * self.sr))
        if not self._parts or pos > self._cursor + self.tol:
            self._anchor(t_arrival)  # first chunk, or the sender really went quiet / lost time
            pad = pos - self._cursor
            if self._parts:
                self.gaps += 1
        else:
            pad = 0
        floor = self._offset_floor(t_arrival)
        if quiet and pad == 0:
            target = max(0, round((floor + self._received / self.sr) * self.sr))
            if abs(target - self._cursor) > self._realign_tol:
                self.realigned += 1
                if target > self._cursor:
                    pad = min(target - self._cursor, self.tol)
                else:
                    x = x[min(self._cursor - target, x.size) :]
        elif starts_sound and pad == 0 and pos - self._cursor > self._realign_tol:
            self.realigned += 1
            pad = pos - self._cursor
        written = [np.zeros(pad, dtype=np.int16)] if pad > 0 else []
        written.append(x)
        self._received += samples.size
        for part in written:
            if part.size:
                self._parts.append(part)
        start = self._cursor + max(pad, 0)
        self._cursor = start + x.size
        out = np.concatenate(written) if len(written) > 1 else x
        return Placement(start / self.sr, before / self.sr, out)

    def _anchor(self, t_arrival: float) -> None:
        self._received = 0
        self._offsets.clear()

    def _offset_floor(self, t_arrival: float) -> float:
        """Earliest (arrival - stream position) over the window, this chunk included."""
        self._offsets.append((t_arrival, t_arrival - self._received / self.sr))
        while self._offsets and self._offsets[0][0] < t_arrival - self._window:
            self._offsets.popleft()
        return min(v for _, v in self._offsets)

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
