# This module extends asyncio's selector loop through its private internals (Python 3.11:
# `_ready`, `_scheduled`, `_run_once`, `_process_events`, the socket transport), which
# typeshed does not declare.
# mypy: disable-error-code="attr-defined, has-type, misc, name-defined"
"""An asyncio event loop in real time whose clock reads when a callback's cause was due.

Why: on the plain asyncio loop a callback reads `loop.time()` when the loop gets round
to it: a timer overshoots its due time by the loop's scheduling jitter (0.1-5 ms, more on
a loaded machine), an audio chunk is read a transit and a queue later than it was sent,
and every decision and stamp downstream inherits the delay. Pipecat decides at chunk
arrival (VAD), sleeps from "now" (turn-stop timers, a TTS's latency), and a caller polls
on its own timer; so a few ms of jitter move a turn decision by a whole 40 ms chunk, and
two real-time runs of the same call (or a real-time and a virtual-clock run) disagree.

`LogicalClockLoop` keeps the real clock for *when* things run (it is an ordinary selector
loop: timers fire in real time, audio leaves when its pacer's timer fires, threads and
other processes take the time they take) but makes `loop.time()`, inside a callback, the
time its *cause* was due, carried along the chain of callbacks:

* a timer's callback runs at the timer's due time (`asyncio.sleep(d)` started at `t`
  wakes at exactly `t + d`, however late the loop got to it);
* a callback scheduled by another (`call_soon`: a task step after a future resolved, a
  queue hand-off, a frame pushed downstream) runs at its scheduler's time;
* bytes read from a socket whose peer is in this loop (the loopback WebSocket between
  caller and agent) are read at the time the peer wrote them: a received audio chunk is
  heard at its sender's sample-clock slot, the stream position it was sent for; a
  connection is accepted when it was opened;
* anything from outside the loop (a thread's result, an executor's, another process's
  socket, a person) arrives at the real time it arrived.

So with fake services a real-time call stamps every event where the virtual-clock run
(`virtual_loop.py`, compute takes no time) does. Work done *on* the loop takes no time on
this clock either (a callback's stamps do not move while it computes); work off the loop
(local models in threads, llama.cpp over HTTP, an external agent) counts in full. A cause
more than `max_lag_s` (`MAX_LAG_S`, 0.1 s) in the past (the loop stalled, or a long
computation ran inline) is taken as `real - max_lag_s`: a stall longer than that shows in
the record as lateness, it is not hidden. `lag_max_s` and `clamped` say how far the loop fell behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import selectors
import socket
import threading
import time as _real_time
from asyncio import events, selector_events
from asyncio.base_events import _MIN_CANCELLED_TIMER_HANDLES_FRACTION as _MIN_CANCELLED_FRACTION
from asyncio.base_events import _MIN_SCHEDULED_TIMER_HANDLES, MAXIMUM_SELECT_TIMEOUT
from collections.abc import Callable
from typing import Any

from voxbench.transports.virtual_loop import OrderedTimer, VirtualClockLoop, ordered_call_at, virtual_time

Address = Any  # a socket address as `getsockname()` / `getpeername()` return it

# How far a callback's cause may lag the real clock and still be its time. Above the loop's
# scheduling jitter on a busy 2-core machine (lags of 20-90 ms measured at load 4-5 with tone
# voices), and small enough that a starved loop does not build a backlog: with local models,
# a thread's result (cause: real time) waits until the loop's timeline has caught up to it,
# and the audio held back by a stall is sent back to back. Past it the loop runs at
# `real - MAX_LAG_S` and the pacer re-anchors, as on the plain loop. Measured (Piper selftest,
# toy, load ~5): worst chunk 375 ms late with 0.5 s, 80 ms with 0.1 s, 59 ms on the plain loop.
MAX_LAG_S = 0.1
# A cause further than this ahead of the real clock is not one of this timeline.
FOREIGN_S = 0.001


class _CausedHandle(events.Handle):
    """A `call_soon` callback; it runs at `_cause`, the loop time of whatever scheduled it
    (the running callback's, or the real time it was scheduled from outside one)."""

    __slots__ = ("_cause",)

    def _run(self) -> None:
        self._loop._run_at(self._cause, super()._run)


class _DueHandle(OrderedTimer):
    """A timer callback; it runs at its due time (ties in the order they were scheduled)."""

    __slots__ = ()

    def _run(self) -> None:
        self._loop._run_at(self._when, super()._run)


def _cause(handle: events.Handle, default: float) -> float:
    if isinstance(handle, events.TimerHandle):
        return handle._when
    cause = getattr(handle, "_cause", None)
    return default if cause is None else cause


class _StampedSocketTransport(selector_events._SelectorSocketTransport):
    """Notes, per local address, the loop time of its last write or close (what a peer in
    the same loop reads, it reads at that time)."""

    def _note(self) -> None:
        if self._loop is not None and self._sock is not None:
            self._loop._note_sent(self._sock)

    def write(self, data: Any) -> None:
        self._note()
        super().write(data)

    def close(self) -> None:
        self._note()
        super().close()

    def abort(self) -> None:
        self._note()
        super().abort()

    def _call_connection_lost(self, exc: BaseException | None) -> None:
        if self._loop is not None:  # the fd may be reused by a socket of another peer
            self._loop._peer.pop(self._sock_fd, None)
        super()._call_connection_lost(exc)


class LogicalClockLoop(asyncio.SelectorEventLoop):
    """A real-time selector loop whose `time()` is, inside a callback, its cause's due time."""

    def __init__(self, max_lag_s: float = MAX_LAG_S) -> None:
        super().__init__()
        self.max_lag_s = max_lag_s
        self._logical: float | None = None
        # loop time = real monotonic time - _shift: from ORIGIN_S at creation (as the virtual
        # loop), so a call's `rebase` at its clock zero moves it by the set-up's seconds only
        self._shift = _real_time.monotonic() - VirtualClockLoop.ORIGIN_S
        self._batch: list[events.Handle] = []  # the callbacks `_run_once` is running now
        self._epoch_offset = _real_time.time() - _real_time.monotonic()
        self._sent_at: dict[Address, float] = {}  # local address -> loop time of its last write
        self._peer: dict[int, Address] = {}  # fd -> the address whose writes wake it
        self._timer_seq = itertools.count()
        self.lag_max_s = 0.0  # the furthest a cause was behind real time when its callback ran
        self.clamped = 0  # callbacks whose cause was more than max_lag_s behind

    # ---- the clock
    def time(self) -> float:
        lt = self._logical
        return _real_time.monotonic() - self._shift if lt is None else lt

    def real_time(self) -> float:
        """The real clock, on the loop's time scale (what lateness is measured against)."""
        return _real_time.monotonic() - self._shift

    def wall_time(self) -> float:
        """`time()` as epoch seconds (what `time.time()` reads inside a run)."""
        return self.time() + self._epoch_offset

    def rebase(self, to: float) -> None:
        """Relabel the loop's timeline so that the real time now reads `to`, and run the
        current callback at it (timers, pending callbacks, notes of sends and the epoch
        offset move with the timeline: nothing fires earlier or later).

        Float arithmetic on times rounds by their magnitude: the same turn-gap test on the
        same stamps can tip the other way when the timeline reads 1000.0 at the call's start
        (the virtual loop) or 1000.0 plus the seconds the set-up took. A call zeroes its clock with `rebase(CALL_ORIGIN_S)`
        on either loop, so both compute on the same numbers; and whatever the set-up before
        it computed inline (building pipelines) leaves no lag behind the real clock."""
        real = self.real_time()
        now = real if self._logical is None else self._logical
        self._shift -= to - real  # the real clock now reads `to`...
        self._epoch_offset -= to - real
        delta = to - now  # ...and so does this callback's (and its batch's) cause
        if self._logical is not None:
            self._logical = to
        for timer in self._scheduled:
            timer._when += delta
        # the ready queue, and the rest of the batch this callback runs in (its handles are
        # out of the queue: left unshifted they would run, and sleep, on the old timeline)
        for handle in (*self._ready, *self._batch):
            if isinstance(handle, _CausedHandle):
                handle._cause += delta
            elif isinstance(handle, events.TimerHandle):
                handle._when += delta
        self._sent_at = {k: v + delta for k, v in self._sent_at.items()}

    def _enter(self, cause: float | None) -> None:
        real = _real_time.monotonic() - self._shift
        if cause is None:  # a handle asyncio made itself (a signal's)
            self._logical = real
            return
        if cause > real + FOREIGN_S:  # not on this timeline (a missed relabelling): never ahead
            cause = real
        lag = real - cause
        if lag > self.lag_max_s:
            self.lag_max_s = lag
        if lag > self.max_lag_s:
            self.clamped += 1
            cause = real - self.max_lag_s
        self._logical = cause

    def _run_at(self, cause: float | None, run: Callable[[], None]) -> None:
        """Run a callback with the clock at its cause (see `_enter`), the real clock after."""
        self._enter(cause)
        try:
            run()
        finally:
            self._logical = None

    def _cause_now(self) -> float:
        """The running callback's loop time; outside one (or from another thread: an
        executor's result, a signal) the real time now."""
        if self._logical is None or threading.get_ident() != self._thread_id:
            return self.real_time()
        return self._logical

    # ---- callbacks carry their cause's time
    def _call_soon(self, callback: Callable[..., Any], args: Any, context: Any) -> events.Handle:
        handle = _CausedHandle(callback, args, self, context)
        handle._cause = self._cause_now()
        self._ready.append(handle)
        return handle

    def call_at(  # type: ignore[override]
        self, when: float, callback: Callable[..., Any], *args: Any, context: Any = None
    ) -> Any:
        return ordered_call_at(self, _DueHandle, when, callback, args, context)

    # ---- one iteration: wait for real time, then run the earliest-caused work first
    def _run_once(self) -> None:
        """asyncio's `_run_once` (Python 3.11), except that of the ready callbacks only those
        with the earliest cause run, so an instant's work (and what it schedules, and what
        its socket writes wake) is done before a later instant's, as on the virtual clock;
        the rest wait for the next iteration, after another I/O poll. When the loop keeps
        up, that is the order asyncio runs them in anyway; when it has fallen behind, the
        backlog is caught up in the order it was due, not in the order it piled up."""
        self._drop_cancelled_timers()
        timeout = None
        if self._ready or self._stopping:
            timeout = 0.0
        elif self._scheduled:
            timeout = min(max(0.0, self._scheduled[0]._when - self.real_time()), MAXIMUM_SELECT_TIMEOUT)
        self._process_events(self._selector.select(timeout))
        end_time = self.real_time() + self._clock_resolution
        while self._scheduled and self._scheduled[0]._when < end_time:
            timer = heapq.heappop(self._scheduled)
            timer._scheduled = False
            self._ready.append(timer)
        if not self._ready:
            return
        now = self.real_time()
        # popleft, not a copy and clear(): another thread may append (call_soon_threadsafe)
        taken = [self._ready.popleft() for _ in range(len(self._ready))]
        pending = sorted(taken, key=lambda h: _cause(h, now))  # stable: FIFO within an instant
        first = _cause(pending[0], now) + self._clock_resolution
        self._batch = [h for h in pending if _cause(h, now) < first]
        self._ready.extendleft(reversed([h for h in pending if _cause(h, now) >= first]))
        try:
            for handle in self._batch:
                if not handle._cancelled:
                    handle._run()
        finally:
            self._batch = []

    def _drop_cancelled_timers(self) -> None:
        """As asyncio does at the top of each iteration."""
        n = len(self._scheduled)
        if n > _MIN_SCHEDULED_TIMER_HANDLES and self._timer_cancelled_count / n > _MIN_CANCELLED_FRACTION:
            kept = []
            for timer in self._scheduled:
                if timer._cancelled:
                    timer._scheduled = False
                else:
                    kept.append(timer)
            heapq.heapify(kept)
            self._scheduled = kept
            self._timer_cancelled_count = 0
            return
        while self._scheduled and self._scheduled[0]._cancelled:
            self._timer_cancelled_count -= 1
            timer = heapq.heappop(self._scheduled)
            timer._scheduled = False

    # ---- sockets: what a peer in this loop sent is read at the time it was sent
    def _note_sent(self, sock: socket.socket) -> None:
        with contextlib.suppress(OSError):
            self._sent_at[sock.getsockname()] = self.time()

    def _make_socket_transport(
        self, sock: Any, protocol: Any, waiter: Any = None, *, extra: Any = None, server: Any = None
    ) -> Any:
        with contextlib.suppress(OSError):
            self._peer[sock.fileno()] = sock.getpeername()
        return _StampedSocketTransport(self, sock, protocol, waiter, extra, server)

    def _start_serving(self, protocol_factory: Any, sock: Any, *args: Any, **kwargs: Any) -> None:
        self._peer[sock.fileno()] = ("connect", sock.getsockname())
        super()._start_serving(protocol_factory, sock, *args, **kwargs)

    def _stop_serving(self, sock: Any) -> None:
        self._peer.pop(sock.fileno(), None)
        super()._stop_serving(sock)

    def _sock_connect(self, fut: Any, sock: Any, address: Any) -> None:
        now = self.time()
        self._sent_at[("connect", address)] = now  # the listening socket wakes for this
        super()._sock_connect(fut, sock, address)
        try:  # the connecting socket itself becomes writable when connected
            own = sock.getsockname()
            self._sent_at[own] = now
            self._peer[sock.fileno()] = own
        except OSError:
            pass

    def _process_events(self, event_list: list[tuple[selectors.SelectorKey, int]]) -> None:
        for key, mask in event_list:
            reader, writer = key.data
            cause = self._sent_at.get(self._peer.get(key.fd))
            real = self.real_time()
            if cause is None or real - cause > self.max_lag_s:
                cause = real  # not a peer in this loop (or a stale note): it arrived now
            for flag, handle, remove in (
                (selectors.EVENT_READ, reader, self._remove_reader),
                (selectors.EVENT_WRITE, writer, self._remove_writer),
            ):
                if not mask & flag or handle is None:
                    continue
                if handle._cancelled:
                    remove(key.fileobj)
                else:
                    io = _CausedHandle(_run_unless_cancelled, (handle,), self, None)
                    io._cause = cause
                    self._ready.append(io)


def _run_unless_cancelled(handle: events.Handle) -> None:
    if not handle._cancelled:
        handle._run()


def run_logical(coro: Any, max_lag_s: float = MAX_LAG_S) -> Any:
    """`asyncio.run(coro)` on a `LogicalClockLoop`, with pipecat's direct clock reads on it."""
    with virtual_time(), asyncio.Runner(loop_factory=lambda: LogicalClockLoop(max_lag_s)) as runner:
        return runner.run(coro)
