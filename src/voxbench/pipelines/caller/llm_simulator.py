"""The LLM caller: hears the agent (its own STT), thinks with an LLM, speaks with its own voice.

Driven by the scenario's goal, decision tree, known facts and persona
(:mod:`voxbench.pipelines.caller.prompt`). Its decisions are an
:class:`~voxbench.pipelines.caller.llm_policy.LLMCallerPolicy` (it opens with the scenario's
starting utterance, answers what it is asked, waits silently through the agent's hold lines
("One moment please."), gives up instead of looping), run by the driver every caller shares
(:func:`~voxbench.pipelines.caller.live.live_caller`: it answers each ended agent turn, and
hangs up once its goodbye has been spoken).

Two reply formats (``LLMSimConfig.reply_format``):

* ``json`` (default): the model writes ``{"customer_says", "end_call"}`` under a JSON-schema
  grammar after a transcript of the call from the caller's side
  (:mod:`voxbench.pipelines.caller.llm_service`); only ``customer_says`` is spoken. Needs a service
  from :func:`~voxbench.pipelines.caller.llm_service.make_caller_llm`. The one small local models
  manage (offline default: Qwen2.5-Coder-1.5B on its own llama.cpp server).
* ``tools``: the model talks in a chat context and hangs up with a native ``end_call`` tool.
  For capable cloud models; small local models break character this way.
"""

from __future__ import annotations

from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
from pipecat.adapters.llm.schemas.tools_schema import ToolsSchema
from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.aggregators.llm_context import LLMContext

from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.caller.live import LiveCaller, live_caller
from voxbench.pipelines.caller.llm_policy import LLMCallerPolicy, agent_asked_to_wait
from voxbench.pipelines.caller.llm_service import CallerLLMService
from voxbench.pipelines.caller.prompt import simulator_prompt
from voxbench.pipelines.caller.registry import CallerBuild
from voxbench.pipelines.caller.turn_json import END_CALL
from voxbench.pipelines.warmup import warm_up
from voxbench.records.stage import note_stage

__all__ = [
    "END_CALL",
    "agent_asked_to_wait",
    "build_llm_caller",
    "prepare_before_clock",
    "simulator_prompt",
    "warm_up_llm_caller",
]

END_CALL_TOOL = FunctionSchema(
    name=END_CALL,
    description="Hang up the phone. Call it right after saying goodbye.",
    properties={"reason": {"type": "string", "description": "why you are hanging up"}},
    required=[],
)


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
    """The LLM caller's pipeline: its STT and turn detection, the shared driver around its
    policy (every act recorded as a ``caller_act`` event), the spoken hang-up ("end_call")."""
    call, services, scfg = b.live.call, b.services, b.live.cfg.simulator
    if services.llm is None or services.stt is None:
        raise ValueError("the LLM simulator needs stt and llm services")
    fmt = scfg.llm.reply_format
    if fmt == "json" and not isinstance(services.llm, CallerLLMService):
        raise ValueError(
            "reply_format='json' needs a caller LLM service from make_caller_llm "
            "(or set simulator.llm.reply_format='tools')"
        )
    opening = str(call.resolver.resolve(call.scenario.starting_utterance(call.lang)))
    policy = LLMCallerPolicy(
        services.llm,
        opening,
        tools=ToolsSchema(standard_tools=[END_CALL_TOOL]) if fmt == "tools" else None,
        wait_on_hold=scfg.llm.wait_on_hold,
        stats=services.info.caller_stats,
    )
    return live_caller(
        b,
        LiveCaller(
            policy,
            None,
            scfg.llm.no_greeting_s,
            scfg.llm.hangup_wait_s,
            turn=scfg.llm.turn,
            end_reason="end_call",
            stats=services.info.caller_stats,
            by_sentence=True,  # as the model's streamed words were: first sentence first
        ),
    )
