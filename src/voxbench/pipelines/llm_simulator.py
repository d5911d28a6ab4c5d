"""The LLM caller: hears the agent (its own STT), thinks with an LLM, speaks with its own voice.

Driven by the scenario's goal, decision tree, known facts and persona
(:mod:`voxbench.pipelines.caller_prompt`). It opens with the scenario's starting utterance,
answers only what it is asked, waits silently through the agent's hold lines ("One moment
please."), gives up instead of looping, and hangs up once its goodbye has been spoken.

Two reply formats (``LLMSimConfig.reply_format``):

* ``json`` (default): the model writes ``{"customer_says", "end_call"}`` under a JSON-schema
  grammar after a transcript of the call from the caller's side
  (:mod:`voxbench.pipelines.caller_llm`); only ``customer_says`` is spoken. Needs a service
  from :func:`~voxbench.pipelines.caller_llm.make_caller_llm`. The one small local models
  manage (offline default: Qwen2.5-Coder-1.5B on its own llama.cpp server).
* ``tools``: the model talks in pipecat's chat context and hangs up with a native
  ``end_call`` tool. For capable cloud models; small local models break character this way.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
from pipecat.adapters.llm.schemas.tools_schema import ToolsSchema
from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    BotStoppedSpeakingFrame,
    CancelFrame,
    ControlFrame,
    EndFrame,
    Frame,
    FunctionCallResultProperties,
    LLMContextFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    StartFrame,
    TTSSpeakFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import LLMContextAggregatorPair
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.services.llm_service import FunctionCallParams
from pipecat.transports.websocket.client import WebsocketClientTransport

from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.caller_json import END_CALL
from voxbench.pipelines.caller_prompt import call_lines, is_hold_line, simulator_prompt
from voxbench.pipelines.caller_stream import GiveUp
from voxbench.pipelines.config import CallConfig
from voxbench.pipelines.control import CallControl
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.turns import user_aggregator_params
from voxbench.pipelines.warmup import warm_up
from voxbench.processors.clock import ConversationClock
from voxbench.transports.pacing import GapFillProcessor

__all__ = [
    "END_CALL",
    "CallerHangUp",
    "CallerTurnGate",
    "OpeningLine",
    "build_llm_simulator",
    "prepare_llm_caller",
    "simulator_prompt",
    "warm_up_llm_caller",
]


class OpeningLine(FrameProcessor):
    """The caller's first turn is the scenario's starting utterance, not an LLM answer.

    The first context frame (the agent's greeting has ended) is swallowed and the line is
    spoken instead; if the agent never greets, the line is spoken after `no_greeting_s`.
    """

    def __init__(self, text: str, no_greeting_s: float, **kwargs: Any):
        super().__init__(**kwargs)
        self.text = text
        self.no_greeting_s = no_greeting_s
        self._said = False
        self._task: asyncio.Task | None = None

    async def _say(self) -> None:
        if not self._said:
            self._said = True
            await self.push_frame(TTSSpeakFrame(self.text))

    async def _timer(self) -> None:
        await asyncio.sleep(self.no_greeting_s)
        await self._say()

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, StartFrame):
            await self.push_frame(frame, direction)
            self._task = self.create_task(self._timer())
            return
        if isinstance(frame, EndFrame | CancelFrame) and self._task is not None:
            await self.cancel_task(self._task)
            self._task = None
        if isinstance(frame, LLMContextFrame) and not self._said:
            if self._task is not None:
                await self.cancel_task(self._task)
                self._task = None
            await self._say()
            return
        await self.push_frame(frame, direction)


class HangUpFrame(ControlFrame):
    """Pushed by the ``end_call`` handler behind the goodbye's words, so it arrives after them."""


class CallerHangUp(FrameProcessor):
    """Ends the call once the caller's goodbye has been spoken (sits between the LLM and TTS).

    On a :class:`HangUpFrame` it waits for the goodbye's audio to start (if the reply had
    words), then for ``settle_s`` of the caller's silence (a goodbye of two sentences may have
    a synthesis gap between them), then calls ``on_hang_up``; ``wait_s`` bounds the whole
    wait so a TTS that never speaks cannot keep the call open. Ending earlier would cut the
    goodbye: the runner only drains speech that is already playing. ``settle_s`` is 2.5 s, not
    1 s: Kokoro's first audio of a sentence came 3 s after its text on a loaded 2-core machine,
    and under CI load a 1 s settle hung up between the two sentences of a goodbye (the second
    was cut after 0.2 of its 0.32 s).
    """

    def __init__(self, on_hang_up: Callable[[], object], wait_s: float, settle_s: float = 2.5, **kwargs: Any):
        super().__init__(**kwargs)
        self.on_hang_up = on_hang_up
        self.wait_s = wait_s
        self.settle_s = settle_s
        self.requested = False
        self._speaking = False
        self._words = False  # the latest LLM reply had words to speak...
        self._words_started = False  # ...and the caller has started speaking since
        self._task: asyncio.Task | None = None

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, LLMFullResponseStartFrame):
            self._words = self._words_started = False
        elif isinstance(frame, LLMTextFrame) and frame.text.strip():
            self._words = True
        elif isinstance(frame, BotStartedSpeakingFrame):
            self._speaking = True
            self._words_started = self._words_started or self._words
        elif isinstance(frame, BotStoppedSpeakingFrame):
            self._speaking = False
        elif isinstance(frame, EndFrame | CancelFrame) and self._task is not None:
            await self.cancel_task(self._task)
            self._task = None
        if isinstance(frame, HangUpFrame):
            if not self.requested:
                self.requested = True
                self._task = self.create_task(self._wait_then_end())
            return
        await self.push_frame(frame, direction)

    async def _wait_then_end(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.wait_s
        while self._words and not self._words_started and loop.time() < deadline:
            await asyncio.sleep(0.05)
        quiet_since = loop.time()
        while loop.time() < deadline and (self._speaking or loop.time() - quiet_since < self.settle_s):
            if self._speaking:
                quiet_since = loop.time()
            await asyncio.sleep(0.05)
        self.on_hang_up()


class CallerTurnGate(FrameProcessor):
    """Decides whether an ended agent turn gets a caller reply at all.

    No reply once the caller has hung up, and (``wait_on_hold``) none to an agent turn that
    only asks the caller to wait (:func:`~voxbench.pipelines.caller_prompt.is_hold_line`): the
    agent is about to run a tool and will speak again. The hold line stays in the context, so
    the next request shows it before the agent's answer.
    """

    def __init__(
        self, hang_up: CallerHangUp, wait_on_hold: bool, stats: dict[str, int] | None = None, **kwargs: Any
    ):
        super().__init__(**kwargs)
        self.hang_up = hang_up
        self.wait_on_hold = wait_on_hold
        self.stats = stats if stats is not None else {}
        self.stats.setdefault("holds_waited", 0)

    def _last_agent_turn(self, context: Any) -> str:
        lines = call_lines(context.get_messages())
        return lines[-1][1] if lines and lines[-1][0] == "Agent" else ""

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, LLMContextFrame):
            if self.hang_up.requested:
                return
            if self.wait_on_hold and is_hold_line(self._last_agent_turn(frame.context)):
                self.stats["holds_waited"] += 1
                return
        await self.push_frame(frame, direction)


def prepare_llm_caller(
    call: CallScenario, services: SimulatorServices, cfg: CallConfig, extra_instructions: Sequence[str] = ()
) -> None:
    """Give the caller's LLM its brief (plus e.g. a perturbation persona) and its echo/give-up rules.

    Separate from :func:`build_llm_simulator` so the runner can :func:`warm_up_llm_caller` the
    finished prompt before the call clock starts. Idempotent; ``services.info`` records a hash of
    the prompt and, for the JSON service, the caller's turn statistics.
    """
    if services.llm is None or services.info.prompt_sha256 is not None:
        return
    llm = services.llm
    scfg = cfg.simulator.llm
    parts = [simulator_prompt(call, scfg.reply_format), *[t for t in extra_instructions if t]]
    for text in parts:
        llm.append_system_instruction(text)
    prompt = "\n\n".join(parts)
    services.info.prompt_sha256 = hashlib.sha256(prompt.encode()).hexdigest()[:16]
    services.info.prompt = prompt  # in the record, not on the terminal (voxbench call is quiet)
    stats: dict[str, int] = {}
    if getattr(llm, "speaks_caller_json", False):
        n = scfg.give_up_after_says
        llm.give_up = GiveUp(scfg.give_up_line, n) if n is not None else None  # type: ignore[attr-defined]
        llm.retry_echoes = scfg.retry_echoes  # type: ignore[attr-defined]
        # a second echo is replaced by the caller's own request, in its opening words
        llm.echo_fallback = str(call.resolver.resolve(call.scenario.starting_utterance(call.lang)))  # type: ignore[attr-defined]
        stats = llm.caller_stats  # type: ignore[attr-defined]
        services.info.caller_unspoken = llm.caller_unspoken  # type: ignore[attr-defined]
    stats.setdefault("holds_waited", 0)
    services.info.caller_stats = stats  # filled during the call, written with the record


async def warm_up_llm_caller(services: SimulatorServices) -> float | None:
    """Prime the caller LLM's prompt cache with its system prompt (best effort; seconds or None)."""
    if services.llm is None:
        return None
    return await warm_up(services.llm, LLMContext())


def build_llm_simulator(
    call: CallScenario,
    services: SimulatorServices,
    transport: WebsocketClientTransport,
    cfg: CallConfig,
    control: CallControl,
    clock: ConversationClock,
    sample_rate: int,
) -> Pipeline:
    """The LLM caller's pipeline: wire in -> STT -> turns -> opening/gate -> LLM -> hang-up -> TTS -> wire out."""
    if services.llm is None or services.stt is None:
        raise ValueError("the LLM simulator needs stt and llm services")
    scfg = cfg.simulator
    fmt = scfg.llm.reply_format
    llm = services.llm
    if fmt == "json" and not getattr(llm, "speaks_caller_json", False):
        raise ValueError(
            "reply_format='json' needs a caller LLM service from make_caller_llm "
            "(or set simulator.llm.reply_format='tools')"
        )
    prepare_llm_caller(call, services, cfg)  # no-op when the runner already did it
    hang_up = CallerHangUp(lambda: control.end("end_call", t=clock.now()), scfg.llm.hangup_wait_s)

    async def end_call(params: FunctionCallParams) -> None:
        await params.result_callback({"status": "ok"}, properties=FunctionCallResultProperties(run_llm=False))
        await params.llm.push_frame(HangUpFrame())

    llm.register_function(END_CALL, end_call)
    if fmt == "tools":
        schema = FunctionSchema(
            name=END_CALL,
            description="Hang up the phone. Call it right after saying goodbye.",
            properties={"reason": {"type": "string", "description": "why you are hanging up"}},
            required=[],
        )
        context = LLMContext(tools=ToolsSchema(standard_tools=[schema]))
    else:
        context = LLMContext()  # end_call is a field of the JSON reply, not a tool the model sees
    user_agg, assistant_agg = LLMContextAggregatorPair(
        context, user_params=user_aggregator_params(scfg.vad, scfg.llm.turn, sample_rate)
    )
    opening = str(call.resolver.resolve(call.scenario.starting_utterance(call.lang)))
    stages: list[FrameProcessor] = [transport.input()]
    if cfg.wire.gap_fill:
        stages.append(GapFillProcessor(sample_rate))
    stages += [
        services.stt,
        user_agg,
        OpeningLine(opening, scfg.llm.no_greeting_s),
        CallerTurnGate(hang_up, scfg.llm.wait_on_hold, services.info.caller_stats),
        llm,
        hang_up,
        services.tts,
        transport.output(),
        assistant_agg,
    ]
    return Pipeline(stages)
