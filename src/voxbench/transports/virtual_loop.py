"""An asyncio event loop on a virtual clock: a call with fake services runs faster than real time.

Why: a re-enacted conversation with fake services and synthetic voices spends almost all
of its wall time asleep (audio paced at 20-40 ms per chunk, silence timeouts, turn gaps).
`VirtualClockLoop` is a discrete-event simulator under asyncio: its `time()` is virtual,
and when nothing is ready to run it jumps straight to the next scheduled timer instead of
sleeping. Every `asyncio.sleep`, `wait_for` and `call_later` then costs only the CPU of
the work around it, and the timing stays exact (an audio chunk paced to leave at 1.240 s
leaves at 1.240 s, never a scheduler hiccup later).

What still works: real sockets (the loopback WebSocket between caller and agent). Before
a jump the selector is polled with a zero timeout, so bytes already on a socket are read
at the current virtual instant; a loopback send is in the receiver's buffer when `send()`
returns. Work handed to an executor (pipecat runs VAD analysis through
`run_in_executor`) runs inline, at the current instant, so no thread can finish "later"
behind the virtual clock's back.

What cannot run on it: anything whose result arrives from outside the loop in real time:
local models in a llama.cpp server or a thread (they would take zero virtual time and
block the loop), a person on `voxbench talk`, an external agent process. Those need the
real clock; `--virtual-clock` refuses them.

Pipecat reads `time.time()` / `time.monotonic()` directly in a few places (bot-speaking
throttle and silence in the output transport, VAD controller deadlines, the TTFB and
processing metrics a record keeps as `stage_timing` events, the STT base class's audio
timestamps, the stream resampler's idle reset); `virtual_time()` points those modules'
`time` at a view of the running loop's clock for the run. A reader missing from the list
shows up as a host-time figure in a record that should be identical run to run (the
golden call, tests/pipelines/test_golden_call.py, caught the metrics one).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import importlib
import itertools
import selectors
import time as _real_time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from types import ModuleType
from typing import Any, TypeVar

_T = TypeVar("_T")

# pipecat modules that read the wall or monotonic clock directly (pipecat 1.14).
PIPECAT_TIME_READERS = (
    "pipecat.transports.base_output",
    "pipecat.transports.websocket.client",
    "pipecat.transports.websocket.server",
    "pipecat.audio.vad.vad_controller",
    "pipecat.pipeline.worker",
    "pipecat.processors.metrics.frame_processor_metrics",
    "pipecat.services.stt_service",
    "pipecat.audio.resamplers.soxr_stream_resampler",
)


class OrderedTimer(asyncio.TimerHandle):
    """A timer that, due at the same instant as another, runs in the order it was scheduled.

    asyncio's heap breaks a tie between equal due times by its own layout, which depends on
    every push and pop before; two loops that pop timers at different moments (the virtual
    loop, the real-time logical one) would then run, say, the caller's "my turn is over" and
    the runner's watch tick of the same instant in either order, and end a call a tick apart.
    """

    __slots__ = ("_seq",)
    _seq: int
    _when: float  # asyncio's (not declared by typeshed)
    _scheduled: bool

    def __lt__(self, other: object) -> bool:
        if isinstance(other, OrderedTimer):
            return (self._when, self._seq) < (other._when, other._seq)
        return super().__lt__(other)  # type: ignore[operator]


def ordered_call_at(
    loop: Any, timer_cls: type[OrderedTimer], when: float, callback: Any, args: Any, context: Any
) -> Any:
    """`loop.call_at` with an `OrderedTimer` (numbered by `loop._timer_seq`)."""
    if when is None:
        raise TypeError("when cannot be None")
    loop._check_closed()
    timer = timer_cls(when, callback, args, loop, context)
    timer._seq = next(loop._timer_seq)
    heapq.heappush(loop._scheduled, timer)
    timer._scheduled = True
    return timer


class _JumpingSelector(selectors.DefaultSelector):
    """A selector that, instead of blocking until the next timer, advances the loop's clock."""

    def __init__(self, advance: Callable[[float], None]) -> None:
        super().__init__()
        self._advance = advance

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        ready = super().select(0)
        if ready or timeout is None or timeout <= 0:
            if not ready and timeout is None:
                return super().select(None)  # no timer at all: only the outside can wake us
            return ready
        self._advance(timeout)
        return []


class VirtualClockLoop(asyncio.SelectorEventLoop):
    """A selector event loop whose `time()` only moves when every task waits on a timer.

    The clock starts at `ORIGIN_S` every run (a fixed origin: two runs stamp alike to the
    bit) and each jump sets it to the next timer's due time exactly, not `now + timeout`,
    so no rounding accumulates over thousands of jumps.
    """

    ORIGIN_S = 1000.0

    def __init__(self) -> None:
        self._vnow = self.ORIGIN_S
        # whole seconds: `wall_time()` differences (pipecat's TTFB metrics subtract two
        # `time.time()` readings) then round alike in every run; a fractional offset would
        # move the rounding of a 1.7e9 s epoch value with the real start instant
        self._epoch_offset = float(int(_real_time.time() - self._vnow))
        self.jumps = 0
        self.skipped_s = 0.0
        self._timer_seq = itertools.count()
        super().__init__(_JumpingSelector(self._advance))

    def call_at(  # type: ignore[override]
        self, when: float, callback: Callable[..., Any], *args: Any, context: Any = None
    ) -> asyncio.TimerHandle:
        return ordered_call_at(self, OrderedTimer, when, callback, args, context)

    def _advance(self, timeout: float) -> None:
        due = self._scheduled[0].when() if self._scheduled else self._vnow + timeout  # type: ignore[attr-defined]
        due = min(due, self._vnow + timeout)  # the select cap (a day), never past it
        self.jumps += 1
        self.skipped_s += due - self._vnow
        self._vnow = max(self._vnow, due)

    def time(self) -> float:
        return self._vnow

    def rebase(self, to: float) -> None:
        """Relabel the timeline so that `time()` reads `to` now; timers move with it (the
        real-time `LogicalClockLoop` does the same, so both compute on the same numbers)."""
        delta = to - self._vnow
        self._vnow = to
        self._epoch_offset -= delta
        for timer in self._scheduled:  # type: ignore[attr-defined]
            timer._when += delta

    def wall_time(self) -> float:
        """The virtual clock as epoch seconds (what `time.time()` reads inside the run)."""
        return self._vnow + self._epoch_offset

    def run_in_executor(  # type: ignore[override]
        self, executor: Executor | None, func: Callable[..., _T], *args: Any
    ) -> asyncio.Future[_T]:
        """Run `func` now, inline: executor work takes no virtual time and cannot race the clock."""
        fut = self.create_future()
        try:
            fut.set_result(func(*args))
        except BaseException as exc:  # delivered to the awaiting task, as an executor would
            fut.set_exception(exc)
        return fut


def _running_virtual() -> Any:
    """The running loop when it keeps its own clock (`VirtualClockLoop`, or the real-time
    `logical_loop.LogicalClockLoop`: both have `wall_time()`), else None."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return loop if hasattr(loop, "wall_time") else None


class _TimeView(ModuleType):
    """The `time` module, except that `time`, `monotonic` (and their `_ns`) read a running
    loop that keeps its own clock when there is one. Outside one it is the real module."""

    def __init__(self) -> None:
        super().__init__("time")

    def __getattr__(self, name: str) -> Any:
        return getattr(_real_time, name)

    @staticmethod
    def time() -> float:
        loop = _running_virtual()
        return loop.wall_time() if loop else _real_time.time()

    @staticmethod
    def monotonic() -> float:
        loop = _running_virtual()
        return loop.time() if loop else _real_time.monotonic()

    @staticmethod
    def monotonic_ns() -> int:
        loop = _running_virtual()
        return round(loop.time() * 1e9) if loop else _real_time.monotonic_ns()


@contextlib.contextmanager
def virtual_time(modules: tuple[str, ...] = PIPECAT_TIME_READERS) -> Iterator[None]:
    """Point `modules`' `time` global at the loop-aware view for the duration."""
    view = _TimeView()
    saved: list[tuple[ModuleType, Any]] = []
    for name in modules:
        mod = importlib.import_module(name)
        saved.append((mod, mod.__dict__.get("time")))
        mod.time = view  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for mod, old in saved:
            mod.time = old  # type: ignore[attr-defined]


def run_virtual(coro: Any) -> Any:
    """`asyncio.run(coro)` on a `VirtualClockLoop`, with pipecat's direct clock reads on it."""
    with virtual_time(), asyncio.Runner(loop_factory=VirtualClockLoop) as runner:
        return runner.run(coro)


def run_maybe_virtual(coro: Any, virtual: bool) -> Any:
    """`run_virtual(coro)` when `virtual`, else in real time on a `LogicalClockLoop`
    (`logical_loop.py`: stamps where the virtual clock would, while real time passes)."""
    if virtual:
        return run_virtual(coro)
    from voxbench.transports.logical_loop import run_logical

    return run_logical(coro)
