"""The LLM caller: hears the agent (its own STT), thinks with an LLM, speaks with its own voice.

Driven by the scenario's goal, decision tree, known facts and persona
(:mod:`voxbench.pipelines.caller.prompt`). It opens with the scenario's starting utterance,
answers only what it is asked, waits silently through the agent's hold lines ("One moment
please."), gives up instead of looping, and hangs up once its goodbye has been spoken.

Two reply formats (``LLMSimConfig.reply_format``):

* ``json`` (default): the model writes ``{"customer_says", "end_call"}`` under a JSON-schema
  grammar after a transcript of the call from the caller's side
  (:mod:`voxbench.pipelines.caller.llm_service`); only ``customer_says`` is spoken. Needs a service
  from :func:`~voxbench.pipelines.caller.llm_service.make_caller_llm`. The one small local models
  manage (offline default: Qwen2.5-Coder-1.5B on its own llama.cpp server).
* ``tools``: the model talks in pipecat's chat context and hangs up with a native
  ``end_call`` tool. For capable cloud models; small local models break character this way.
"""

from __future__ import annotations

from typing import Any

from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
from pipecat.adapters.llm.schemas.tools_schema import ToolsSchema
from pipecat.frames.frames import (
    FunctionCallResultProperties,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import LLMContextAggregatorPair
from pipecat.processors.frame_processor import FrameProcessor
from pipecat.services.llm_service import FunctionCallParams

from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.caller.frame import caller_pipeline
from voxbench.pipelines.caller.llm_service import CallerLLMService
from voxbench.pipelines.caller.prompt import call_lines, is_hold_line, simulator_prompt
from voxbench.pipelines.caller.registry import CallerBuild
from voxbench.pipelines.caller.turn_json import END_CALL
from voxbench.pipelines.turns import user_aggregator_params
from voxbench.pipelines.warmup import warm_up
from voxbench.processors.caller_turns import CallerHangUp, CallerTurnGate, HangUpFrame, OpeningLine
from voxbench.records.stage import note_stage

__all__ = [
    "END_CALL",
    "CallerHangUp",
    "CallerTurnGate",
    "OpeningLine",
    "build_llm_caller",
    "prepare_before_clock",
    "simulator_prompt",
    "warm_up_llm_caller",
]


def agent_asked_to_wait(context: Any) -> bool:
    """Whether the agent's last turn in ``context`` only asks the caller to wait (a hold line)."""
    lines = call_lines(context.get_messages())
    return is_hold_line(lines[-1][1] if lines and lines[-1][0] == "Agent" else "")


async def warm_up_llm_caller(services: SimulatorServices) -> float | None:
    """Prime the caller LLM's prompt cache with its system prompt (best effort; seconds or None)."""
    if services.llm is None:
        return None
    return await warm_up(services.llm, LLMContext())


async def prepare_before_clock(b: CallerBuild) -> None:
    """Before the clock starts: the model's prompt cache warmed on the caller's brief
    (``LLMSimConfig.warm_up``; the brief came with the service, ``caller/llm_setup.py``)."""
    if b.live.cfg.simulator.llm.warm_up:
        note_stage(b.live.out, "warming the LLM caller on its prompt")
        await warm_up_llm_caller(b.services)


def build_llm_caller(b: CallerBuild) -> Pipeline:
    """The LLM caller's pipeline: wire in -> STT -> turns -> opening/gate -> LLM -> hang-up -> TTS -> wire out."""
    call, services, cfg = b.live.call, b.services, b.live.cfg
    control, clock, sample_rate = b.live.control, b.live.clock, cfg.wire.sample_rate
    if services.llm is None or services.stt is None:
        raise ValueError("the LLM simulator needs stt and llm services")
    scfg = cfg.simulator
    fmt = scfg.llm.reply_format
    llm = services.llm
    if fmt == "json" and not isinstance(llm, CallerLLMService):
        raise ValueError(
            "reply_format='json' needs a caller LLM service from make_caller_llm "
            "(or set simulator.llm.reply_format='tools')"
        )
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
    stages: list[FrameProcessor] = [
        services.stt,
        user_agg,
        OpeningLine(opening, scfg.llm.no_greeting_s),
        CallerTurnGate(
            hang_up, agent_asked_to_wait if scfg.llm.wait_on_hold else None, services.info.caller_stats
        ),
        llm,
        hang_up,
    ]
    return caller_pipeline(b, stages, [assistant_agg])
