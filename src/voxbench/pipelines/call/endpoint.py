"""The two parts of a live call the runner composes: the call's shared state, and the caller
endpoint on the other end of the agent's line.

A call is the same machine whoever calls: build the agent on a transport, warm it, zero the
clock, start it, watch (:class:`~voxbench.pipelines.call.watch.CallWatch`), drain, stop,
write the record once. What differs is the other end of the line, a
:class:`CallerEndpoint`: a simulated caller over the loopback WebSocket
(``call/simulated.py``) or a person on a browser page or the machine's audio devices
(``human/person.py``). The endpoint answers the runner's few questions (which transport
the agent speaks on, when the clock may start, how the caller is watched, whether the last
words are let out, what the record says about the caller); everything else is shared.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pipecat.frames.frames import ErrorFrame, TTSSpeakFrame
from pipecat.observers.base_observer import BaseObserver
from pipecat.pipeline.worker import PipelineWorker
from pipecat.transports.base_transport import BaseTransport

from voxbench.pipelines.call.lifecycle import PipelineTask
from voxbench.pipelines.call.watch import CallWatch, Ending, SideState
from voxbench.pipelines.caller.side import CallerSide
from voxbench.pipelines.config import CallConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.processors.clock import ConversationClock
from voxbench.processors.control import CallControl, EndRequest
from voxbench.processors.recorder import ConversationRecorder
from voxbench.records import ConnectionEvent, ErrorEvent, SimulatorInfo
from voxbench.records.events import Channel, Side
from voxbench.scenarios import ToolExecutor


@dataclass
class LiveCall:
    """What the phases of one call share: the scenario, the config, the clock, the control,
    the recorder, the tool executor and the output folder (where each step is noted for a
    progress display, ``records/stage.py``). ``agent_worker`` is set once the agent is built."""

    call: CallScenario
    cfg: CallConfig
    clock: ConversationClock
    control: CallControl
    rec: ConversationRecorder
    executor: ToolExecutor
    out: Path | None = None
    agent_worker: PipelineWorker | None = None
    connected: asyncio.Event = field(default_factory=asyncio.Event)

    def fail(self, reason: str, cause: str, source: str) -> None:
        """End the call as an infrastructure failure (first request wins) and record why."""
        now = self.clock.now()
        if self.control.end(reason, status="infra_failure", error=cause, error_source=source, t=now):
            self.rec.emit(ErrorEvent(t=now, source=source, message=cause, fatal=True))

    def pipeline_error(self, side: Side, frame: ErrorFrame, reason: str, source: str) -> None:
        """Record a pipeline's error; when its processor can no longer run (pipecat marks
        it unusable), the call cannot go on: fail it with ``reason``, from ``source``."""
        proc = frame.processor
        self.rec.emit(ErrorEvent(t=self.clock.now(), side=side, source=str(proc), message=str(frame.error)))
        if proc is not None and not getattr(proc, "is_usable", True):
            self.fail(reason, f"{proc}: {frame.error}", source)

    def end(self, ending: Ending) -> None:
        if ending.status == "infra_failure":
            self.fail(ending.reason, ending.cause or ending.reason, ending.source or "runner")
        else:
            self.control.end(ending.reason, t=self.clock.now())

    async def caller_connected(self, side: Side) -> None:
        """The caller's audio is up (seen from ``side``): note it, and the agent greets, once."""
        if self.connected.is_set():
            return
        self.connected.set()
        self.rec.emit(ConnectionEvent(t=self.clock.now(), side=side, state="connected"))
        if self.cfg.agent.greeting and self.agent_worker is not None:
            await self.agent_worker.queue_frame(TTSSpeakFrame(self.cfg.agent.greeting))


class CallerEndpoint(Protocol):
    """The other end of the agent's line, as the runner sees it (one object per call)."""

    caller_side: CallerSide | None
    """The perturbation applied to what the caller sends (a simulated caller only)."""

    def attach(self, live: LiveCall) -> CallConfig:
        """Join the call before anything is built; returns the call's config as this caller
        needs it (an impatient perturbed caller waits less)."""
        ...

    def agent_transport(self, live: LiveCall) -> BaseTransport:
        """The transport the agent speaks on (the loopback server, a person's WebRTC...)."""
        ...

    def agent_observers(self, live: LiveCall) -> list[BaseObserver]:
        """Observers on the agent's pipeline besides the recorder's agent side."""
        ...

    async def before_clock(self, live: LiveCall) -> None:
        """The agent is built and warm; return when the clock may start (the LLM caller warmed
        on its prompt; a person pressed 'Call')."""
        ...

    async def after_agent_start(self, live: LiveCall, agent: PipelineTask) -> None:
        """The agent runs: connect the simulated caller (or let the person's driver know)."""
        ...

    def watch(self, cfg: CallConfig) -> CallWatch:
        """The watch rules for this caller (how long it may take to connect, and so on)."""
        ...

    def side(self) -> SideState | None:
        """The caller's pipeline as the watch sees it (None: no pipeline of ours)."""
        ...

    def drains(self, req: EndRequest) -> bool:
        """Whether the last words play out before the pipelines stop."""
        ...

    async def stop(self, timeout: float) -> None:
        """Stop the caller's pipeline, if any (bounded by ``timeout`` per step)."""
        ...

    def outputs(self) -> dict[Channel, Any]:
        """Each channel's output transport whose pacing the record reports."""
        ...

    def info(self, cfg: CallConfig) -> SimulatorInfo:
        """What the record says about the caller."""
        ...

    def extra(self, cfg: CallConfig) -> dict[str, Any]:
        """What this kind of caller adds to ``record.extra``."""
        ...
