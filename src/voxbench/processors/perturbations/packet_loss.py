"""Packet loss: Gilbert-Elliott loss bursts and late arrival past a jitter buffer.

Pure numpy on mono ``float32`` audio in [-1, 1], like :mod:`.ops`, every random draw from
an explicit ``numpy.random.Generator`` and tied to the frame it decides, so the stateful
:class:`PacketLossChannel` streams exactly and :func:`packet_loss` (whole signal) agrees.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .ops import BoolArray, FloatArray, as_mono_float32


def gilbert_elliott_probs(loss_rate: float, mean_burst: float) -> tuple[float, float]:
    """Transition probabilities (p good->bad, r bad->good) for a stationary loss rate and mean
    burst length in frames. Bad frames are lost, good frames are kept."""
    if not 0.0 <= loss_rate < 1.0:
        raise ValueError("loss_rate must be in [0, 1)")
    if mean_burst < 1.0:
        raise ValueError("mean_burst must be >= 1 frame")
    r = 1.0 / mean_burst
    p = r * loss_rate / (1.0 - loss_rate)
    if p > 1.0:
        raise ValueError("loss_rate too high for this mean_burst (p > 1)")
    return p, r


def gilbert_elliott_mask(
    n_frames: int,
    loss_rate: float,
    mean_burst: float,
    rng: np.random.Generator,
    initial_bad: bool | None = None,
) -> BoolArray:
    """Per-frame loss mask (True = lost) from a two-state Gilbert-Elliott chain.

    Uses one uniform draw per frame (plus one for the initial state when ``initial_bad`` is
    None), so drawing in consecutive pieces gives the same mask as drawing at once.
    """
    p, r = gilbert_elliott_probs(loss_rate, mean_burst)
    if initial_bad is None:
        initial_bad = bool(rng.random() < loss_rate)
    u = rng.random(n_frames)
    lost = np.zeros(n_frames, dtype=bool)
    bad = initial_bad
    for i in range(n_frames):
        bad = bool(u[i] >= r) if bad else bool(u[i] < p)
        lost[i] = bad
    return lost


def jitter_late_mask(
    n_frames: int, jitter_ms: float, buffer_ms: float, rng: np.random.Generator
) -> BoolArray:
    """Frames whose network delay exceeds the jitter buffer arrive too late and are dropped.

    Per-frame extra delay is exponential with mean ``jitter_ms`` (one uniform draw per frame).
    """
    u = rng.random(n_frames)
    if jitter_ms <= 0.0:
        return np.zeros(n_frames, dtype=bool)
    delay = -jitter_ms * np.log1p(-u)
    return np.asarray(delay > buffer_ms)


@dataclass(frozen=True)
class PacketLossResult:
    audio: FloatArray
    lost_frames: BoolArray
    """Per-frame mask: True where the frame was dropped (burst loss or late arrival)."""
    late_frames: BoolArray
    frame_samples: int

    @property
    def achieved_loss_rate(self) -> float:
        return float(self.lost_frames.mean()) if len(self.lost_frames) else 0.0


def loss_burst_lengths(lost: BoolArray) -> npt.NDArray[np.int64]:
    """Lengths of consecutive runs of True in ``lost``."""
    x = np.concatenate([[False], np.asarray(lost, dtype=bool), [False]]).astype(np.int8)
    d = np.diff(x)
    starts = np.flatnonzero(d == 1)
    ends = np.flatnonzero(d == -1)
    return (ends - starts).astype(np.int64)


def packet_loss(
    audio: npt.ArrayLike,
    sample_rate: int,
    loss_rate: float,
    mean_burst: float,
    frame_ms: float = 20.0,
    rng: np.random.Generator | None = None,
    *,
    jitter_ms: float = 0.0,
    jitter_buffer_ms: float = 60.0,
) -> PacketLossResult:
    """Zero whole frames lost in Gilbert-Elliott bursts (no concealment).

    With ``jitter_ms`` > 0, frames delayed beyond ``jitter_buffer_ms`` are also dropped (late
    loss); the returned mask includes them, ``late_frames`` marks them alone.
    """
    if rng is None:
        raise ValueError("packet_loss needs an explicit numpy Generator")
    x = as_mono_float32(audio)
    stage = PacketLossChannel(
        sample_rate,
        loss_rate=loss_rate,
        mean_burst=mean_burst,
        frame_ms=frame_ms,
        rng=rng,
        jitter_ms=jitter_ms,
        jitter_buffer_ms=jitter_buffer_ms,
    )
    y = stage.process(x)
    return PacketLossResult(
        audio=y,
        lost_frames=stage.lost_mask(),
        late_frames=stage.late_mask(),
        frame_samples=stage.frame_samples,
    )


class PacketLossChannel:
    """Stateful packet loss over fixed frames; frames may straddle chunk boundaries.

    Random draws happen once per frame, when the frame starts, from two child generators
    (bursts, jitter) spawned from ``rng``, so chunking does not change the output.
    """

    def __init__(
        self,
        sample_rate: int,
        *,
        loss_rate: float,
        mean_burst: float,
        frame_ms: float = 20.0,
        rng: np.random.Generator,
        jitter_ms: float = 0.0,
        jitter_buffer_ms: float = 60.0,
    ) -> None:
        self.frame_samples = max(1, round(sample_rate * frame_ms / 1000.0))
        self._p, self._r = gilbert_elliott_probs(loss_rate, mean_burst)
        burst_rng, jitter_rng = rng.spawn(2)
        self._burst_rng = burst_rng
        self._jitter_rng = jitter_rng
        self._jitter_ms = jitter_ms
        self._buffer_ms = jitter_buffer_ms
        self._bad = bool(burst_rng.random() < loss_rate)
        self._pos = 0  # samples consumed so far
        self._lost: list[bool] = []
        self._late: list[bool] = []

    def _new_frames(self, n: int) -> None:
        u = self._burst_rng.random(n)
        late = jitter_late_mask(n, self._jitter_ms, self._buffer_ms, self._jitter_rng)
        for i in range(n):
            self._bad = bool(u[i] >= self._r) if self._bad else bool(u[i] < self._p)
            self._lost.append(self._bad or bool(late[i]))
            self._late.append(bool(late[i]) and not self._bad)

    def process(self, chunk: npt.ArrayLike) -> FloatArray:
        x = as_mono_float32(chunk).copy()
        start, end = self._pos, self._pos + len(x)
        needed = -(-end // self.frame_samples) - len(self._lost)
        if needed > 0:
            self._new_frames(needed)
        if len(x):
            frames = np.arange(start, end) // self.frame_samples
            lost = np.asarray(self._lost, dtype=bool)[frames]
            x[lost] = 0.0
        self._pos = end
        return x

    def lost_mask(self) -> BoolArray:
        """Frames started so far (True = dropped)."""
        return np.asarray(self._lost, dtype=bool)

    def late_mask(self) -> BoolArray:
        return np.asarray(self._late, dtype=bool)
