"""From an agent profile to services, and from services to the agent pipeline of a call.

``build_agent_services(profile)`` constructs the profile's pipecat services (never
connects; call :func:`~voxbench.pipelines.agent.profiles.preflight` first for a one-line
error instead of a vendor SDK's). ``build_agent(...)`` is what the runner calls: a
cascade for plain :class:`AgentServices`, otherwise the bundle's own ``build_pipeline``
(realtime S2S/hybrid, external relay, a LiveKit session).
"""

from __future__ import annotations

from typing import Any, Protocol

from pipecat.transports.base_transport import BaseTransport

from voxbench.pipelines.agent.cascade import AgentInputs, AgentPipeline, build_cascade_agent
from voxbench.pipelines.agent.profiles import AgentProfile, preflight
from voxbench.pipelines.bundles import AgentServices
from voxbench.pipelines.services import LLMConfig, STTConfig, TTSConfig, make_llm, make_stt, make_tts
from voxbench.pipelines.services.cloud import (
    CloudLLMConfig,
    CloudSTTConfig,
    CloudTTSConfig,
    make_cloud_llm,
    make_cloud_stt,
    make_cloud_tts,
    make_realtime_llm,
)
from voxbench.records import AgentInfo
from voxbench.records.secrets import read_secret


class AgentBundle(Protocol):
    """Services that know how to build their own agent pipeline."""

    info: AgentInfo
    llm: Any

    def build_pipeline(
        self,
        transport: BaseTransport,
        inputs: AgentInputs,
    ) -> AgentPipeline: ...


def build_agent(
    services: AgentServices | AgentBundle,
    transport: BaseTransport,
    inputs: AgentInputs,
) -> AgentPipeline:
    if isinstance(services, AgentServices):
        return build_cascade_agent(services, transport, inputs)
    return services.build_pipeline(transport, inputs)


def _stt(cfg: STTConfig | CloudSTTConfig) -> Any:
    return make_stt(cfg) if isinstance(cfg, STTConfig) else make_cloud_stt(cfg)


def _tts(cfg: TTSConfig | CloudTTSConfig) -> Any:
    return make_tts(cfg) if isinstance(cfg, TTSConfig) else make_cloud_tts(cfg)


def _llm(cfg: LLMConfig | CloudLLMConfig, server: Any) -> Any:
    return make_llm(cfg, server=server) if isinstance(cfg, LLMConfig) else make_cloud_llm(cfg)


def build_agent_services(
    profile: AgentProfile, *, server: Any = None, check: bool = True
) -> AgentServices | AgentBundle:
    """The services of one call for ``profile`` (a fresh set per call).

    ``server``: a started ``LocalLLMServer`` when the profile's LLM is ``kind: local``.
    ``check``: run :func:`preflight` first (missing keys/extras -> one-line error).
    """
    if check:
        preflight(profile)
    info = profile.info()
    if profile.architecture == "cascade":
        assert profile.stt is not None and profile.llm is not None and profile.tts is not None
        # a stand-in server (tests, a remote endpoint) may have no saved prompts
        saved = getattr(server, "prompt_cache", None) if isinstance(profile.llm, LLMConfig) else None
        return AgentServices(
            stt=_stt(profile.stt),
            llm=_llm(profile.llm, server),
            tts=_tts(profile.tts),
            info=info,
            prompt_cache=saved() if saved is not None else None,
        )
    if profile.architecture in ("hybrid", "s2s"):
        from voxbench.pipelines.agent.s2s import RealtimeAgentServices

        assert profile.realtime is not None
        tts = _tts(profile.tts) if profile.tts is not None else None
        return RealtimeAgentServices(
            llm=make_realtime_llm(profile.realtime), realtime=profile.realtime, tts=tts, info=info
        )
    if profile.architecture == "livekit":
        from voxbench.pipelines.agent.livekit_session import LiveKitAgentServices

        assert profile.livekit is not None
        running = server is not None and getattr(server, "running", True)
        return LiveKitAgentServices(
            livekit=profile.livekit,
            info=info,
            llm_base_url=server.base_url if running else None,
            llm_model=server.model if running else None,
        )
    from voxbench.pipelines.agent.external import ExternalAgentServices

    assert profile.external is not None
    headers = {h: read_secret(env) or "" for h, env in profile.external.headers_env.items()}
    return ExternalAgentServices(external=profile.external, headers=headers, info=info)
