"""A narrowband phone line: band-pass, resampling to 8 kHz, the G.711 mu-law round trip.

Pure numpy/scipy on mono ``float32`` audio in [-1, 1], like :mod:`.ops`. The stateful
:class:`TelephonyChannel` streams exactly (chunking does not change its output), and the
whole-signal :func:`telephony` runs it on one chunk, so both agree.
"""

from __future__ import annotations

from math import gcd

import numpy as np
import numpy.typing as npt
from scipy import signal

from .ops import FloatArray, as_mono_float32

TELEPHONY_RATE = 8000


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
