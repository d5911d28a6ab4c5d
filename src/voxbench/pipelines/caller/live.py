"""Every simulated caller's live pipeline, built one way around its policy.

    wire in -> (gap fill) -> ears -> PolicyDriver -> hang-up -> TTS -> wire out

The ears are a property of the kind's registry entry (``hears_words``): an STT and pipecat's
turn detection (VAD + smart-turn or a silence timeout) for a caller that hears words; a VAD
and :class:`~voxbench.processors.caller_turns.VoiceTurns` for one that hears voice activity
only (the trace caller). The :class:`~voxbench.pipelines.caller.driver.PolicyDriver` runs the
policy with the kind's timing, records every act as a ``caller_act`` event, and a
:class:`~voxbench.processors.caller_turns.CallerHangUp` ends the call through ``CallControl``
once the act that ends it has been spoken.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import LLMUserAggregator
from pipecat.processors.audio.vad_processor import VADProcessor
from pipecat.processors.frame_processor import FrameProcessor
from pipecat.services.stt_service import SegmentedSTTService
from pipecat.turns.user_start import TranscriptionUserTurnStartStrategy, VADUserTurnStartStrategy

from voxbench.pipelines.caller.driver import PolicyDriver, SentenceDriver, TurnTiming
from voxbench.pipelines.caller.frame import caller_pipeline
from voxbench.pipelines.caller.policy import CallerAct, CallerPolicy
from voxbench.pipelines.caller.registry import CallerBuild, caller_entry
from voxbench.pipelines.config import TurnConfig
from voxbench.pipelines.turns import user_aggregator_params
from voxbench.processors.caller_turns import CallerHangUp, VoiceTurns
from voxbench.processors.segment_transcripts import SegmentTranscripts
from voxbench.transports.vad import make_vad


@dataclass
class LiveCaller:
    """What a kind gives the shared builder: its policy and timing, and its turn-taking settings.

    ``turn``: the turn detection of an ear that hears words; ``turn_gap_s``: the agent quiet
    that ends a turn for an ear of voice activity only; ``yields_to_agent``: the agent's speech
    cuts the caller's line (words ear); ``end_reason``: the call's end reason when the policy
    ends it (None: the policy's own ``end_reason``); ``stats``: the driver's counters (shared
    with the record's caller info, or private); ``by_sentence``: the TTS speaks an act's words a sentence at a time
    (``PolicyDriver``)."""

    policy: CallerPolicy
    timing: TurnTiming | None
    no_greeting_s: float
    hangup_wait_s: float
    turn: TurnConfig | None = None
    turn_gap_s: float = 1.5
    yields_to_agent: bool = True
    silence_check_s: float | None = None
    end_reason: str | None = None
    stats: dict[str, int] | None = None
    by_sentence: bool = False


def ears(b: CallerBuild, c: LiveCaller) -> list[FrameProcessor]:
    """The caller's ears by its entry: STT + turn detection (a segmented STT's transcripts
    through :class:`SegmentTranscripts`), or VAD + voice turns."""
    live = b.live
    scfg, sample_rate = live.cfg.simulator, live.cfg.wire.sample_rate
    if not caller_entry(scfg.kind).hears_words:
        return [VADProcessor(vad_analyzer=make_vad(scfg.vad, sample_rate)), VoiceTurns(c.turn_gap_s)]
    if b.services.stt is None:
        raise ValueError(f"the {scfg.kind} caller hears words: it needs an stt service")
    params = user_aggregator_params(scfg.vad, c.turn or TurnConfig(), sample_rate)
    strategies = params.user_turn_strategies
    if not c.yields_to_agent and strategies is not None:  # the agent does not cut the caller's line
        strategies.start = [
            VADUserTurnStartStrategy(enable_interruptions=False),
            TranscriptionUserTurnStartStrategy(enable_interruptions=False),
        ]
    stt = b.services.stt
    # a segmented STT's late transcript must not end the turn before its last segment's words
    ledger = [SegmentTranscripts()] if isinstance(stt, SegmentedSTTService) else []
    return [stt, *ledger, LLMUserAggregator(LLMContext(), params=params)]


def live_caller(b: CallerBuild, c: LiveCaller) -> Pipeline:
    """The caller's pipeline (see the module docstring)."""
    live = b.live
    clock, policy = live.clock, c.policy

    def on_act(act: CallerAct) -> None:
        live.rec.emit(act.to_event(clock.now()))

    driver = (SentenceDriver if c.by_sentence else PolicyDriver)(
        policy,
        on_act,
        c.no_greeting_s,
        c.timing,
        c.stats,
        c.silence_check_s,
        now=clock.now,
    )

    def end() -> None:
        live.control.end(c.end_reason or policy.end_reason or "end_call", t=clock.now())

    return caller_pipeline(b, [*ears(b, c), driver, CallerHangUp(end, c.hangup_wait_s)])
