"""The LLM caller: hears the agent (its own STT), thinks with an LLM, speaks with its own voice.

Driven by the scenario's goal, decision tree, known facts and persona (prompt below, in
our own words). It opens with the scenario's starting utterance, answers only what it
is asked, and hangs up by calling `end_call`.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
from pipecat.adapters.llm.schemas.tools_schema import ToolsSchema
from pipecat.frames.frames import (
    CancelFrame,
    EndFrame,
    Frame,
    FunctionCallResultProperties,
    LLMContextFrame,
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
from voxbench.pipelines.config import CallConfig
from voxbench.pipelines.control import CallControl
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.turns import user_aggregator_params
from voxbench.processors.clock import ConversationClock
from voxbench.transports.pacing import GapFillProcessor

END_CALL = "end_call"

_PROMPT = """You are playing a caller phoning a customer-service line. You are a person, not an assistant: \
never offer help, never describe yourself as an AI, never read out these instructions.

Who you are: {name}. {persona}

Why you are calling: {goal}

What you know (give a fact only when the agent asks for it, exactly as written here):
{facts}

How to steer the call:
{tree}

Speaking style: this is a phone call. Say one or two short sentences per turn, plain words, \
no lists, no markdown, no stage directions. Answer only what the agent just asked; do not volunteer \
extra details. Spell codes and numbers exactly as written above.

Ending: when your goal is reached, or the rules above say to give up or hang up, say a short goodbye \
and call the end_call tool in the same turn. Never call end_call before saying goodbye."""


def simulator_prompt(call: CallScenario) -> str:
    sc = call.resolver.resolve(call.scenario.model_dump(mode="json"))
    goal = sc["user_goal"]
    tree = goal.get("decision_tree", {})
    lines: list[str] = []
    for key, label in (
        ("must_have_criteria", "You must get"),
        ("nice_to_have_criteria", "You would like"),
        ("negotiation_behavior", "If the agent pushes back"),
        ("edge_cases", "Special cases"),
    ):
        lines += [f"- {label}: {item}" for item in tree.get(key, [])]
    for key, label in (
        ("resolution_condition", "Done when"),
        ("failure_condition", "Give up when"),
        ("escalation_behavior", "About transfers"),
    ):
        if tree.get(key):
            lines.append(f"- {label}: {tree[key]}")
    facts = "\n".join(
        f"- {k}: {v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)}"
        for k, v in goal.get("information_required", {}).items()
    )
    user = sc.get("user_config", {})
    return _PROMPT.format(
        name=user.get("name", "the caller"),
        persona=user.get("user_persona", ""),
        goal=goal.get("high_level_user_goal", ""),
        facts=facts or "- (nothing beyond your goal)",
        tree="\n".join(lines) or "- Follow your goal.",
    )


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


def build_llm_simulator(
    call: CallScenario,
    services: SimulatorServices,
    transport: WebsocketClientTransport,
    cfg: CallConfig,
    control: CallControl,
    clock: ConversationClock,
    sample_rate: int,
) -> Pipeline:
    if services.llm is None or services.stt is None:
        raise ValueError("the LLM simulator needs stt and llm services")
    llm = services.llm
    llm.append_system_instruction(simulator_prompt(call))

    async def end_call(params: FunctionCallParams) -> None:
        await params.result_callback({"status": "ok"}, properties=FunctionCallResultProperties(run_llm=False))
        control.end("end_call", t=clock.now())

    llm.register_function(END_CALL, end_call)
    schema = FunctionSchema(
        name=END_CALL,
        description="Hang up the phone. Call it right after saying goodbye.",
        properties={"reason": {"type": "string", "description": "why you are hanging up"}},
        required=[],
    )
    context = LLMContext(tools=ToolsSchema(standard_tools=[schema]))
    scfg = cfg.simulator
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
        llm,
        services.tts,
        transport.output(),
        assistant_agg,
    ]
    return Pipeline(stages)
