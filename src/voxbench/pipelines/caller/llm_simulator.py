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

import hashlib
from collections.abc import Sequence
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
from voxbench.pipelines.config import CallConfig
from voxbench.pipelines.scenario_input import CallScenario
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
    "prepare_llm_caller",
    "simulator_prompt",
    "warm_up_llm_caller",
]


def agent_asked_to_wait(context: Any) -> bool:
    """Whether the agent's last turn in ``context`` only asks the caller to wait (a hold line)."""
    lines = call_lines(context.get_messages())
    return is_hold_line(lines[-1][1] if lines and lines[-1][0] == "Agent" else "")


def prepare_llm_caller(
    call: CallScenario, services: SimulatorServices, cfg: CallConfig, extra_instructions: Sequence[str] = ()
) -> None:
    """Give the caller's LLM its brief (plus e.g. a perturbation persona).

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
    if isinstance(llm, CallerLLMService):  # its rules came with it (make_caller_llm)
        stats = llm.caller_stats
        services.info.caller_unspoken = llm.caller_unspoken
    stats.setdefault("holds_waited", 0)
    services.info.caller_stats = stats  # filled during the call, written with the record


async def warm_up_llm_caller(services: SimulatorServices) -> float | None:
    """Prime the caller LLM's prompt cache with its system prompt (best effort; seconds or None)."""
    if services.llm is None:
        return None
    return await warm_up(services.llm, LLMContext())


async def prepare_before_clock(b: CallerBuild) -> None:
    """Before the clock starts: the caller's brief (with a perturbation's persona) given to
    its LLM, and the prompt cache warmed on it (``LLMSimConfig.warm_up``)."""
    live = b.live
    note_stage(live.out, "warming the LLM caller on its prompt")
    extra = [b.caller_side.persona_text()] if b.caller_side is not None else []
    prepare_llm_caller(live.call, b.services, live.cfg, extra)
    if live.cfg.simulator.llm.warm_up:
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
