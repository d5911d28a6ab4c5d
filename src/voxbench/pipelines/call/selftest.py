"""The CallSpec of a re-enacted reference conversation (`voxbench selftest`).

The reference agent answers a whole block of the trace as one turn, so the trace caller
waits for one agent turn per line (``follow_trace_turns`` off) and never for a hold.
``tone``: synthetic voices, energy VAD and a 0.2 s silence timeout (short, cheap calls).
``piper``: Piper joe for the agent, Piper joe 3 semitones down for the caller (Kokoro
costs ~7x Piper's CPU), Silero VAD and smart-turn v3 on the agent, the default timings.
"""

from __future__ import annotations

from typing import Literal

from voxbench.pipelines.call.spec import CallSeeds, CallSpec, ConversationRef, ReferenceAgent, SimulatorSpec
from voxbench.pipelines.config import (
    AgentConfig,
    CallConfig,
    LimitsConfig,
    SimulatorConfig,
    TraceSimConfig,
    TurnConfig,
    VADConfig,
)
from voxbench.scenarios.reference_script import ReferenceScript

CALLER_PIPER_VOICE = "user-piper"
# Upper bounds of a re-enacted call's pace, per voice: seconds of speech per character (the
# tone voice says 0.02 s/char, capped per sentence; Piper joe ~0.065 s/char) and the turn
# overhead per caller line (VAD stop + end of turn + the caller's turn gap + first audio,
# ~1.5 s with tone, ~3 s with smart-turn and Piper), with room for a loaded machine.
SPEECH_S_PER_CHAR = {"tone": 0.025, "piper": 0.09}
TURN_OVERHEAD_S = {"tone": 4.0, "piper": 8.0}
TOOL_CALL_S = 1.0
MIN_TIME_LIMIT_S = 300.0  # the old fixed limit: a short call on a starved machine keeps its slack


def selftest_time_limit_s(script: ReferenceScript, voices: Literal["tone", "piper"]) -> float:
    """The time limit of one re-enacted call, from the length of its reference conversation.

    A fixed limit cut off the longest EVA conversations (itsm and medical_hr hold 20-24
    caller lines and 15-18 tool calls: 230-270 s live with tone voices, past the old
    300 s when the machine was loaded: itsm 68 and 77 ended by time_limit with 20/21 of
    their lines said at load ~19 on 2 cores). The limit is twice what the lines need at the
    pace above, never under the old 300 s; a stall still ends at the inactivity limit first.
    """
    chars = sum(len(t) for t in (*script.user_lines, *script.agent_lines))
    need = (
        SPEECH_S_PER_CHAR[voices] * chars
        + TURN_OVERHEAD_S[voices] * (len(script.user_lines) + 1)
        + TOOL_CALL_S * len(script.tool_calls)
    )
    return round(max(MIN_TIME_LIMIT_S, 2 * need), 1)


def selftest_call_config(voices: Literal["tone", "piper"], time_limit_s: float) -> CallConfig:
    if voices == "tone":
        vad = VADConfig(engine="energy", start_secs=0.1, stop_secs=0.25)
        agent = AgentConfig(
            vad=vad, turn=TurnConfig(smart_turn=False, speech_timeout_s=0.2), greeting=None, warm_up=False
        )
        trace = TraceSimConfig(turn_gap_s=0.8, no_greeting_s=3.0, reply_timeout_s=8, follow_trace_turns=False)
        sim = SimulatorConfig(kind="trace", vad=vad, trace=trace)
        limits = LimitsConfig(time_limit_s=time_limit_s, inactivity_s=45, drain_s=2)
    else:
        agent = AgentConfig(greeting=None, warm_up=False)
        trace = TraceSimConfig(no_greeting_s=3.0, reply_timeout_s=20, follow_trace_turns=False)
        sim = SimulatorConfig(kind="trace", trace=trace)
        limits = LimitsConfig(time_limit_s=time_limit_s, drain_s=4)
    return CallConfig(agent=agent, simulator=sim, limits=limits, post_call_transcribe_agent=False)


def selftest_spec(conv: ConversationRef, voices: Literal["tone", "piper"], time_limit_s: float) -> CallSpec:
    """The CallSpec of one re-enacted call: the reference agent and the trace caller, voiced
    by ``voices`` (the record names both voices), run like any other call by ``CallSession``."""
    tone = voices == "tone"
    return CallSpec(
        conversation=conv,
        agent=ReferenceAgent(voice="tone" if tone else "agent"),
        simulator=SimulatorSpec(kind="trace", voice="tone" if tone else CALLER_PIPER_VOICE),
        call=selftest_call_config(voices, time_limit_s),
        seeds=CallSeeds.derive(0, conv, perturbed=False),
    )
