"""When a running call ends, and when its last words have played out: two small state
machines on the conversation clock.

They read only the times and states they are given (no sleeping, no wall clock), so the
runner and the person-in-the-loop call (`voxbench talk`) share one set of rules, and a
test drives them on virtual time and asserts exact outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass

from voxbench.pipelines.config import LimitsConfig
from voxbench.records import RecordStatus


@dataclass(frozen=True)
class Ending:
    """Why the call ends: an end reason, and for an infrastructure failure its cause."""

    reason: str
    status: RecordStatus = "completed"
    cause: str | None = None
    source: str | None = None


@dataclass(frozen=True)
class SideState:
    """One pipeline as the watch sees it at a tick: its task's failure, or done without one."""

    failure: str | None = None
    done: bool = False


@dataclass(frozen=True)
class CallWatch:
    """The watch loop's rules. ``connect_timeout_s``: the caller must be connected by then
    (``no_connection`` = cause and source otherwise); ``inactivity_after_connect``: a person
    who has not connected yet is not inactive (`voxbench talk`)."""

    limits: LimitsConfig
    connect_timeout_s: float
    no_connection: tuple[str, str] = ("the simulator never connected", "simulator_transport")
    inactivity_after_connect: bool = False

    def check(
        self, now: float, agent: SideState, caller: SideState | None, connected: bool, last_speech_t: float
    ) -> Ending | None:
        """The ending at time ``now`` (first rule that fires wins), or None to keep going."""
        if failed := _failed(agent, "agent", "agent_error"):
            return failed
        if caller is not None and (failed := _failed(caller, "simulator", "simulator_error")):
            return failed
        if not connected and now > self.connect_timeout_s:
            cause, source = self.no_connection
            return Ending("connection_lost", "infra_failure", cause, source)
        if now >= self.limits.time_limit_s:
            return Ending("time_limit")
        may_idle = connected or not self.inactivity_after_connect
        if may_idle and now - max(last_speech_t, 0.0) >= self.limits.inactivity_s:
            return Ending("inactivity_timeout")
        return None


def _failed(side: SideState, name: str, reason: str) -> Ending | None:
    if side.failure:
        return Ending(reason, "infra_failure", side.failure, name)
    if side.done:
        return Ending(reason, "infra_failure", f"the {name} pipeline stopped", name)
    return None


@dataclass
class Drain:
    """Let the last words play out: done once nobody has spoken for ``quiet_s``, or when
    ``drain_s`` has passed since ``start``, whichever comes first."""

    start: float
    drain_s: float
    quiet_s: float = 0.6

    def __post_init__(self) -> None:
        self._quiet_since = self.start

    def done(self, now: float, speaking: bool) -> bool:
        if now >= self.start + self.drain_s:
            return True
        if speaking:
            self._quiet_since = now
            return False
        return now - self._quiet_since > self.quiet_s
