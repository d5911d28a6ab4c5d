"""Speech-to-speech agents (OpenAI Realtime, Gemini Live, Ultravox) served on the wire.

Pipeline: ``input -> Kickoff -> user aggregator -> realtime LLM -> output -> assistant aggregator``.
The realtime service hears the caller's audio and speaks itself; its tool calls go
through pipecat's function handlers to the scenario's ``ToolExecutor`` (the same
handlers as the cascade agent). Turn-taking is the provider's (server VAD) unless
``turn_detection: local`` (OpenAI only), which runs our VAD + turn analyzer.

A realtime service needs one inference request to have a context at all, and can only
greet by generating speech: :class:`Kickoff` sends that request when the caller
connects, and swallows the runner's ``TTSSpeakFrame`` greeting (there is no TTS here;
the greeting text is in the instructions instead).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import (
    LLMContextAggregatorPair,
    LLMUserAggregatorParams,
)
from pipecat.processors.frame_processor import FrameProcessor
from pipecat.services.llm_service import LLMService
from pipecat.services.tts_service import TTSService
from pipecat.transports.base_transport import BaseTransport

from voxbench.pipelines.agent.cascade import AgentInputs, AgentPipeline
from voxbench.pipelines.agent.tools import bind_tools, tools_schema
from voxbench.pipelines.services.cloud import RealtimeConfig
from voxbench.pipelines.turns import user_aggregator_params
from voxbench.processors.kickoff import Kickoff
from voxbench.records import AgentInfo
from voxbench.scenarios import AgentSpec

PHONE_STYLE = (
    "\n\nYou are speaking on a phone call: answer in one to three short spoken sentences, "
    "no lists or markdown. Use the tools to look things up and to make changes."
)


def instructions(spec: AgentSpec, current_date_time: str, greeting: str | None) -> str:
    text = spec.system_prompt(current_date_time) + PHONE_STYLE
    if greeting:
        text += f'\n\nWhen the call starts, greet the caller by saying: "{greeting}"'
    return text


def configure_realtime(llm: LLMService, text: str, spec: AgentSpec) -> None:
    """Give a realtime service its per-call instructions and tools.

    OpenAI Realtime and Gemini Live read both from settings/context at session start.
    Ultravox creates its call (prompt and tools included) in ``start()``, from its
    constructor params, so those are replaced here before the pipeline starts.
    """
    params = getattr(llm, "_params", None)
    if params is not None and hasattr(params, "system_prompt") and hasattr(llm, "_selected_tools"):
        setattr(llm, "_params", params.model_copy(update={"system_prompt": text}))  # noqa: B010
        setattr(llm, "_selected_tools", tools_schema(spec))  # noqa: B010
        return
    llm.append_system_instruction(text)


@dataclass
class RealtimeAgentServices:
    """An audio-in LLM (``llm``) and, for a hybrid agent, the ``tts`` that speaks its text."""

    llm: LLMService
    realtime: RealtimeConfig
    tts: TTSService | None = None
    info: AgentInfo = field(default_factory=AgentInfo)

    def build_pipeline(
        self,
        transport: BaseTransport,
        inputs: AgentInputs,
    ) -> AgentPipeline:
        return build_realtime_agent(self, transport, inputs)


def build_realtime_agent(
    services: RealtimeAgentServices,
    transport: BaseTransport,
    inputs: AgentInputs,
) -> AgentPipeline:
    """S2S when ``services.tts`` is None, hybrid (realtime text -> TTS) otherwise."""
    spec, executor, cfg, control, clock = (
        inputs.spec,
        inputs.executor,
        inputs.cfg,
        inputs.control,
        inputs.clock,
    )
    current_date_time, sample_rate = inputs.current_date_time, inputs.sample_rate
    llm = services.llm
    configure_realtime(llm, instructions(spec, current_date_time, cfg.greeting), spec)
    bind_tools(llm, executor, spec, control, cfg.transfer_message, clock.now)
    context = LLMContext(tools=tools_schema(spec))
    user_params = (
        user_aggregator_params(cfg.vad, cfg.turn, sample_rate)
        if services.realtime.turn_detection == "local"
        else LLMUserAggregatorParams()
    )
    user_agg, assistant_agg = LLMContextAggregatorPair(context, user_params=user_params)
    kickoff = Kickoff()

    @transport.event_handler("on_client_connected")
    async def _start(_t: Any, _ws: Any) -> None:
        await kickoff.kick()

    stages: list[FrameProcessor] = [transport.input(), kickoff, user_agg, llm]
    if services.tts is not None:
        stages.append(services.tts)
    stages += [transport.output(), assistant_agg]
    return AgentPipeline(Pipeline(stages), context, transport)
