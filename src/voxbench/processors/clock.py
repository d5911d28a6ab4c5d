"""One clock for a whole conversation, shared by both pipelines and the recorder."""

from __future__ import annotations

import asyncio
import time

from pipecat.clocks.base_clock import BaseClock

# Where a call's timeline starts on a loop that keeps its own clock (`ConversationClock.reset`).
CALL_ORIGIN_S = 1000.0


def loop_now() -> float:
    """Monotonic seconds on the running event loop's clock (`time.monotonic()` outside one).

    On asyncio's default loop this is `time.monotonic()`; on a virtual-clock loop
    (`transports/virtual_loop.py`) it is the virtual time, so everything that stamps or
    measures a call through it runs on the same clock as the loop's timers.
    """
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


def _now_ns() -> int:
    return round(loop_now() * 1e9)


class ConversationClock(BaseClock):
    """A monotonic clock whose zero is the conversation start.

    Pipecat calls `start()` once per worker; only the first call (or an explicit
    `reset()`) sets the zero, so the agent's and the simulator's observer timestamps
    (`FramePushed.timestamp`, ns) are on the same timeline as `now()` (seconds).
    """

    def __init__(self) -> None:
        self._t0_ns = 0

    def start(self) -> None:
        if self._t0_ns == 0:
            self._t0_ns = _now_ns()

    def reset(self) -> None:
        """Zero the clock now. On a loop that keeps its own clock (virtual or logical, see
        `transports/virtual_loop.py`) the loop's timeline is first relabelled to start at
        `CALL_ORIGIN_S`, so every run of a call computes on the same numbers."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        rebase = getattr(loop, "rebase", None)
        if rebase is not None:
            rebase(CALL_ORIGIN_S)
        self._t0_ns = _now_ns()

    @property
    def started(self) -> bool:
        return self._t0_ns != 0

    def get_time(self) -> int:
        return _now_ns() - self._t0_ns if self._t0_ns else 0

    def now(self) -> float:
        """Seconds since the conversation started."""
        return self.get_time() / 1e9
