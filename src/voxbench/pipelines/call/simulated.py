"""The simulated caller as a call's endpoint: the agent listens on a loopback WebSocket
server, the caller's pipeline (any registered kind, ``caller/registry.py``) connects to it as
the client.

A perturbation (:class:`CallerSide`) transforms every chunk the caller sends and adds its
behaviour; the record names the caller's services and the perturbation.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pipecat.frames.frames import ErrorFrame
from pipecat.observers.base_observer import BaseObserver
from pipecat.pipeline.worker import PipelineWorker
from pipecat.transports.base_transport import BaseTransport
from pipecat.workers.runner import WorkerRunner

from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.call.endpoint import LiveCall
from voxbench.pipelines.call.lifecycle import PipelineTask, make_worker, stop_worker
from voxbench.pipelines.call.watch import CallWatch, SideState
from voxbench.pipelines.caller.registry import CallerBuild, caller_entry
from voxbench.pipelines.caller.side import CallerSide, CallPerturbation
from voxbench.pipelines.config import CallConfig
from voxbench.processors.control import EndRequest
from voxbench.records import ConnectionEvent, SimulatorInfo
from voxbench.records.events import Channel
from voxbench.transports.pairing import free_port
from voxbench.transports.serializers import TwilioClientSerializer
from voxbench.transports.wire import make_client, make_server, simulator_serializer


class SimulatedCaller:
    """A caller pipeline of ours on the client side of the loopback WebSocket, built by the
    registry entry of the call's caller kind (:class:`~voxbench.pipelines.caller.registry.CallerBuild`).

    ``seed``: the goal caller's phrasings; ``tool_holds``: the agent speaks before every tool
    call (the trace caller then waits for those holds)."""

    def __init__(
        self,
        services: SimulatorServices,
        perturbation: CallPerturbation | None = None,
        seed: int = 0,
        tool_holds: bool = False,
    ):
        self.services = services
        self.perturbation = perturbation
        self.seed = seed
        self.tool_holds = tool_holds
        self.caller_side: CallerSide | None = None
        self._server: Any = None
        self._port = 0
        self._ready = asyncio.Event()
        self._sim: tuple[PipelineWorker, PipelineTask, Any] | None = None

    def attach(self, live: LiveCall) -> CallConfig:
        if self.perturbation is None:
            return live.cfg
        sr = live.cfg.wire.sample_rate
        self.caller_side = CallerSide(self.perturbation, live.rec, live.clock.now, sr, self.services)
        return self.caller_side.adjust_config(live.cfg)

    def agent_transport(self, live: LiveCall) -> BaseTransport:
        """The loopback server, with its events: ready, the caller connecting (then the
        greeting), a socket dropped mid-call."""
        cfg = live.cfg
        self._port = free_port(cfg.wire.host)
        server = self._server = make_server(cfg.wire, self._port)

        @server.event_handler("on_websocket_ready")
        async def _ready(_t: Any) -> None:
            self._ready.set()

        @server.event_handler("on_client_connected")
        async def _connected(_t: Any, _ws: Any) -> None:
            await live.caller_connected("agent")

        @server.event_handler("on_client_disconnected")
        async def _disconnected(_t: Any, _ws: Any) -> None:
            live.rec.emit(ConnectionEvent(t=live.clock.now(), side="agent", state="disconnected"))
            if not live.control.ending:
                live.fail("connection_lost", "the simulator's socket closed mid-call", "agent_transport")

        return server

    def agent_observers(self, live: LiveCall) -> list[BaseObserver]:
        return []

    async def before_clock(self, live: LiveCall) -> None:
        await caller_entry(live.cfg.simulator.kind).before_clock(self._build(live, None))

    async def after_agent_start(self, live: LiveCall, agent: PipelineTask) -> None:
        """Wait until the agent's socket listens (a server that never gets ready fails the
        call), then start the caller."""
        try:
            await asyncio.wait_for(self._ready.wait(), timeout=live.cfg.wire.connect_timeout_s)
        except TimeoutError:
            live.fail("agent_error", agent.failure() or "agent server never became ready", "agent")
        if not live.control.ending:
            self._sim = await self._start(live)

    def watch(self, cfg: CallConfig) -> CallWatch:
        return CallWatch(cfg.limits, connect_timeout_s=cfg.wire.connect_timeout_s + 2)

    def side(self) -> SideState | None:
        if self._sim is None:
            return None
        task = self._sim[1]
        return SideState(task.failure(), task.task.done())

    def drains(self, req: EndRequest) -> bool:
        return req.status == "completed"

    async def stop(self, timeout: float) -> None:
        """Cancel the caller: the call has ended and its last words have played out (the drain),
        so nothing it still has to say is part of it. Not an EndFrame: pipecat's worker waits
        for an EndFrame to reach the end of the pipeline before it takes a CancelFrame, so a
        caller whose TTS is mid-sentence in a thread (Kokoro at RTF > 1 on a loaded machine, the
        usual cause of an inactivity end) could not be stopped, was abandoned still running,
        and the process then hung at exit waiting for it."""
        if self._sim is not None:
            await stop_worker(self._sim[0], self._sim[1], timeout, graceful=False)

    def outputs(self) -> dict[Channel, Any]:
        out: dict[Channel, Any] = {"agent": getattr(self._server, "_output", None)}
        if self._sim is not None:
            out["user"] = self._sim[2]
        return out

    def info(self, cfg: CallConfig) -> SimulatorInfo:
        return self.services.info.model_copy(update={"kind": cfg.simulator.kind})

    def extra(self, cfg: CallConfig) -> dict[str, Any]:
        return {"wire": cfg.wire.model_dump(mode="json")}

    async def _start(self, live: LiveCall) -> tuple[PipelineWorker, PipelineTask, Any]:
        """Build the caller (the client side; a perturbation transforms what it sends),
        connect it to the agent and start it."""
        cfg, clock, rec = live.cfg, live.clock, live.rec
        interruptions: list[float] = []
        serializer = simulator_serializer(cfg.wire, on_interruption=lambda: interruptions.append(clock.now()))
        transform = self.caller_side.transform(None) if self.caller_side is not None else None
        client = make_client(cfg.wire, self._port, serializer, transform)
        pipeline = caller_entry(cfg.simulator.kind).build(self._build(live, client))
        worker = make_worker(pipeline, clock, [rec.observer("user")], cfg.wire.sample_rate, "simulator")

        @client.event_handler("on_connected")
        async def _on_connected(_t: Any, ws: Any) -> None:
            rec.emit(ConnectionEvent(t=clock.now(), side="user", state="connected"))
            if isinstance(serializer, TwilioClientSerializer):
                for m in serializer.start_messages():
                    await ws.send(m)

        @worker.event_handler("on_pipeline_started")
        async def _listening(*_a: Any) -> None:
            serializer.accepting = True

        @client.event_handler("on_disconnected")
        async def _on_disconnected(_t: Any, _ws: Any) -> None:
            rec.emit(ConnectionEvent(t=clock.now(), side="user", state="disconnected"))
            if not live.control.ending:
                live.fail("connection_lost", "the agent's socket closed mid-call", "simulator_transport")

        @worker.event_handler("on_pipeline_error")
        async def _sim_error(_w: Any, frame: ErrorFrame) -> None:
            reason = "connection_lost" if "Transport" in str(frame.processor) else "simulator_error"
            live.pipeline_error("user", frame, reason, "simulator")

        runner = WorkerRunner(handle_sigint=False)
        await runner.add_workers(worker)
        return worker, PipelineTask(runner.run(), "simulator"), client.output()

    def _build(self, live: LiveCall, client: Any) -> CallerBuild:
        return CallerBuild(live, self.services, client, self.seed, self.tool_holds, self.caller_side)
