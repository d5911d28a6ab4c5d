"""The reference agent (``--agent reference``): the reference conversation's agent, live.

A real pipecat agent pipeline whose "LLM" is the scenario's expected trace::

    transport.input() -> user aggregator (VAD + turn detection) -> ReferenceLLM -> TTS
                      -> transport.output() -> assistant aggregator

It hears the caller only as audio: VAD and the end-of-turn strategy (smart-turn v3, or a
silence timeout) decide when the caller's turn is over, exactly as in the cascade agent,
but with no transcript needed (``wait_for_transcript=False``). When turn ``i`` ends it
says the trace's agent lines that follow the caller's line ``i`` and makes the trace's
tool calls at the same points, through pipecat's function calling and the scenario's
``ToolExecutor`` (so the recorder and the eval see ordinary tool calls). Before the
caller's first line it says the trace's opening lines (usually a greeting) as soon as
the caller connects; a configured generic greeting is not spoken. With the trace caller
this re-enacts the reference conversation in live audio (``voxbench selftest``).

A caller's barge-in interrupts it like any pipecat agent. When the caller goes on before
its answer has played for ``CONTINUATION_S`` (turn detection ended the turn at a pause
inside the caller's line), it says that answer again when the caller's turn really ends; once an answer was
heard, it carries on with the trace at the next turn end. After its reply to the caller's last line it ends the call
(``transfer`` when the trace ended in a transfer, else ``trace_finished``).
"""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pipecat.audio.turn.smart_turn.local_smart_turn_v3 import LocalSmartTurnAnalyzerV3
from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    BotStoppedSpeakingFrame,
    Frame,
    FunctionCallFromLLM,
    InterruptionFrame,
    LLMContextFrame,
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    TTSSpeakFrame,
    UserStoppedSpeakingFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import (
    LLMContextAggregatorPair,
    LLMUserAggregatorParams,
)
from pipecat.processors.frame_processor import FrameDirection
from pipecat.services.llm_service import FunctionCallParams, LLMService
from pipecat.services.settings import LLMSettings
from pipecat.services.tts_service import TTSService
from pipecat.transports.base_transport import BaseTransport
from pipecat.turns.user_stop.speech_timeout_user_turn_stop_strategy import SpeechTimeoutUserTurnStopStrategy
from pipecat.turns.user_stop.turn_analyzer_user_turn_stop_strategy import TurnAnalyzerUserTurnStopStrategy
from pipecat.turns.user_turn_strategies import UserTurnStrategies

from voxbench.pipelines.agent.cascade import AgentInputs, AgentPipeline
from voxbench.pipelines.agent.tools import tools_schema
from voxbench.pipelines.config import TurnConfig, VADConfig
from voxbench.processors.clock import loop_now
from voxbench.records import AgentInfo, ServicePart
from voxbench.scenarios import ToolExecutor
from voxbench.scenarios.reference_script import Call, IdCarry, ReferenceScript, Say, Step, join_lines
from voxbench.transports.vad import make_vad

REFERENCE = "reference"
ToolHook = Callable[[str, dict[str, Any], ToolExecutor], Awaitable[dict[str, Any]]]
CONTINUATION_S = 1.0


def blank_llm_settings(model: str) -> LLMSettings:
    """pipecat LLM settings with nothing set but the model's name: for an LLM service that is
    not a model (the reference agent here, scripted stand-ins in tests and the example bot)."""
    return LLMSettings(
        model=model,
        system_instruction=None,
        temperature=None,
        max_tokens=None,
        top_p=None,
        top_k=None,
        frequency_penalty=None,
        presence_penalty=None,
        seed=None,
        filter_incomplete_user_turns=False,
        user_turn_completion_config=None,
    )


class ReferenceLLM(LLMService):
    """Answers each caller turn with the trace's next reply: lines as LLM text, tool calls as calls.

    A reply is cut at each tool call: the text before it and the call form one response;
    the tool's result (pipecat re-runs the "LLM") continues the reply, as a real LLM would.
    """

    def __init__(self, script: ReferenceScript, domain: str, **kwargs: Any):
        super().__init__(settings=blank_llm_settings("reference-trace"), **kwargs)
        self.script = script
        self.ids = IdCarry(domain)
        self.context: LLMContext | None = None
        self.on_finished: Callable[[str], object] | None = None
        self.user_turns = 0
        self._pending: deque[Step] = deque()
        self._call: Call | None = None
        self._opened = False
        self._finished = False
        self._await_speech_end = False
        self._unheard: list[str] = []  # the last response, until it has played for a while
        self._audio_since: float | None = None  # when the last response's audio started
        self._same_turn = False  # the caller's next turn end continues the interrupted one
        self._lock = asyncio.Lock()
        self._ids = itertools.count(1)
        # Runs each tool call instead of the executor when set: how a test or the fault matrix
        # injects a malformed or failing call, a crash or a hang mid-turn (orchestrator/live_faults.py).
        self.tool_hook: ToolHook | None = None
        self.transport: BaseTransport | None = None  # the line to the caller (a fault may drop it)

    async def open(self) -> None:
        """The caller is on the line: say the trace's opening lines (if any)."""
        if self._opened:
            return
        self._opened = True
        self._pending.extend(self.script.prelude)
        await self._advance()

    async def run_tool(self, params: FunctionCallParams, executor: ToolExecutor) -> None:
        """The registered handler of every tool: the executor runs it; ids are carried forward."""
        args = dict(params.arguments or {})
        if self.tool_hook is not None:
            result = await self.tool_hook(params.function_name, args, executor)
        else:
            result = executor.execute(params.function_name, args)
        if self._call is not None and self._call.name == params.function_name:
            self.ids.learn(self._call, result)
        self._call = None
        await params.result_callback(result)

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, LLMContextFrame):
            await self._advance()  # a tool result is in: go on with the reply
            return
        if isinstance(frame, TTSSpeakFrame) and direction == FrameDirection.DOWNSTREAM:
            return  # a generic greeting: the reference agent says only the trace's lines
        await self.push_frame(frame, direction)
        if isinstance(frame, InterruptionFrame) and self._unheard and self._barely_heard():
            # The caller spoke again before a word of our answer played: it had only paused
            # inside its line (the trace caller never starts a line before hearing us). Say
            # the answer again when this, the same turn, ends.
            self._pending.appendleft(Say(join_lines(self._unheard)))
            self._unheard = []
            self._same_turn = True
            self._await_speech_end = False
        elif isinstance(frame, UserStoppedSpeakingFrame) and direction == FrameDirection.DOWNSTREAM:
            if self._same_turn:
                self._same_turn = False
            else:
                self.user_turns += 1
                self._pending.extend(self.script.reply_after(self.user_turns - 1))
            await self._advance()
        elif isinstance(frame, BotStartedSpeakingFrame):
            self._audio_since = loop_now()
        elif isinstance(frame, BotStoppedSpeakingFrame):
            self._unheard = []
            self._await_speech_end = False
            self._maybe_finish()

    def _barely_heard(self) -> bool:
        """No audio of the response yet, or less than ``CONTINUATION_S`` of it (Piper's leading
        silence, the caller's VAD start time): the caller did not hear an answer and move on."""
        return self._audio_since is None or loop_now() - self._audio_since < CONTINUATION_S

    async def _advance(self) -> None:
        async with self._lock:
            if self._call is not None:
                return  # a tool call is running; its result continues the reply
            texts: list[str] = []
            call: Call | None = None
            while self._pending:
                step = self._pending.popleft()
                if isinstance(step, Say):
                    texts.append(step.text)
                else:
                    call = step
                    break
            if texts:
                self._await_speech_end = True
                self._unheard, self._audio_since = texts, None
                await self.push_frame(LLMFullResponseStartFrame())
                await self.push_frame(LLMTextFrame(join_lines(texts)))
                await self.push_frame(LLMFullResponseEndFrame())
            if call is not None:
                self._call = call
                await self.run_function_calls(
                    [
                        FunctionCallFromLLM(
                            function_name=call.name,
                            tool_call_id=f"ref_{next(self._ids)}",
                            arguments=self.ids.arguments(call),
                            context=self.context or LLMContext(),
                        )
                    ]
                )
        self._maybe_finish()

    def _maybe_finish(self) -> None:
        """After the reply to the caller's last line is said and done, end the call."""
        if (
            self._finished
            or self.user_turns < len(self.script.user_lines)
            or self._pending
            or self._call is not None
            or self._await_speech_end
        ):
            return
        self._finished = True
        if self.on_finished is not None:
            self.on_finished("transfer" if self.script.end_reason == "transfer" else "trace_finished")


def reference_turn_params(vad: VADConfig, turn: TurnConfig, sample_rate: int) -> LLMUserAggregatorParams:
    """VAD + end-of-turn detection that needs no transcript (the reference agent has no STT)."""
    stop = (
        TurnAnalyzerUserTurnStopStrategy(turn_analyzer=LocalSmartTurnAnalyzerV3(), wait_for_transcript=False)
        if turn.smart_turn
        else SpeechTimeoutUserTurnStopStrategy(
            user_speech_timeout=turn.speech_timeout_s, wait_for_transcript=False
        )
    )
    return LLMUserAggregatorParams(
        vad_analyzer=make_vad(vad, sample_rate),
        user_turn_strategies=UserTurnStrategies(stop=[stop]),
        empty_user_turn=None,  # every turn is "empty" without STT; the trace says what to answer
    )


@dataclass
class ReferenceAgentServices:
    """An agent bundle (see ``agent_builder.AgentBundle``): the trace as the brain, a TTS voice."""

    script: ReferenceScript
    domain: str
    tts: TTSService
    info: AgentInfo = field(init=False)
    llm: ReferenceLLM = field(init=False)

    def __post_init__(self) -> None:
        self.llm = ReferenceLLM(self.script, self.domain)
        voice = getattr(self.tts, "voice_id", None) or type(self.tts).__name__
        vendor = "synthetic" if str(voice).startswith("tone:") else "local"
        self.info = AgentInfo(
            name=REFERENCE,
            architecture=REFERENCE,
            llm=ServicePart(vendor="reference", model="expected trace"),
            tts=ServicePart(vendor=vendor, model=str(voice)),
        )

    def build_pipeline(
        self,
        transport: BaseTransport,
        inputs: AgentInputs,
    ) -> AgentPipeline:
        spec, executor, cfg, control, clock = (
            inputs.spec,
            inputs.executor,
            inputs.cfg,
            inputs.control,
            inputs.clock,
        )
        sample_rate = inputs.sample_rate
        llm = self.llm
        llm.transport = transport
        for name in spec.tool_names():

            async def handler(params: FunctionCallParams) -> None:
                await llm.run_tool(params, executor)

            llm.register_function(name, handler)
        context = LLMContext(tools=tools_schema(spec))
        llm.context = context
        llm.on_finished = lambda reason: control.end(reason, t=clock.now())
        user_agg, assistant_agg = LLMContextAggregatorPair(
            context, user_params=reference_turn_params(cfg.vad, cfg.turn, sample_rate)
        )

        @transport.event_handler("on_client_connected")
        async def _open(_t: Any, _client: Any) -> None:
            await llm.open()

        stages = [transport.input(), user_agg, llm, self.tts, transport.output(), assistant_agg]
        return AgentPipeline(Pipeline(stages), context, transport)
