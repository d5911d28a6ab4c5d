"""A person as a call's endpoint: the agent speaks on the person's transport.

The transport is the browser page's WebRTC (``talk_web``) or the machine's microphone and
speaker (``talk_local``); the driver opens it and says when the person connects, hangs up or
goes away. There is no caller pipeline of ours, so:

- user channel: the person's audio as the agent's input transport receives it (the
  recorder's agent-side observer, exactly as for a simulator);
- agent channel: what the agent's output transport wrote to the person
  (:class:`OutputAudioTap`), since no simulator pipeline hears it.

The runner is the same as for a simulated caller (``call/runner.py``); the clock starts
when the person calls, not when the page opens.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from pipecat.observers.base_observer import BaseObserver
from pipecat.transports.base_transport import BaseTransport

from voxbench.pipelines.call.endpoint import LiveCall
from voxbench.pipelines.call.lifecycle import PipelineTask
from voxbench.pipelines.call.watch import CallWatch, SideState
from voxbench.pipelines.caller.side import CallerSide
from voxbench.pipelines.config import CallConfig
from voxbench.processors.control import EndRequest
from voxbench.processors.output_audio import OutputAudioTap
from voxbench.records import ConnectionEvent, Event, SimulatorInfo
from voxbench.records.events import Channel


class PersonCaller:
    """The person's end of the line. ``ready``: the agent is built and warm (the page may
    open); ``go``: the person is calling (the clock may start); ``started``: the agent runs."""

    caller_side: CallerSide | None = None

    def __init__(self, interface: str, connect_timeout_s: float = 30.0):
        self.interface = interface
        self.connect_timeout_s = connect_timeout_s
        self.transport: BaseTransport | None = None
        self.live: LiveCall | None = None
        self.tap: OutputAudioTap | None = None
        self.listeners: list[Callable[[Event], None]] = []
        self.hangup_by: str | None = None
        self.user_agent: str | None = None  # the browser's, for the record
        self.ready = asyncio.Event()
        self.go = asyncio.Event()
        self.started = asyncio.Event()

    # --- what the driver says -------------------------------------------------------
    async def connected(self) -> None:
        """The person's audio is up: note it, the agent greets."""
        if self.live is not None:
            await self.live.caller_connected("user")

    def disconnected(self) -> None:
        if self.live is None:
            return
        self.live.rec.emit(ConnectionEvent(t=self.live.clock.now(), side="user", state="disconnected"))
        self.hang_up("connection_closed")

    def hang_up(self, by: str = "person") -> bool:
        """The person ended the call (button, closed page, Enter/Ctrl-C)."""
        live = self.live
        if live is None or live.control.ending:
            return False
        self.hangup_by = by
        return live.control.end("end_call", t=live.clock.now())

    # --- what the runner asks (CallerEndpoint) ---------------------------------------
    def attach(self, live: LiveCall) -> CallConfig:
        self.live = live
        live.rec.listeners.extend(self.listeners)
        return live.cfg

    def agent_transport(self, live: LiveCall) -> BaseTransport:
        if self.transport is None:
            raise RuntimeError("the person's transport is not open (TalkCall.open)")
        return self.transport

    def agent_observers(self, live: LiveCall) -> list[BaseObserver]:
        self.tap = OutputAudioTap(live.rec, "agent")
        return [self.tap]

    async def before_clock(self, live: LiveCall) -> None:
        self.ready.set()
        await self.go.wait()

    async def after_agent_start(self, live: LiveCall, agent: PipelineTask) -> None:
        self.started.set()

    def watch(self, cfg: CallConfig) -> CallWatch:
        """A person who has not connected yet is not inactive; one who never connects is an
        infrastructure failure of the person's transport."""
        why = f"the person's audio never connected within {self.connect_timeout_s:.0f}s"
        return CallWatch(
            cfg.limits, self.connect_timeout_s, (why, "user_transport"), inactivity_after_connect=True
        )

    def side(self) -> SideState | None:
        return None

    def drains(self, req: EndRequest) -> bool:
        """The agent may finish its sentence, unless the person hung up on it."""
        return req.status == "completed" and self.hangup_by is None

    async def stop(self, timeout: float) -> None:
        return None

    def outputs(self) -> dict[Channel, Any]:
        return {}  # the person's transport paces itself (WebRTC, the sound card)

    def info(self, cfg: CallConfig) -> SimulatorInfo:
        return SimulatorInfo(kind="human", interface=self.interface, user_agent=self.user_agent)

    def extra(self, cfg: CallConfig) -> dict[str, Any]:
        chunks = self.tap.chunks if self.tap is not None else 0
        return {"human_call": True, "hangup_by": self.hangup_by, "agent_audio_chunks": chunks}
