"""The offline default stack: whisper tiny.en + embedded llama.cpp (Qwen) + Piper, per call.

One `LocalLLMServer` serves both the agent and the LLM simulator; the caller owns it.
"""

from __future__ import annotations

from typing import Any

from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.services import (
    LLMConfig,
    STTConfig,
    TTSConfig,
    make_llm,
    make_local_llm_server,
    make_stt,
    make_tts,
)

AGENT_VOICE = TTSConfig(voice="agent")
USER_VOICE = TTSConfig(voice="user")


def start_llm_server(cfg: LLMConfig | None = None) -> Any:
    return make_local_llm_server(cfg or LLMConfig()).start()


def local_agent(
    server: Any, llm_cfg: LLMConfig | None = None, stt_cfg: STTConfig | None = None
) -> AgentServices:
    llm_cfg = llm_cfg or LLMConfig()
    stt_cfg = stt_cfg or STTConfig()
    return AgentServices(
        stt=make_stt(stt_cfg),
        llm=make_llm(llm_cfg, server=server),
        tts=make_tts(AGENT_VOICE),
        info={
            "name": "cascade-local",
            "stt": f"faster-whisper {stt_cfg.model} {stt_cfg.compute_type}",
            "llm": str(getattr(server, "model", "local")),
            "tts": AGENT_VOICE.voice_id,
        },
    )


def local_simulator(
    kind: str, server: Any = None, llm_cfg: LLMConfig | None = None, voice_id: str | None = None
) -> SimulatorServices:
    """The caller's services; `voice_id` is a perturbation condition's accent voice."""
    from voxbench.pipelines.caller_side import tts_config_for_voice

    voice = tts_config_for_voice(voice_id, USER_VOICE)
    tts = make_tts(voice)
    info: dict[str, Any] = {"tts": voice.voice_id}
    if voice_id:
        info["accent_voice_id"] = voice_id
    if kind == "trace":
        return SimulatorServices(tts=tts, info=info)
    llm_cfg = llm_cfg or LLMConfig()
    info.update(stt="faster-whisper tiny.en int8", llm=str(getattr(server, "model", "local")))
    return SimulatorServices(
        tts=tts, stt=make_stt(STTConfig()), llm=make_llm(llm_cfg, server=server), info=info
    )
