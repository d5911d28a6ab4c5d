"""The cascade agent under test: STT -> LLM (domain tools, policy) -> TTS, served on the wire."""

from __future__ import annotations

from dataclasses import dataclass

from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import (
    LLMContextAggregatorPair,
    LLMUserAggregator,
)
from pipecat.processors.frame_processor import FrameProcessor
from pipecat.services.llm_service import LLMService
from pipecat.transports.base_transport import BaseTransport

from voxbench.pipelines.agent.tools import bind_tools, tools_schema
from voxbench.pipelines.bundles import AgentServices
from voxbench.pipelines.config import AgentConfig
from voxbench.pipelines.services.llm_service import ToolCallAdapterLLMService
from voxbench.pipelines.turns import user_aggregator_params
from voxbench.processors.clock import ConversationClock
from voxbench.processors.control import CallControl
from voxbench.processors.fallback_nudge import FallbackNudger
from voxbench.processors.pre_tool_speech import PreToolSpeech
from voxbench.scenarios import AgentSpec, ToolExecutor

PHONE_STYLE = (
    "You are speaking on a phone call: answer in one to three short spoken sentences, "
    "no lists or markdown. Use the tools to look things up and to make changes."
)


def agent_system_instruction(spec: AgentSpec, current_date_time: str | None = None) -> str:
    """The cascade agent's system prompt: the domain policy, the phone style and, when given,
    today's date (:func:`instruct_agent` sends the date separately where it can)."""
    text = spec.system_prompt() + "\n\n" + PHONE_STYLE
    return f"{text}\n\n{date_note(current_date_time)}" if current_date_time else text


def date_note(current_date_time: str) -> str:
    return f"The current date and time is {current_date_time}."


def instruct_agent(llm: LLMService, spec: AgentSpec, current_date_time: str) -> None:
    """Give the agent's LLM its policy and today's date. On our OpenAI-compatible service the
    date goes as its own message after the tool schemas, so every scenario of a domain shares
    the policy-and-tools prefix (see ``with_note_after_instruction``); elsewhere it stays in
    the instruction."""
    if isinstance(llm, ToolCallAdapterLLMService):
        llm.append_system_instruction(agent_system_instruction(spec))
        llm.context_note = date_note(current_date_time)
    else:
        llm.append_system_instruction(agent_system_instruction(spec, current_date_time))


@dataclass
class AgentPipeline:
    pipeline: Pipeline
    context: LLMContext
    transport: BaseTransport


@dataclass(frozen=True)
class AgentInputs:
    """What every agent pipeline of a call is built from, besides its services and transport:
    the scenario's agent spec and tools, the call's agent config, control and clock."""

    spec: AgentSpec
    executor: ToolExecutor
    current_date_time: str
    cfg: AgentConfig
    control: CallControl
    clock: ConversationClock
    sample_rate: int


def build_cascade_agent(
    services: AgentServices,
    transport: BaseTransport,  # the loopback websocket, or a person's WebRTC / local audio
    inputs: AgentInputs,
) -> AgentPipeline:
    spec, executor, cfg, control, clock = (
        inputs.spec,
        inputs.executor,
        inputs.cfg,
        inputs.control,
        inputs.clock,
    )
    current_date_time, sample_rate = inputs.current_date_time, inputs.sample_rate
    llm = services.llm
    instruct_agent(llm, spec, current_date_time)
    bind_tools(llm, executor, spec, control, cfg.transfer_message, clock.now)
    context = LLMContext(tools=tools_schema(spec))
    user_params = user_aggregator_params(cfg.vad, cfg.turn, sample_rate)
    nudger = None
    if cfg.turn_end_fallback_s is not None:
        user_params.user_idle_timeout = cfg.turn_end_fallback_s  # pipecat's silence timer
        nudger = FallbackNudger(cfg.turn_end_fallback_s)
    user_agg, assistant_agg = LLMContextAggregatorPair(context, user_params=user_params)
    stages: list[FrameProcessor] = [transport.input(), services.stt]
    if nudger is not None:
        stages.append(nudger)
        _nudge_on_idle(user_agg, nudger)
    stages += [user_agg, llm]
    if cfg.pre_tool_speech:
        stages.append(PreToolSpeech(cfg.pre_tool_speech))
    stages += [services.tts, transport.output(), assistant_agg]
    return AgentPipeline(Pipeline(stages), context, transport)


def _nudge_on_idle(user_agg: LLMUserAggregator, nudger: FallbackNudger) -> None:
    """The aggregator's idle event (caller silent after the agent's turn) sends a nudge."""

    @user_agg.event_handler("on_user_turn_idle")
    async def _idle(_agg: LLMUserAggregator) -> None:
        await nudger.nudge()
