"""The offline default stack: whisper tiny.en + embedded llama.cpp (Qwen) + Piper, per call.

One llama.cpp server per role, owned by the caller of these functions: the agent's
(Qwen2.5-Coder-1.5B with grammar-constrained ``{say, tool}`` replies, ``LOCAL_AGENT_LLM``,
:func:`start_llm_server`) and, for the LLM caller, the simulator's (Qwen2.5-Coder-1.5B,
:func:`start_simulator_llm_server`): the 0.5B loops as a caller and makes no useful tool
calls as an agent; the 1.5B keeps the caller's role under the JSON reply format
(offline-models.md §4.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from voxbench.pipelines.bundles import AgentServices, SimulatorServices
from voxbench.pipelines.services import (
    LOCAL_AGENT_LLM,
    SIMULATOR_LLM,
    LLMConfig,
    STTConfig,
    TTSConfig,
    make_local_llm_server,
    make_stt,
    make_tts,
)
from voxbench.records import ServicePart, SimulatorInfo

if TYPE_CHECKING:
    from voxbench.pipelines.caller.llm_setup import CallerBriefing

USER_VOICE = TTSConfig(voice="user")
CALLER_TONE_F0 = 220.0  # the caller's synthetic voice, an octave apart from the agent's 120 Hz tone


def caller_voice(voice: str | None, accent_voice_id: str | None = None) -> tuple[Any, ServicePart]:
    """The caller's TTS service and how the record names it: ``tone`` is the model-free
    synthetic voice; a condition's accent voice replaces any other."""
    from voxbench.pipelines.caller.side import tts_config_for_voice

    if voice == "tone" and accent_voice_id is None:
        from voxbench.pipelines.services.tone import ToneTTSService

        tone = ToneTTSService(f0=CALLER_TONE_F0)
        return tone, ServicePart(vendor="synthetic", model=tone.voice_id)
    base = TTSConfig(voice=voice) if voice not in (None, "tone") else USER_VOICE
    cfg = tts_config_for_voice(accent_voice_id, base)
    return make_tts(cfg), ServicePart(vendor="local", model=cfg.voice_id)


def start_llm_server(cfg: LLMConfig | None = None) -> Any:
    return make_local_llm_server(cfg or LOCAL_AGENT_LLM).start()


def start_simulator_llm_server(cfg: LLMConfig | None = None) -> Any:
    """The LLM caller's own server (``SIMULATOR_LLM`` by default); ``None`` for a remote endpoint."""
    cfg = cfg or SIMULATOR_LLM
    return start_llm_server(cfg) if cfg.kind == "local" else None


def local_agent(
    server: Any, llm_cfg: LLMConfig | None = None, stt_cfg: STTConfig | None = None
) -> AgentServices:
    """The offline default agent (profile ``cascade-local``), its LLM and STT optionally replaced."""
    from voxbench.pipelines.agent.builder import build_agent_services
    from voxbench.pipelines.agent.profiles import BUILTIN_PROFILES

    profile = BUILTIN_PROFILES["cascade-local"].model_copy(
        update={"llm": llm_cfg or LOCAL_AGENT_LLM, "stt": stt_cfg or STTConfig()}
    )
    services = build_agent_services(profile, server=server, check=False)
    assert isinstance(services, AgentServices)
    return services


def local_simulator(
    kind: str,
    server: Any = None,
    llm_cfg: LLMConfig | None = None,
    voice_id: str | None = None,
    voice: str | None = None,
    briefing: CallerBriefing | None = None,
) -> SimulatorServices:
    """The caller's services by its registry entry: a voice; an STT when it hears words; its
    own model when it thinks with one. ``voice`` is its own voice (``SimulatorSpec.voice``: a
    TTS voice name, ``tone``, or None for the default), `voice_id` a perturbation condition's
    accent voice, which replaces it.

    A caller with its own model (``kind='llm'``) needs its ``briefing`` (the call's scenario,
    caller config and persona); ``server`` is its own model server (see
    :func:`start_simulator_llm_server`) and ``llm_cfg`` defaults to ``SIMULATOR_LLM``.
    """
    from voxbench.pipelines.caller.registry import caller_entry

    entry = caller_entry(kind)
    tts, part = caller_voice(voice, voice_id)
    info = SimulatorInfo(kind=kind, tts=part, accent_voice_id=voice_id or None)
    if not entry.hears_words:  # hears the agent by VAD only (the trace caller)
        return SimulatorServices(tts=tts, info=info)
    info.stt = ServicePart(vendor="local", model="faster-whisper tiny.en int8")
    if not entry.own_llm:  # hears the agent and decides without a model (the goal caller)
        return SimulatorServices(tts=tts, stt=make_stt(STTConfig()), info=info)
    if briefing is None:
        raise ValueError(f"the {kind} caller needs its briefing (the call's scenario and caller config)")
    from voxbench.pipelines.caller.llm_setup import llm_caller_services

    return llm_caller_services(
        briefing.call,
        briefing.sim,
        llm_cfg or SIMULATOR_LLM,
        tts=tts,
        stt=make_stt(STTConfig()),
        server=server,
        persona=briefing.persona,
        info=info,
    )
