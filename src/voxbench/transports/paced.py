"""Websocket ends whose audio leaves on the stream's own sample clock.

Pipecat's websocket outputs pace audio by sleeping *after* each send until
`next_send_time`, which starts at zero and is reset whenever a send finds it in the past.
So the first chunk of every stream (and the chunk after any stall of a chunk or more)
goes out with no sleep and the next one right behind it: from then on the stream runs one
chunk (40 ms by default) ahead of real time. A receiver that lays audio end to end then
places every later onset a chunk after it arrived; measured: +29 ms p50 on the user
channel of a fake call.

`SampleClockPacer` sleeps until the end of the audio already sent instead: chunk k
leaves at `t0 + (samples before it) / sr`, never early. Lateness up to `max_lag_s` (sleep
overshoot of a busy loop) is caught up, so the stream keeps its clock. A longer stall, or
an idle output (no mixer), re-anchors the clock: the voice resumes late, as a real-time
source would, instead of rushing the backlog out back to back. That matters because the
sender's loop stalls most when a TTS frame lands (its audio is cut into chunks and queued):
a rushed backlog would reach the listener as a compressed burst, so the listener's track
(which keeps speech contiguous) would place the rest of the utterance late by the stall.
On a `LogicalClockLoop` (real-time calls) the pacer reads the slot its timer was due at, so
a stall short of the loop's tolerated lag does not re-anchor: the chunks it held back leave
back to back after it and every one is heard at its slot by a listener in the same loop;
the real lateness is counted on the real clock (pacing health).
Everything else is pipecat's: chunking, mixer, interruption handling.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from pipecat.frames.frames import OutputAudioRawFrame
from pipecat.transports.base_output import BaseOutputTransport
from pipecat.transports.websocket.client import WebsocketClientOutputTransport, WebsocketClientTransport
from pipecat.transports.websocket.server import (
    SingleClientWebsocketServerOutputTransport,
    SingleClientWebsocketServerTransport,
)


class SampleClockPacer:
    """How long to wait after sending a chunk so the next one leaves on the sample clock."""

    def __init__(
        self,
        sample_rate: int,
        max_lag_s: float = 0.01,
        now: Callable[[], float] = time.monotonic,
        real_now: Callable[[], float] | None = None,
    ):
        """`now`: the transport passes the running loop's clock (virtual on a virtual-clock loop,
        the cause's due time on a `LogicalClockLoop`). `real_now`: the real clock lateness is
        measured on (a logical loop's `real_time`; by default `now`). `max_lag_s` (10 ms) is
        above the sleep overshoot of a loaded loop (p95 ~4 ms at load 6 on 2 cores) and below
        anything a listener would hear as a pause."""
        self.sr = sample_rate
        self.max_lag = max_lag_s
        self._now = now
        self._real_now = real_now or now
        self._t0: float | None = None
        self._samples = 0
        self.reanchors = 0  # chunks sent more than `max_lag_s` after their slot on `now`
        # chunks that really left more than `max_lag_s` after their slot: on a plain loop the
        # same count as `reanchors`; on a logical-clock loop the chunks a stall held back,
        # sent back to back after it, each count (they did leave late)
        self.late = 0
        self.max_late_s = 0.0  # the latest any chunk really left after its slot

    @property
    def samples_sent(self) -> int:
        """Samples sent since the clock was last anchored."""
        return self._samples

    @property
    def due(self) -> float | None:
        """When the audio sent so far ends (the next chunk's slot), or None before any."""
        return None if self._t0 is None else self._t0 + self._samples / self.sr

    def sent(self, n_samples: int) -> float:
        """Account for a chunk of `n_samples` that has just been sent; return the sleep."""
        now = self._now()
        due = self.due
        if due is not None:
            late = self._real_now() - due
            self.max_late_s = max(self.max_late_s, late)
            self.late += late > self.max_lag
        if due is None or now - due > self.max_lag:
            if due is not None:
                self.reanchors += 1
            self._t0, self._samples = now, 0
        self._samples += n_samples
        assert self._t0 is not None
        return max(0.0, self._t0 + self._samples / self.sr - now)


class _SampleClockPacing(BaseOutputTransport):
    """Replaces pipecat's sleep-after-send rule with `SampleClockPacer` (a mixin)."""

    _pacer: SampleClockPacer | None = None
    _chunk_samples = 0

    @property
    def pacer(self) -> SampleClockPacer | None:
        """The pacer, once the first chunk went out (None means pipecat never asked to sleep)."""
        return self._pacer

    async def write_audio_frame(self, frame: OutputAudioRawFrame) -> bool:
        self._chunk_samples = len(frame.audio) // 2 // max(1, frame.num_channels)
        if await super().write_audio_frame(frame):
            return True
        # No peer yet (the server before the caller connects): pipecat returns at once, so a
        # continuous output would spin through silence with no await that takes time; on a
        # virtual-clock loop that spin freezes the clock. Drop the chunk at its real pace.
        await asyncio.sleep(self._chunk_samples / max(1, frame.sample_rate))
        return False

    async def _write_audio_sleep(self) -> None:
        if self._pacer is None:
            loop = asyncio.get_running_loop()
            real = getattr(loop, "real_time", None)
            self._pacer = SampleClockPacer(self.sample_rate, now=loop.time, real_now=real)
        await asyncio.sleep(self._pacer.sent(self._chunk_samples))


class PacedClientOutput(_SampleClockPacing, WebsocketClientOutputTransport):
    """The simulator's output, paced on its sample clock."""


class PacedServerOutput(_SampleClockPacing, SingleClientWebsocketServerOutputTransport):
    """The agent's output, paced on its sample clock."""


class PacedWebsocketClientTransport(WebsocketClientTransport):
    """`WebsocketClientTransport` whose output is `PacedClientOutput`."""

    def output(self) -> WebsocketClientOutputTransport:
        if not self._output:
            self._output = PacedClientOutput(self, self._session, self._params)
        return self._output


class PacedWebsocketServerTransport(SingleClientWebsocketServerTransport):
    """`SingleClientWebsocketServerTransport` whose output is `PacedServerOutput`."""

    def output(self) -> SingleClientWebsocketServerOutputTransport:
        if not self._output:
            self._output = PacedServerOutput(self, self._params, name=self._output_name)
        return self._output
