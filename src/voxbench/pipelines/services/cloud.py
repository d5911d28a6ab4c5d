"""Cloud services through pipecat: configs, provider requirements and lazy factories.

Each config names its provider (``kind``), the model/voice, and the environment variable
holding the key (``api_key_env``, defaulting to the provider's usual name). Provider code is
imported only when a service is built, so importing this module needs neither pipecat nor
any vendor SDK. Building never connects: pipecat services open their sockets in
``setup()``/``start()``, i.e. when a pipeline starts.

``PROVIDERS`` says what each provider needs: the key variable, the pip extra and the
modules whose presence proves the extra is installed (see :mod:`voxbench.pipelines.agent.profiles`
for the preflight that checks them before a call).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from voxbench.records.secrets import read_secret


@dataclass(frozen=True)
class Provider:
    """What one provider needs on this machine."""

    name: str
    env: str | None  # API key variable (None: no key)
    extra: str  # `pip install "voxbench[<extra>]"`
    modules: tuple[str, ...]  # importable when the extra is installed


CLOUD_EXTRA = "cloud"

PROVIDERS: dict[str, Provider] = {
    "openai": Provider("openai", "OPENAI_API_KEY", CLOUD_EXTRA, ("openai", "httpx", "websockets")),
    "deepgram": Provider("deepgram", "DEEPGRAM_API_KEY", CLOUD_EXTRA, ("deepgram", "websockets")),
    "cartesia": Provider("cartesia", "CARTESIA_API_KEY", CLOUD_EXTRA, ("websockets",)),
    "elevenlabs": Provider("elevenlabs", "ELEVENLABS_API_KEY", CLOUD_EXTRA, ("websockets",)),
    "anthropic": Provider("anthropic", "ANTHROPIC_API_KEY", CLOUD_EXTRA, ("anthropic",)),
    "google": Provider("google", "GOOGLE_API_KEY", CLOUD_EXTRA, ("google.genai",)),
    "ultravox": Provider("ultravox", "ULTRAVOX_API_KEY", CLOUD_EXTRA, ("aiohttp", "websockets")),
    # The offline stack and the wire need no key.
    "local": Provider("local", None, "local", ("faster_whisper", "piper", "xllamacpp")),
    "live": Provider("live", None, "live", ("pipecat", "websockets", "aiohttp")),
}


class _Config(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Keyed(_Config):
    api_key_env: str | None = Field(
        None, description="variable holding the key; None = the provider's usual one"
    )

    def vendor(self) -> str:
        """The key into ``PROVIDERS``."""
        kind: str = getattr(self, "kind", "") or getattr(self, "provider", "")
        return kind

    def key_env(self) -> str | None:
        return self.api_key_env or PROVIDERS[self.vendor()].env

    def api_key(self) -> str:
        env = self.key_env()
        key = read_secret(env) if env else None
        if not key:
            raise ValueError(f"environment variable {env} is not set ({self.vendor()})")
        return key


class CloudSTTConfig(_Keyed):
    """Streaming cloud STT (``deepgram``) or OpenAI's segmented transcription (``openai``)."""

    kind: Literal["deepgram", "openai"]
    model: str | None = Field(None, description="None: nova-3 (deepgram), gpt-4o-transcribe (openai)")
    language: str = "en"
    base_url: str | None = None


class CloudTTSConfig(_Keyed):
    """Cloud TTS: Cartesia, OpenAI, ElevenLabs or Deepgram Aura."""

    kind: Literal["cartesia", "openai", "elevenlabs", "deepgram"]
    model: str | None = None
    voice: str | None = Field(None, description="provider voice id; None: a neutral default voice")
    language: str | None = "en"


class CloudLLMConfig(_Keyed):
    """Non-OpenAI-compatible LLMs through pipecat (OpenAI-compatible ones use ``LLMConfig``)."""

    kind: Literal["anthropic", "google"]
    model: str
    temperature: Annotated[float, Field(ge=0.0, le=2.0)] | None = 0.0
    max_tokens: Annotated[int, Field(ge=1, le=32768)] | None = 512


class RealtimeConfig(_Keyed):
    """An audio-in LLM: speech out (S2S) or text out for a TTS to speak (hybrid).

    ``turn_detection``: ``server`` lets the provider end turns (its VAD is part of what is
    measured); ``local`` runs our VAD + turn analyzer and commits turns explicitly
    (OpenAI only; the others always use their own).
    """

    provider: Literal["openai", "google", "ultravox"]
    model: str | None = None
    voice: str | None = None
    output: Literal["audio", "text"] = "audio"
    turn_detection: Literal["server", "local"] = "server"
    base_url: str | None = Field(None, description="override the endpoint (e.g. a local test server)")
    temperature: Annotated[float, Field(ge=0.0, le=1.0)] | None = None


DEFAULT_MODELS = {
    ("stt", "deepgram"): "nova-3",
    ("stt", "openai"): "gpt-4o-transcribe",
    ("tts", "cartesia"): "sonic-2",
    ("tts", "openai"): "gpt-4o-mini-tts",
    ("tts", "elevenlabs"): "eleven_flash_v2_5",
    ("tts", "deepgram"): "aura-2-thalia-en",
    ("realtime", "openai"): "gpt-realtime",
    ("realtime", "google"): "models/gemini-2.5-flash-native-audio-preview-09-2025",
    ("realtime", "ultravox"): "ultravox-v0.7",
}
DEFAULT_VOICES = {
    "cartesia": "a0e99841-438c-4a64-b679-ae501e7d6091",  # "Barbershop Man"-style neutral male
    "openai": "alloy",
    "elevenlabs": "21m00Tcm4TlvDq8ikWAM",  # Rachel
    "deepgram": "aura-2-thalia-en",
}


def stt_model(cfg: CloudSTTConfig) -> str:
    return cfg.model or DEFAULT_MODELS[("stt", cfg.kind)]


def tts_model(cfg: CloudTTSConfig) -> str:
    return cfg.model or DEFAULT_MODELS[("tts", cfg.kind)]


def tts_voice(cfg: CloudTTSConfig) -> str:
    return cfg.voice or DEFAULT_VOICES[cfg.kind]


def realtime_model(cfg: RealtimeConfig) -> str:
    return cfg.model or DEFAULT_MODELS[("realtime", cfg.provider)]


def make_cloud_stt(cfg: CloudSTTConfig, **kwargs: Any) -> Any:
    key = cfg.api_key()
    if cfg.kind == "deepgram":
        from pipecat.services.deepgram.stt import DeepgramSTTService

        if cfg.base_url:
            kwargs.setdefault("base_url", cfg.base_url)
        return DeepgramSTTService(
            api_key=key,
            settings=DeepgramSTTService.Settings(model=stt_model(cfg), language=cfg.language),
            **kwargs,
        )
    from pipecat.services.openai.stt import OpenAISTTService

    return OpenAISTTService(
        api_key=key,
        base_url=cfg.base_url,
        settings=OpenAISTTService.Settings(model=stt_model(cfg), language=cfg.language),
        **kwargs,
    )


def make_cloud_tts(cfg: CloudTTSConfig, **kwargs: Any) -> Any:
    key, model, voice = cfg.api_key(), tts_model(cfg), tts_voice(cfg)
    if cfg.kind == "cartesia":
        from pipecat.services.cartesia.tts import CartesiaTTSService

        return CartesiaTTSService(
            api_key=key,
            settings=CartesiaTTSService.Settings(model=model, voice=voice, language=cfg.language),
            **kwargs,
        )
    if cfg.kind == "openai":
        from pipecat.services.openai.tts import OpenAITTSService

        return OpenAITTSService(
            api_key=key, settings=OpenAITTSService.Settings(model=model, voice=voice), **kwargs
        )
    if cfg.kind == "elevenlabs":
        from pipecat.services.elevenlabs.tts import ElevenLabsTTSService

        return ElevenLabsTTSService(
            api_key=key, settings=ElevenLabsTTSService.Settings(model=model, voice=voice), **kwargs
        )
    from pipecat.services.deepgram.tts import DeepgramTTSService

    return DeepgramTTSService(api_key=key, settings=DeepgramTTSService.Settings(voice=voice), **kwargs)


def make_cloud_llm(cfg: CloudLLMConfig, **kwargs: Any) -> Any:
    key = cfg.api_key()
    if cfg.kind == "anthropic":
        from pipecat.services.anthropic.llm import AnthropicLLMService

        return AnthropicLLMService(
            api_key=key,
            settings=AnthropicLLMService.Settings(
                model=cfg.model, temperature=cfg.temperature, max_tokens=cfg.max_tokens
            ),
            **kwargs,
        )
    from pipecat.services.google.llm import GoogleLLMService

    return GoogleLLMService(
        api_key=key,
        settings=GoogleLLMService.Settings(
            model=cfg.model, temperature=cfg.temperature, max_tokens=cfg.max_tokens
        ),
        **kwargs,
    )


def make_realtime_llm(cfg: RealtimeConfig, **kwargs: Any) -> Any:
    """An audio-in LLM service (unconnected). System prompt and tools are bound per call."""
    key, model = cfg.api_key(), realtime_model(cfg)
    if cfg.provider == "openai":
        from pipecat.services.openai.realtime import events
        from pipecat.services.openai.realtime.llm import OpenAIRealtimeLLMService

        audio_in = events.AudioInput(turn_detection=False) if cfg.turn_detection == "local" else None
        audio_out = events.AudioOutput(voice=cfg.voice) if cfg.voice and cfg.output == "audio" else None
        audio = (
            events.AudioConfiguration(input=audio_in, output=audio_out) if (audio_in or audio_out) else None
        )
        sp = events.SessionProperties(output_modalities=[cfg.output], audio=audio)
        if cfg.base_url:
            kwargs.setdefault("base_url", cfg.base_url)
        return OpenAIRealtimeLLMService(
            api_key=key,
            settings=OpenAIRealtimeLLMService.Settings(
                model=model, session_properties=sp, temperature=cfg.temperature
            ),
            **kwargs,
        )
    if cfg.provider == "google":
        from pipecat.services.google.gemini_live.llm import GeminiLiveLLMService, GeminiModalities

        modality = GeminiModalities.TEXT if cfg.output == "text" else GeminiModalities.AUDIO
        settings = GeminiLiveLLMService.Settings(
            model=model, modalities=modality, temperature=cfg.temperature
        )
        if cfg.voice:
            settings.voice = cfg.voice
        return GeminiLiveLLMService(api_key=key, settings=settings, **kwargs)
    from pipecat.services.ultravox.llm import OneShotInputParams, UltravoxRealtimeLLMService

    params = OneShotInputParams(
        api_key=key,
        model=model,
        temperature=cfg.temperature or 0.0,
        voice=uuid.UUID(cfg.voice) if cfg.voice else None,
        output_medium="text" if cfg.output == "text" else "voice",
    )
    return UltravoxRealtimeLLMService(params=params, **kwargs)
