"""Per-chunk timing probes for the live loop (benchmark instrumentation, not product code).

`HopProbes` wraps, for the duration of a `with` block, the points a chunk of audio passes
on its way from one bot to the other, and stamps each on the conversation clock:

    mix    the sender's output mixer produced the chunk (pipecat's output transport)
    sent   the sender's websocket send returned (serialize + send)
    recv   the receiver's serializer was handed the message (socket receive task)
    push   the receiver's input transport pushed it into the pipeline (observer stamp)
    placed where the recorder laid it on the channel's timeline

Chunks are matched sender -> receiver by order (one TCP stream, every message is audio),
receiver hops by frame id. Truth onsets come from the signal itself: the first non-zero
sample after >= 0.3 s of digital silence in what the sender put on the wire, at the send
time of its chunk plus its offset in the chunk.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import numpy as np

from voxbench.processors.audio_track import Placement, TimelineTrack
from voxbench.processors.clock import ConversationClock
from voxbench.processors.recorder import ConversationRecorder
from voxbench.transports.paced import PacedClientOutput, PacedServerOutput, _SampleClockPacing
from voxbench.transports.pacing import ContinuousMixer
from voxbench.transports.serializers import AudioOnlyProtobufSerializer

QUIET_BEFORE_ONSET_S = 0.3


@dataclass
class Direction:
    """One direction of the wire: user (simulator -> agent) or agent (agent -> simulator)."""

    sr: int
    amp: int = 1  # a sample at or above this magnitude is sound (1: any non-zero sample)
    sent: list[tuple[float, float]] = field(default_factory=list)  # (mix, sent)
    recv: list[tuple[float, int | None]] = field(default_factory=list)  # (recv, frame id)
    push: dict[int, tuple[float, float]] = field(default_factory=dict)  # id -> (push, placed)
    true_onsets: list[float] = field(default_factory=list)
    true_offsets: list[float] = field(default_factory=list)
    tts_ready: list[float] = field(default_factory=list)
    _zeros_run: int = 0
    _last_sound: float | None = None  # end of the last non-zero sample of an open sound

    def scan_truth(self, pcm: np.ndarray, t_sent: float) -> None:
        """Record signal onsets (first sound sample after >= 0.3 s without one) and offsets
        (end of the last sound sample before >= 0.3 s without one) in a sent chunk."""
        quiet_n = QUIET_BEFORE_ONSET_S * self.sr
        nz = np.flatnonzero(np.abs(pcm.astype(np.int32)) >= self.amp)
        if nz.size == 0:
            self._zeros_run += pcm.size
            if self._last_sound is not None and self._zeros_run >= quiet_n:
                self.true_offsets.append(self._last_sound)
                self._last_sound = None
            return
        if self._zeros_run + int(nz[0]) >= quiet_n:
            if self._last_sound is not None:
                self.true_offsets.append(self._last_sound)
            self.true_onsets.append(t_sent + int(nz[0]) / self.sr)
        self._zeros_run = pcm.size - 1 - int(nz[-1])
        self._last_sound = t_sent + (int(nz[-1]) + 1) / self.sr

    def hops(self) -> dict[str, list[float]]:
        """Per-chunk hop durations in ms (signed for placement)."""
        out: dict[str, list[float]] = {"send": [], "wire": [], "queue": [], "added": [], "placed": []}
        for (t_mix, t_sent), (t_recv, fid) in zip(self.sent, self.recv, strict=False):
            out["send"].append(1000 * (t_sent - t_mix))
            out["wire"].append(1000 * (t_recv - t_sent))
            if fid is None or fid not in self.push:
                continue
            t_push, t_placed = self.push[fid]
            out["queue"].append(1000 * (t_push - t_recv))
            out["added"].append(1000 * (t_push - t_mix))
            out["placed"].append(1000 * (t_placed - t_push))
        return out

    def quantization_ms(self) -> list[float]:
        """TTS audio ready -> its onset leaves the sender (pacing tick + pipeline transit)."""
        out = []
        for t in self.tts_ready:
            later = [o for o in self.true_onsets if o >= t]
            if later and later[0] - t < 0.5:
                out.append(1000 * (later[0] - t))
        return out


def onset_errors_ms(
    true: list[float], stamped: list[float], within_s: float = 0.2
) -> tuple[list[float], int]:
    """Signed stamped - true (ms) for each true onset with a stamp within `within_s`; and misses."""
    errs, missed = [], 0
    for t in true:
        near = [s for s in stamped if abs(s - t) <= within_s]
        if near:
            errs.append(1000 * (min(near, key=lambda s: abs(s - t)) - t))
        else:
            missed += 1
    return errs, missed


class HopProbes:
    """Installs the probes on the classes for one call; `with HopProbes(clock, sr) as p: ...`."""

    def __init__(self, clock: ConversationClock, sample_rate: int, threshold_db: float | None = None):
        """``threshold_db``: true onsets at the recorder's detection level (a voice whose
        leading samples are quiet but not zero, like Piper's); None: any non-zero sample."""
        self.clock = clock
        amp = 1 if threshold_db is None else max(1, int(np.ceil(32768.0 * 10 ** (threshold_db / 20))))
        self.user = Direction(sample_rate, amp)
        self.agent = Direction(sample_rate, amp)
        self._mix_t: dict[int, float] = {}
        self._saved: list[tuple[Any, str, Any]] = []

    def _patch(self, owner: Any, name: str, make: Callable[[Any], Any]) -> None:
        orig = owner.__dict__[name] if name in owner.__dict__ else getattr(owner, name)
        self._saved.append((owner, name, owner.__dict__.get(name)))
        setattr(owner, name, make(orig))

    def _direction(self, out: Any) -> Direction:
        return self.user if isinstance(out, PacedClientOutput) else self.agent

    def __enter__(self) -> HopProbes:
        now, probes = self.clock.now, self

        def mix(orig: Any) -> Any:
            async def wrapped(m: ContinuousMixer, audio: bytes) -> bytes:
                t = now()
                out: bytes = await orig(m, audio)
                probes._mix_t[id(out)] = t
                return out

            return wrapped

        def write_audio(orig: Any) -> Any:
            async def wrapped(out: Any, frame: Any) -> bool:
                out._probe = (probes._mix_t.pop(id(frame.audio), None), frame.audio)
                return bool(await orig(out, frame))

            return wrapped

        def write_frame(orig: Any) -> Any:
            async def wrapped(out: Any, frame: Any) -> bool:
                ok = bool(await orig(out, frame))
                probe = getattr(out, "_probe", None)
                if ok and probe is not None and probe[0] is not None:
                    t_sent, d = now(), probes._direction(out)
                    d.sent.append((probe[0], t_sent))
                    d.scan_truth(np.frombuffer(probe[1], dtype=np.int16), t_sent)
                out._probe = None
                return ok

            return wrapped

        def deserialize(orig: Any) -> Any:
            async def wrapped(ser: AudioOnlyProtobufSerializer, data: Any) -> Any:
                t = now()
                frame = await orig(ser, data)
                d = probes.user if ser.on_interruption is None else probes.agent
                d.recv.append((t, frame.id if frame is not None else None))
                return frame

            return wrapped

        def place(orig: Any) -> Any:
            def wrapped(
                tr: TimelineTrack,
                samples: np.ndarray,
                t: float,
                quiet: bool = False,
                starts_sound: bool = False,
            ) -> Placement:
                pl: Placement = orig(tr, samples, t, quiet, starts_sound)
                tr._probe_last = pl  # type: ignore[attr-defined]
                return pl

            return wrapped

        def add_audio(orig: Any) -> Any:
            def wrapped(rec: ConversationRecorder, channel: str, frame: Any, t: float) -> None:
                orig(rec, channel, frame, t)
                pl = getattr(rec.tracks[channel], "_probe_last", None)  # type: ignore[index]
                if not rec.frozen and pl is not None:
                    d = probes.user if channel == "user" else probes.agent
                    d.push[frame.id] = (t, pl.start)

            return wrapped

        self._patch(ContinuousMixer, "mix", mix)
        self._patch(_SampleClockPacing, "write_audio_frame", write_audio)
        self._patch(PacedClientOutput, "_write_frame", write_frame)
        self._patch(PacedServerOutput, "_write_frame", write_frame)
        self._patch(AudioOnlyProtobufSerializer, "deserialize", deserialize)
        self._patch(TimelineTrack, "place", place)
        self._patch(ConversationRecorder, "add_audio", add_audio)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        for owner, name, prev in reversed(self._saved):
            if prev is None:
                delattr(owner, name)
            else:
                setattr(owner, name, prev)
        self._saved.clear()
