"""User-turn detection (VAD + smart-turn or silence timeout) for either pipeline."""

from __future__ import annotations

from pipecat.audio.turn.smart_turn.local_smart_turn_v3 import LocalSmartTurnAnalyzerV3
from pipecat.processors.aggregators.llm_response_universal import LLMUserAggregatorParams
from pipecat.turns.user_stop.speech_timeout_user_turn_stop_strategy import SpeechTimeoutUserTurnStopStrategy
from pipecat.turns.user_stop.turn_analyzer_user_turn_stop_strategy import TurnAnalyzerUserTurnStopStrategy
from pipecat.turns.user_turn_strategies import UserTurnStrategies

from voxbench.pipelines.config import TurnConfig, VADConfig
from voxbench.transports.vad import make_vad


def user_aggregator_params(vad: VADConfig, turn: TurnConfig, sample_rate: int) -> LLMUserAggregatorParams:
    stop = (
        TurnAnalyzerUserTurnStopStrategy(turn_analyzer=LocalSmartTurnAnalyzerV3())
        if turn.smart_turn
        else SpeechTimeoutUserTurnStopStrategy(user_speech_timeout=turn.speech_timeout_s)
    )
    return LLMUserAggregatorParams(
        vad_analyzer=make_vad(vad, sample_rate),
        user_turn_strategies=UserTurnStrategies(stop=[stop]),
    )
