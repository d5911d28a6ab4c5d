"""One clock for a whole conversation, shared by both pipelines and the recorder."""

from __future__ import annotations

import time

from pipecat.clocks.base_clock import BaseClock


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
            self._t0_ns = time.monotonic_ns()

    def reset(self) -> None:
        self._t0_ns = time.monotonic_ns()

    @property
    def started(self) -> bool:
        return self._t0_ns != 0

    def get_time(self) -> int:
        return time.monotonic_ns() - self._t0_ns if self._t0_ns else 0

    def now(self) -> float:
        """Seconds since the conversation started."""
        return self.get_time() / 1e9
