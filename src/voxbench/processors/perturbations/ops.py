"""Pure audio perturbation operations.

Every function takes mono ``float32`` audio in [-1, 1], an explicit ``sample_rate`` where the
operation depends on it, and an explicit ``numpy.random.Generator`` where it is random. Nothing
here reads globals, the clock or the file system, and nothing imports pipecat.

The streaming stages in :mod:`.streaming` reuse the filter designs below, so whole-signal and
chunked processing agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

import numpy as np
import numpy.typing as npt
from scipy import signal

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]

_EPS = 1e-12
TELEPHONY_RATE = 8000


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


# --------------------------------------------------------------------------------------------
# Telephony: band-pass, 8 kHz, G.711 mu-law
# --------------------------------------------------------------------------------------------


def bandpass_sos(
    sample_rate: int, low_hz: float = 300.0, high_hz: float = 3400.0, order: int = 4
) -> npt.NDArray[np.float64]:
    high = min(high_hz, 0.45 * sample_rate)
    return np.asarray(signal.butter(order, [low_hz, high], btype="bandpass", fs=sample_rate, output="sos"))


_MU_BIAS = 0x84
_MU_SEG_END = np.array([0x3F, 0x7F, 0xFF, 0x1FF, 0x3FF, 0x7FF, 0xFFF, 0x1FFF], dtype=np.int32)


def mulaw_encode(pcm16: npt.NDArray[np.int16]) -> npt.NDArray[np.uint8]:
    """G.711 mu-law encoding of 16-bit PCM (bit-exact with ``audioop.lin2ulaw``)."""
    x = np.asarray(pcm16, dtype=np.int32) >> 2  # 14-bit, arithmetic shift
    mask = np.where(x < 0, 0x7F, 0xFF)
    mag = np.minimum(np.abs(x), 8159) + (_MU_BIAS >> 2)
    seg = np.searchsorted(_MU_SEG_END, mag, side="left").astype(np.int32)
    code = np.where(seg >= 8, 0x7F, (seg << 4) | ((mag >> (seg + 1)) & 0x0F))
    return (code ^ mask).astype(np.uint8)


def mulaw_decode(codes: npt.NDArray[np.uint8]) -> npt.NDArray[np.int16]:
    """G.711 mu-law decoding to 16-bit PCM (bit-exact with ``audioop.ulaw2lin``)."""
    u = ~np.asarray(codes, dtype=np.int32) & 0xFF
    sign = u & 0x80
    exponent = (u >> 4) & 0x07
    mantissa = u & 0x0F
    mag = (((mantissa << 3) + _MU_BIAS) << exponent) - _MU_BIAS
    return np.where(sign != 0, -mag, mag).astype(np.int16)


def float_to_pcm16(audio: FloatArray) -> npt.NDArray[np.int16]:
    """Float in [-1, 1] to PCM16 (x 32768, clipped), the inverse of :func:`pcm16_to_float`."""
    return np.asarray(
        np.clip(np.round(np.asarray(audio, dtype=np.float64) * 32768.0), -32768, 32767), dtype=np.int16
    )


def pcm16_to_float(pcm: npt.NDArray[np.int16]) -> FloatArray:
    return (np.asarray(pcm, dtype=np.float32) / 32768.0).astype(np.float32)


def mulaw_roundtrip(audio: npt.ArrayLike) -> FloatArray:
    """Quantise float audio through G.711 mu-law and back."""
    return pcm16_to_float(mulaw_decode(mulaw_encode(float_to_pcm16(as_mono_float32(audio)))))


class PolyphaseResampler:
    """Causal, stateful rational resampler (streams exactly: chunking does not change output).

    Uses a Kaiser-windowed sinc low-pass like ``scipy.signal.resample_poly``, in polyphase form,
    keeping the input history between calls. It delays the signal by :attr:`delay_out` output
    samples (half the filter length).
    """

    def __init__(self, rate_in: int, rate_out: int, half_taps: int = 12, beta: float = 6.0) -> None:
        g = gcd(rate_in, rate_out)
        self.up = rate_out // g
        self.down = rate_in // g
        self.rate_in = rate_in
        self.rate_out = rate_out
        max_rate = max(self.up, self.down)
        n_taps = 2 * half_taps * max_rate + 1
        cutoff = 1.0 / max_rate  # relative to Nyquist of the upsampled rate
        h = signal.firwin(n_taps, 0.95 * cutoff, window=("kaiser", beta)) * self.up
        self.taps_per_phase = -(-n_taps // self.up)
        padded = np.zeros(self.taps_per_phase * self.up)
        padded[:n_taps] = h
        # bank[p, k] = h[p + k*up]: output at upsampled index m uses x[(m - p)/up - k]
        self.bank = padded.reshape(self.taps_per_phase, self.up).T.copy()
        self.delay_out = (n_taps - 1) / 2.0 / self.down
        self._hist = np.zeros(self.taps_per_phase - 1)
        self._n_in = 0  # input samples consumed so far
        self._n_out = 0  # output samples produced so far

    def process(self, x: npt.ArrayLike) -> FloatArray:
        x = np.asarray(x, dtype=np.float64)
        buf = np.concatenate([self._hist, x])
        n_in_total = self._n_in + len(x)
        # output j corresponds to upsampled index m = j*down; needs input index floor(m/up)
        # available when floor(m/up) < n_in_total
        last = (n_in_total * self.up - 1) // self.down if n_in_total > 0 else -1
        js = np.arange(self._n_out, last + 1)
        if len(js) == 0:
            out = np.zeros(0)
        else:
            m = js * self.down
            base = m // self.up  # absolute input index of the newest tap
            phase = m % self.up
            # buf index of absolute input i is i - (self._n_in - len(self._hist))
            offset = self._n_in - len(self._hist)
            k = np.arange(self.taps_per_phase)
            idx = (base - offset)[:, None] - k[None, :]
            out = np.einsum("jk,jk->j", buf[idx], self.bank[phase])
        keep = self.taps_per_phase - 1
        self._hist = buf[len(buf) - keep :] if keep > 0 else np.zeros(0)
        self._n_in = n_in_total
        self._n_out = last + 1
        return out.astype(np.float32)


class TelephonyChannel:
    """Stateful narrowband channel: band-pass -> 8 kHz -> G.711 -> back to ``sample_rate``.

    Chunking does not change the output. It delays the signal by :attr:`delay_samples`.
    """

    def __init__(
        self,
        sample_rate: int,
        *,
        low_hz: float = 300.0,
        high_hz: float = 3400.0,
        codec: str = "mulaw",
    ) -> None:
        if codec not in ("mulaw", "none"):
            raise ValueError(f"unknown codec {codec!r}")
        self.sample_rate = sample_rate
        self.codec = codec
        self._sos = bandpass_sos(sample_rate, low_hz, high_hz)
        self._zi = np.zeros((self._sos.shape[0], 2))
        self._down = PolyphaseResampler(sample_rate, TELEPHONY_RATE)
        self._up = PolyphaseResampler(TELEPHONY_RATE, sample_rate)
        delay_in = self._down.delay_out * sample_rate / TELEPHONY_RATE + self._up.delay_out
        self.delay_samples = round(delay_in)
        self._fifo = np.zeros(0, dtype=np.float32)

    def process(self, chunk: npt.ArrayLike) -> FloatArray:
        """Returns exactly ``len(chunk)`` samples (the resamplers' output is buffered)."""
        x = np.asarray(chunk, dtype=np.float64)
        y, self._zi = signal.sosfilt(self._sos, x, zi=self._zi)
        narrow = self._down.process(y)
        if self.codec == "mulaw":
            narrow = mulaw_roundtrip(narrow)
        self._fifo = np.concatenate([self._fifo, self._up.process(narrow)])
        if len(self._fifo) < len(x):  # never expected: the up-sampler runs ahead of the input
            self._fifo = np.concatenate([self._fifo, np.zeros(len(x) - len(self._fifo), np.float32)])
        out, self._fifo = self._fifo[: len(x)], self._fifo[len(x) :]
        return out


def telephony(
    audio: npt.ArrayLike,
    sample_rate: int,
    *,
    low_hz: float = 300.0,
    high_hz: float = 3400.0,
    codec: str = "mulaw",
) -> FloatArray:
    """Narrowband phone line: band-pass, resample to 8 kHz, G.711 mu-law round trip, back.

    Output has the input's length and rate; the resamplers' delay is compensated.
    """
    # The whole-signal version runs the streaming channel on one chunk, then removes the delay,
    # so streaming and whole-signal processing agree up to that shift.
    x = as_mono_float32(audio)
    stage = TelephonyChannel(sample_rate, low_hz=low_hz, high_hz=high_hz, codec=codec)
    delay = stage.delay_samples
    y = stage.process(np.concatenate([x, np.zeros(delay + 1, dtype=np.float32)]))
    return y[delay : delay + len(x)].astype(np.float32)


# --------------------------------------------------------------------------------------------
# Packet loss (Gilbert-Elliott) and jitter
# --------------------------------------------------------------------------------------------


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
