"""Mic-in-the-loop: a person calls the agent under test, recorded like a simulated call.

`TalkCall` is the transport-agnostic core. It builds the same agent as a bot-to-bot
call (`build_agent`: the cascade, or a profile's own pipeline), on whatever transport carries the person's
audio (the browser page's WebRTC, see `talk_web`; the machine's microphone and
speaker, see `talk_local`), and records it with the same `ConversationRecorder` on
one clock:

- user channel: the person's audio as the agent's input transport receives it (the
  recorder's agent-side observer, exactly as for a simulator);
- agent channel: what the agent's output transport wrote to the person
  (`OutputAudioTap`), since there is no simulator pipeline to hear it.

The record directory is written when the call ends; the person's rating is added to
`record.json` afterwards (`ConversationRecord.human_rating`), so `voxbench eval` scores
the call like any other and human-rated calls can later check the judges.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from loguru import logger
from pipecat.frames.frames import ErrorFrame, TTSSpeakFrame
from pipecat.pipeline.worker import PipelineParams, PipelineWorker, ProcessorUnusablePolicy
from pipecat.transports.base_transport import BaseTransport
from pipecat.workers.runner import WorkerRunner

from voxbench.pipelines.agent.builder import AgentBundle, build_agent
from voxbench.pipelines.agent.cascade import AgentInputs, AgentPipeline
from voxbench.pipelines.bundles import AgentServices
from voxbench.pipelines.call.lifecycle import PipelineTask, stop_worker, versions
from voxbench.pipelines.call.record_files import write_conversation
from voxbench.pipelines.call.watch import CallWatch, Drain, SideState
from voxbench.pipelines.config import CallConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.warmup import warm_up
from voxbench.processors.clock import ConversationClock
from voxbench.processors.control import CallControl, EndRequest
from voxbench.processors.output_audio import OutputAudioTap
from voxbench.processors.recorder import ConversationRecorder
from voxbench.records import (
    ConnectionEvent,
    ConversationRecord,
    EndEvent,
    ErrorEvent,
    Event,
    EventWriter,
    HumanRating,
    SimulatorInfo,
    atomic_write_json,
)
from voxbench.scenarios import ToolExecutor, db_hash


def scenario_card(call: CallScenario) -> dict[str, Any]:
    """What the person sees: who they are, what they want, what they know (culture-resolved)."""
    sc = call.resolved()
    goal = sc.get("user_goal") or {}
    tree = goal.get("decision_tree") or {}
    user = sc.get("user_config") or {}
    known = goal.get("information_required") or {}
    return {
        "domain": call.domain,
        "scenario_id": call.scenario.id,
        "caller_name": user.get("name", ""),
        "goal": goal.get("high_level_user_goal", ""),
        "known": {str(k): v for k, v in known.items()} if isinstance(known, dict) else {},
        "must_have": list(tree.get("must_have_criteria") or []),
        "done_when": tree.get("resolution_condition", ""),
        "starting_utterance": sc.get("starting_utterance", ""),
        "current_date_time": sc.get("current_date_time", ""),
    }


class TalkCall:
    """One human call: build on a transport, start, end, write the record, add the rating."""

    def __init__(
        self,
        call: CallScenario,
        cfg: CallConfig,
        services: AgentServices | AgentBundle,
        out_dir: str | Path,
        *,
        interface: str,
        conversation_id: str | None = None,
    ):
        self.call = call
        self.cfg = cfg
        self.services = services
        self.out = Path(out_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        self.interface = interface
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S")
        self.conversation_id = conversation_id or f"{call.domain}-{call.scenario.id}-human-{stamp}"
        self.sample_rate = cfg.wire.sample_rate
        self.clock = ConversationClock()
        self.control = CallControl()
        self.writer: EventWriter | None = None  # opened when the call starts (nobody may call)
        self.rec = ConversationRecorder(self.clock, self.sample_rate, None, cfg.onset, cfg.agent.vad.engine)
        self.executor = ToolExecutor(
            call.domain, call.initial_db, call.scenario.current_date_time, call.agent, clock=self.clock.now
        )
        self.tap = OutputAudioTap(self.rec, "agent")
        self.connected = asyncio.Event()
        self.record: ConversationRecord | None = None
        self.hangup_by: str | None = None
        self.user_agent: str | None = None  # the browser's, for the record
        self._agent: AgentPipeline | None = None
        self._worker: PipelineWorker | None = None
        self._task: PipelineTask | None = None
        self._started_at: str | None = None
        self._wall0 = 0.0

    # --- lifecycle -------------------------------------------------------------
    def add_listener(self, fn: Callable[[Event], None]) -> None:
        """Called with every recorded event (the page's live transcript)."""
        self.rec.listeners.append(fn)

    def build(self, transport: BaseTransport) -> None:
        sr = self.sample_rate
        inputs = AgentInputs(
            self.call.agent,
            self.executor,
            self.call.scenario.current_date_time,
            self.cfg.agent,
            self.control,
            self.clock,
            sr,
        )
        # typed for the websocket; only .input()/.output() are used
        self._agent = build_agent(self.services, cast(Any, transport), inputs)
        self._worker = PipelineWorker(
            self._agent.pipeline,
            params=PipelineParams(
                audio_in_sample_rate=sr,
                audio_out_sample_rate=sr,
                enable_metrics=True,
                enable_usage_metrics=True,
            ),
            clock=self.clock,
            observers=[self.rec.observer("agent"), self.tap],
            idle_timeout_secs=None,
            enable_rtvi=False,
            enable_turn_tracking=False,
            processor_unusable_policy=ProcessorUnusablePolicy.END,
            name="agent",
        )

        @self._worker.event_handler("on_pipeline_error")
        async def _agent_error(_w: Any, frame: ErrorFrame) -> None:
            self.rec.emit(
                ErrorEvent(
                    t=self.clock.now(), side="agent", source=str(frame.processor), message=str(frame.error)
                )
            )
            proc = frame.processor
            if proc is not None and not getattr(proc, "is_usable", True):
                self.fail("agent_error", f"{proc}: {frame.error}", "agent")

    async def prepare(self) -> None:
        """Prime the LLM before anyone calls (outside the call's clock)."""
        if self._agent is None:
            raise RuntimeError("build() first")
        if self.cfg.agent.warm_up:
            await warm_up(self.services.llm, self._agent.context)

    async def start(self) -> None:
        """Start the agent pipeline; the conversation clock starts here."""
        if self._worker is None:
            raise RuntimeError("build() first")
        if self._task is not None:
            raise RuntimeError("this call has already started")
        self.writer = self.rec.writer = EventWriter(self.out / "events.jsonl")
        self.clock.reset()
        self._started_at = dt.datetime.now(dt.UTC).isoformat()
        self._wall0 = time.monotonic()
        runner = WorkerRunner(handle_sigint=False)
        await runner.add_workers(self._worker)
        self._task = PipelineTask(runner.run(), "agent")

    @property
    def started(self) -> bool:
        return self._task is not None

    async def on_connected(self) -> None:
        """The person's audio is up: note it and greet."""
        if self.connected.is_set():
            return
        self.connected.set()
        self.rec.emit(ConnectionEvent(t=self.clock.now(), side="user", state="connected"))
        if self.cfg.agent.greeting and self._worker is not None:
            await self._worker.queue_frame(TTSSpeakFrame(self.cfg.agent.greeting))

    def on_disconnected(self) -> None:
        self.rec.emit(ConnectionEvent(t=self.clock.now(), side="user", state="disconnected"))
        self.hang_up("connection_closed")

    def hang_up(self, by: str = "person") -> bool:
        """The person ended the call (button, closed page, Enter/Ctrl-C)."""
        if self.control.ending:
            return False
        self.hangup_by = by
        return self.control.end("end_call", t=self.clock.now())

    def fail(self, reason: str, cause: str, source: str) -> None:
        if self.control.end(
            reason, status="infra_failure", error=cause, error_source=source, t=self.clock.now()
        ):
            self.rec.emit(ErrorEvent(t=self.clock.now(), source=source, message=cause, fatal=True))

    @property
    def state(self) -> str:
        if self.record is not None:
            return "rated" if self.record.human_rating is not None else "ended"
        if self.control.ending:
            return "ending"
        if self.connected.is_set():
            return "in_call"
        return "connecting" if self.started else "ready"

    async def run_until_end(self, connect_timeout_s: float = 30.0) -> EndRequest:
        """Watch the call until someone or something ends it."""
        if self._task is None:
            raise RuntimeError("start() first")
        watch = CallWatch(
            self.cfg.limits,
            connect_timeout_s,
            (f"the person's audio never connected within {connect_timeout_s:.0f}s", "user_transport"),
            inactivity_after_connect=True,
        )
        task = self._task
        while not self.control.ending:
            await asyncio.sleep(0.05)
            now = self.clock.now()
            agent = SideState(task.failure(), task.task.done())
            ending = watch.check(now, agent, None, self.connected.is_set(), self.rec.last_speech_t)
            if ending is None:
                continue
            if ending.status == "infra_failure":
                self.fail(ending.reason, ending.cause or ending.reason, ending.source or "talk")
            else:
                self.control.end(ending.reason, t=now)
        req = self.control.request
        assert req is not None
        logger.info(f"talk call ending: {req.reason} ({req.status}) at t={self.clock.now():.2f}s")
        return req

    async def finish(self) -> ConversationRecord:
        """Let the agent finish a sentence unless the person hung up; stop; write the record."""
        req = self.control.request
        assert req is not None and self._task is not None
        lim = self.cfg.limits
        if req.status == "completed" and req.reason != "end_call":
            drain = Drain(self.clock.now(), lim.drain_s)
            while True:
                await asyncio.sleep(0.05)
                if drain.done(self.clock.now(), self.rec.speaking("agent")):
                    break
        t_end = self.clock.now()
        self.rec.freeze()
        await stop_worker(self._worker, self._task, lim.shutdown_timeout_s)
        await asyncio.sleep(0.2)  # let observer queues flush
        self.rec.emit(EndEvent(t=t_end, reason=req.reason))
        events = self.rec.finalize()
        if self.writer is not None:
            self.writer.close()
        record = ConversationRecord(
            conversation_id=self.conversation_id,
            domain=self.call.domain,
            scenario_id=self.call.scenario.id,
            trial=0,
            lang=self.call.lang,
            status=req.status,
            end_reason=req.reason,
            error=req.error,
            error_source=req.error_source,
            started_at=self._started_at,
            ended_at=dt.datetime.now(dt.UTC).isoformat(),
            duration_s=round(t_end, 3),
            agent=self.services.info,
            simulator=SimulatorInfo(kind="human", interface=self.interface, user_agent=self.user_agent),
            versions=versions(),
            initial_db_hash=db_hash(self.executor.initial_db),
            final_db_hash=db_hash(self.executor.db),
            num_tool_calls=sum(1 for a in self.executor.audit_log if a["type"] == "tool_call"),
            extra={
                "human_call": True,
                "hangup_by": self.hangup_by,
                "agent_audio_chunks": self.tap.chunks,
                "wall_s": round(time.monotonic() - self._wall0, 3),
                "audit_log": self.executor.audit_log,
            },
        )
        write_conversation(
            self.out,
            record,
            events,
            self.rec,
            scenario=self.call.resolved(),
            agent=self.call.agent.model_dump(mode="json"),
            initial_db=self.executor.initial_db,
            final_db=self.executor.db,
        )
        self.record = record
        return record

    def rate(self, rating: HumanRating) -> ConversationRecord:
        """Store the person's rating in `record.json` (the rest of the directory is untouched)."""
        if self.record is None:
            raise RuntimeError("the call has not ended yet")
        self.record.human_rating = rating
        atomic_write_json(self.out / "record.json", self.record)
        return self.record
