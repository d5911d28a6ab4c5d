"""Hybrid agents: an audio-in LLM answering in text, spoken by a TTS.

``input -> Kickoff -> user aggregator -> realtime LLM (text out) -> TTS -> output -> assistant aggregator``

OpenAI Realtime with ``output_modalities=["text"]``, Gemini Live in text mode and
Ultravox with ``output_medium="text"``. The construction is the S2S agent's with a TTS
after the LLM (see :mod:`voxbench.pipelines.agent.s2s`); the TTS's TTFB lands in the
record as ``tts_ttfb`` and the LLM's time to first text as ``llm_ttft``.
"""

from __future__ import annotations

from pipecat.services.llm_service import LLMService
from pipecat.services.tts_service import TTSService

from voxbench.pipelines.agent.s2s import RealtimeAgentServices, build_realtime_agent
from voxbench.pipelines.services.cloud import RealtimeConfig
from voxbench.records import AgentInfo

__all__ = ["build_realtime_agent", "hybrid_services"]


def hybrid_services(
    llm: LLMService, tts: TTSService, realtime: RealtimeConfig, info: AgentInfo | None = None
) -> RealtimeAgentServices:
    """The service bundle of a hybrid agent (``realtime.output`` must be ``text``)."""
    if realtime.output != "text":
        raise ValueError("a hybrid agent's realtime LLM must answer in text (output: text)")
    return RealtimeAgentServices(
        llm=llm, realtime=realtime, tts=tts, info=info or AgentInfo(architecture="hybrid")
    )
