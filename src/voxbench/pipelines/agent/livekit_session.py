"""A LiveKit Agents ``AgentSession`` as the agent of a call (architecture ``livekit``).

The session sits where an agent pipeline sits, so the caller, the recorder, the timing
taps and the perturbations work unchanged::

    server.input() -> LiveKitSessionProcessor -> server.output()
                        | CallAudioInput  -> AgentSession (the team's Agent, STT/LLM/TTS) |
                        | CallAudioOutput <-                                            |

* The agent is built per call by the profile's factory (``livekit_loader``); its function
  tools are routed to the call's ``ToolExecutor`` (``livekit_tools``) and each call is
  pushed as pipecat function-call frames, so the record has it like any agent's.
* The session starts when the caller connects (its first audio, or the call's greeting
  cue); ``greeting: say`` says the call's greeting, ``agent`` leaves it to the agent.
* What the session hears and says is pushed as transcription / TTS text frames (the
  record's transcripts); a session that closes itself hangs up (``agent_hangup``); an
  unrecoverable session error fails the call as the agent's.
* A successful ``transfer_to_agent`` says the call's transfer line and ends the call.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from dataclasses import dataclass, field
from typing import Any

from livekit.agents import Agent, AgentSession, RunContext
from loguru import logger
from pipecat.frames.frames import (
    CancelFrame,
    EndFrame,
    Frame,
    InputAudioRawFrame,
    InterimTranscriptionFrame,
    InterruptionFrame,
    SpeechOutputAudioRawFrame,
    StartFrame,
    TranscriptionFrame,
    TTSSpeakFrame,
    TTSTextFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.transports.base_transport import BaseTransport
from pipecat.utils.time import time_now_iso8601

from voxbench.pipelines.agent.cascade import AgentInputs, AgentPipeline
from voxbench.pipelines.agent.livekit_config import LiveKitAgentConfig
from voxbench.pipelines.agent.livekit_io import CallAudioInput, CallAudioOutput
from voxbench.pipelines.agent.livekit_loader import LiveKitCall, call_factory, load_factory
from voxbench.pipelines.agent.livekit_tools import RoutedTools, route_tools
from voxbench.pipelines.agent.livekit_warmup import LiveKitWarmUp
from voxbench.pipelines.agent.s2s import instructions
from voxbench.processors.control import TRANSFER_TOOL
from voxbench.processors.tool_frames import push_tool_call
from voxbench.records import AgentInfo


def call_for(
    inputs: AgentInputs, llm_base_url: str | None = None, llm_model: str | None = None
) -> LiveKitCall:
    """What the factory may read of this call."""
    spec = inputs.spec
    return LiveKitCall(
        instructions=instructions(spec, inputs.current_date_time, None),
        tools=spec.openai_tools(),
        greeting=inputs.cfg.greeting,
        domain=getattr(spec, "domain", "") or "",
        current_date_time=inputs.current_date_time,
        llm_base_url=llm_base_url,
        llm_model=llm_model,
    )


class LiveKitSessionProcessor(FrameProcessor):
    """Runs one call's ``AgentSession`` between the call's input and output."""

    def __init__(
        self,
        cfg: LiveKitAgentConfig,
        factory: Any,
        call: LiveKitCall,
        inputs: AgentInputs,
        **kwargs: Any,
    ):
        super().__init__(**kwargs)
        self.cfg, self.factory, self.call, self.inputs = cfg, factory, call, inputs
        self.audio_in = CallAudioInput()
        self.audio_out = CallAudioOutput(inputs.sample_rate, self._play, self._clear)
        self.session: AgentSession[Any] | None = None
        self.agent: Agent | None = None
        self.tools: RoutedTools | None = None
        self._start_task: asyncio.Task[None] | None = None
        self._greeting: str | None = None
        self._closing = False
        self._prepared = False
        self._build_error: str | None = None
        self._pending: set[asyncio.Task[None]] = set()  # pushes from session callbacks (kept alive)

    # --- pipecat side ----------------------------------------------------------------
    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, StartFrame):
            await self.push_frame(frame, direction)
            await self.prepare()
            if self._build_error is not None:
                await self.push_error(self._build_error, force_treat_as_permanent=True)
        elif isinstance(frame, InputAudioRawFrame) and direction == FrameDirection.DOWNSTREAM:
            self.audio_in.push(frame.audio, frame.sample_rate, frame.num_channels)
            self._start()
        elif isinstance(frame, TTSSpeakFrame):  # the call's greeting cue: the caller is here
            if self.cfg.greeting == "say":
                self._greeting = frame.text
            self._start()
        elif isinstance(frame, EndFrame | CancelFrame):
            await self._shutdown()
            await self.push_frame(frame, direction)
        else:
            await self.push_frame(frame, direction)

    @property
    def build_error(self) -> str | None:
        return self._build_error

    async def cleanup(self) -> None:
        await super().cleanup()
        await self._shutdown()

    async def _play(self, pcm: bytes, sample_rate: int) -> None:
        await self.push_frame(SpeechOutputAudioRawFrame(audio=pcm, sample_rate=sample_rate, num_channels=1))

    async def _clear(self) -> None:
        """The session stopped speaking mid-segment: drop what the output still holds."""
        await self.push_frame(InterruptionFrame())

    # --- the session -------------------------------------------------------------------
    async def prepare(self) -> None:
        """Build the agent and its session, once: before the clock when the call warms the
        agent's LLM (``livekit_warmup``), else when the pipeline starts. Not started: the caller
        is not connected yet. A factory that fails is the agent's failure when the pipeline starts."""
        if self._prepared:
            return
        self._prepared = True
        try:
            built = await call_factory(self.factory, self.call)
            session, agent = built if isinstance(built, tuple) else (None, built)
            if not isinstance(agent, Agent):
                raise TypeError(f"{self.cfg.agent} returned {type(agent).__name__}, not a LiveKit Agent")
            session = session if session is not None else AgentSession(**self.cfg.session_options)
            names = self.inputs.spec.tool_names()
            tools, self.tools = route_tools(
                agent.tools, self.inputs.executor, names, self._on_tool, self.cfg.passthrough_tools
            )
            await agent.update_tools(tools)
            if session.tools:
                session._tools, _ = route_tools(
                    session.tools, self.inputs.executor, names, self._on_tool, self.cfg.passthrough_tools
                )
        except Exception as exc:
            self._build_error = f"LiveKit agent {self.cfg.agent}: {type(exc).__name__}: {exc}"
            return
        session.input.audio = self.audio_in
        session.output.audio = self.audio_out
        session.on("user_input_transcribed", self._on_transcript)
        session.on("conversation_item_added", self._on_item)
        session.on("close", self._on_close)
        session.on("error", self._on_error)
        self.session, self.agent = session, agent

    def _start(self) -> None:
        if self._start_task is None and self.session is not None and not self._closing:
            self._start_task = asyncio.create_task(self._run_start(), name="livekit-session-start")

    async def _run_start(self) -> None:
        assert self.session is not None and self.agent is not None
        try:
            await self.session.start(self.agent)
        except Exception as exc:
            await self.push_error(f"LiveKit session failed to start: {exc}", force_treat_as_permanent=True)
            return
        logger.info(f"LiveKit session started ({self.cfg.agent})")
        if self._greeting:
            self.session.say(self._greeting)

    async def _shutdown(self) -> None:
        if self._closing:
            return
        self._closing = True
        self.audio_in.close()
        if self._start_task is not None and not self._start_task.done():
            self._start_task.cancel()
            with contextlib.suppress(BaseException):
                await self._start_task
        if self.session is not None:
            await self._close_session(self.session)
        await self.audio_out.aclose()

    async def _close_session(self, session: AgentSession[Any]) -> None:
        """Close the session (its activity, STT/VAD/LLM/TTS streams and their tasks; LiveKit
        first waits up to 2 s for a last transcript), bounded: ``asyncio.wait``, not ``wait_for``,
        which would wait for a close that ignores its cancellation and hang the call's end."""
        closing = asyncio.ensure_future(session.aclose())
        done, _ = await asyncio.wait({closing}, timeout=self.cfg.shutdown_timeout_s)
        if not done:
            logger.warning(f"the LiveKit session did not close within {self.cfg.shutdown_timeout_s}s")
            closing.cancel()
        elif not closing.cancelled() and closing.exception() is not None:
            logger.warning(f"closing the LiveKit session failed: {closing.exception()!r}")

    # --- what the session tells us ------------------------------------------------------
    def _spawn(self, frame: Frame) -> None:
        self._keep(asyncio.get_running_loop().create_task(self.push_frame(frame)))

    def _keep(self, task: asyncio.Task[None]) -> None:
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    def _on_transcript(self, ev: Any) -> None:
        if not ev.transcript:
            return
        cls = TranscriptionFrame if ev.is_final else InterimTranscriptionFrame
        self._spawn(cls(ev.transcript, "caller", time_now_iso8601()))

    def _on_item(self, ev: Any) -> None:
        item = ev.item
        text = getattr(item, "text_content", None)
        if getattr(item, "role", None) == "assistant" and text:
            self._spawn(TTSTextFrame(text, text_type="sentence"))

    def _on_close(self, ev: Any) -> None:
        control = self.inputs.control
        if self._closing or control.ending:
            return
        if getattr(ev, "error", None) is not None:
            self._spawn_error(f"LiveKit session closed on an error: {ev.error}")
            return
        logger.info(f"the LiveKit session closed itself ({ev.reason})")
        control.end("agent_hangup", t=self.inputs.clock.now())

    def _on_error(self, ev: Any) -> None:
        err = ev.error
        if getattr(err, "recoverable", True) is False:
            self._spawn_error(f"LiveKit session error: {getattr(err, 'error', err)}")

    def _spawn_error(self, message: str) -> None:
        loop = asyncio.get_running_loop()
        self._keep(loop.create_task(self.push_error(message, force_treat_as_permanent=True)))

    async def _on_tool(
        self, name: str, args: dict[str, Any], result: dict[str, Any], ctx: RunContext
    ) -> bool:
        """Record a routed tool call; a successful transfer says the line and ends the call."""
        call_id = getattr(ctx.function_call, "call_id", "") or f"lk_{uuid.uuid4().hex[:12]}"
        await push_tool_call(self, name, call_id, args, result)
        if name == TRANSFER_TOOL and result.get("status") != "error":
            ctx.session.say(self.inputs.cfg.transfer_message, allow_interruptions=False)
            self.inputs.control.end("transfer", t=self.inputs.clock.now())
            return True
        return False


@dataclass
class LiveKitAgentServices:
    """A LiveKit agent under test. ``factory`` overrides the profile's target (tests pass a
    function); ``llm_base_url``/``llm_model``: the local llama.cpp server started for the profile's
    ``llm`` (kind local), if any. ``llm``: what the call's warm-up primes; with that server, the
    agent's own LLM (``livekit_warmup``), else None (nothing of voxbench's to prime)."""

    livekit: LiveKitAgentConfig
    info: AgentInfo = field(default_factory=AgentInfo)
    factory: Any = None
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm: Any = None
    processor: LiveKitSessionProcessor | None = None  # the last call's

    def build_pipeline(self, transport: BaseTransport, inputs: AgentInputs) -> AgentPipeline:
        factory = self.factory or load_factory(self.livekit)
        proc = LiveKitSessionProcessor(
            self.livekit, factory, call_for(inputs, self.llm_base_url, self.llm_model), inputs
        )
        self.processor = proc
        self.llm = LiveKitWarmUp(proc) if self.llm_base_url is not None else None
        pipeline = Pipeline([transport.input(), proc, transport.output()])
        return AgentPipeline(pipeline, LLMContext(), transport)
