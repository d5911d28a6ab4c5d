"""Model services for pipelines: small configs and factories; provider code is imported lazily.

``make_stt(cfg)``, ``make_tts(cfg)`` and ``make_llm(cfg)`` build pipecat services. The offline
defaults run from installed packages only (faster-whisper tiny.en, Piper joe / Kokoro, Qwen2.5-Coder-0.5B
on llama.cpp); any OpenAI-compatible endpoint is the alternative LLM. Importing this package
imports neither pipecat nor any model runtime.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from voxbench.records.secrets import read_secret

if TYPE_CHECKING:
    from voxbench.pipelines.services.llm import ChatSettings, LocalLLMServer
    from voxbench.pipelines.services.reply_policy import ReplyPolicy

__all__ = [
    "LLMConfig",
    "STTConfig",
    "TTSConfig",
    "chat_settings",
    "make_llm",
    "make_local_llm_server",
    "make_stt",
    "make_tts",
]


class _Config(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class STTConfig(_Config):
    """Speech-to-text. ``whisper-local`` is faster-whisper with packaged weights (CPU, int8)."""

    kind: Literal["whisper-local"] = "whisper-local"
    model: str = Field("tiny.en", description="'tiny.en', 'base', or a local CT2 model directory")
    compute_type: Literal["int8", "int8_float32", "float32"] = "int8"
    beam_size: Annotated[int, Field(ge=1, le=10)] = 5
    language: str | None = "en"
    cpu_threads: Annotated[int, Field(ge=1, le=64)] | None = None
    no_speech_prob: Annotated[float, Field(gt=0.0, le=1.0)] = 0.6

    @model_validator(mode="after")
    def _english_only_models(self) -> STTConfig:
        if self.model.endswith(".en") and self.language not in (None, "en"):
            raise ValueError(f"whisper model {self.model!r} is English-only; language must be 'en'")
        return self


class TTSConfig(_Config):
    """Text-to-speech from installed packages: Piper (joe and variations of it) or Kokoro.

    The voice name picks the engine: ``kokoro:<voice>`` (or a preset that is one) is
    ``kokoro-local``, everything else ``piper-local``; ``kind`` may be left out. Piper-only
    settings (pitch, noise scales) on a Kokoro voice are rejected, not ignored.
    """

    kind: Literal["piper-local", "kokoro-local"] = "piper-local"
    voice: str = Field(
        "agent",
        description="preset ('agent', 'user', 'user-piper', 'user-high', 'joe'), "
        "'piper:en_US-joe-medium', or a Kokoro voice 'kokoro:jm_kumo' (jf_alpha, jf_gongitsune, "
        "jf_nezumi, jf_tebukuro, jm_kumo)",
    )
    speaking_rate: Annotated[float, Field(ge=0.5, le=2.0)] | None = None
    pitch_semitones: Annotated[float, Field(ge=-12.0, le=12.0)] | None = None
    espeak_voice: str | None = Field(
        None, description="espeak-ng variant for accent, e.g. 'en-gb-x-rp' (Kokoro: 'en-us' or 'en-gb')"
    )
    noise_scale: Annotated[float, Field(ge=0.0, le=2.0)] | None = None
    noise_w_scale: Annotated[float, Field(ge=0.0, le=2.0)] | None = None
    sample_rate: Annotated[int, Field(ge=8000, le=48000)] | None = Field(
        None, description="output rate; None follows the pipeline's audio_out_sample_rate"
    )
    n_threads: Annotated[int, Field(ge=1, le=64)] | None = None

    def voice_params(self) -> Any:
        """The resolved ``PiperVoiceParams`` or ``KokoroVoiceParams`` (validates the voice)."""
        from voxbench.pipelines.services.tts import resolve_voice

        return resolve_voice(
            self.voice,
            speaking_rate=self.speaking_rate,
            pitch_semitones=self.pitch_semitones,
            espeak_voice=self.espeak_voice,
            noise_scale=self.noise_scale,
            noise_w_scale=self.noise_w_scale,
        )

    @property
    def voice_id(self) -> str:
        """Stable id of the exact voice, e.g. ``piper:en_US-joe-medium@st-3,rate0.95,nw0.9``."""
        return str(self.voice_params().voice_id)

    @model_validator(mode="before")
    @classmethod
    def _engine_from_voice(cls, data: Any) -> Any:
        if isinstance(data, dict) and "kind" not in data and isinstance(data.get("voice"), str):
            from voxbench.pipelines.services.tts import engine_of

            try:
                return {**data, "kind": f"{engine_of(data['voice'])}-local"}
            except ValueError:
                return data  # the voice check below names the bad voice
        return data

    @model_validator(mode="after")
    def _known_voice(self) -> TTSConfig:
        from voxbench.pipelines.services.tts import engine_of

        params = self.voice_params()
        engine = engine_of(params)
        if self.kind != f"{engine}-local":
            raise ValueError(f"voice {params.voice_id!r} is a {engine} voice, but kind is {self.kind!r}")
        return self


class LLMConfig(_Config):
    """Chat LLM. ``local`` = bundled Qwen2.5-Coder-0.5B on llama.cpp; ``openai-compatible`` = any endpoint."""

    kind: Literal["local", "openai-compatible"] = "local"
    base_url: str | None = Field(None, description="e.g. http://127.0.0.1:11434/v1; None with kind=local")
    model: str | None = None
    api_key_env: str | None = Field(None, description="environment variable holding the API key")
    temperature: Annotated[float, Field(ge=0.0, le=2.0)] | None = 0.0
    max_tokens: Annotated[int, Field(ge=1, le=32768)] | None = 256
    adapt_text_tool_calls: bool = True
    flatten_tool_history: bool | None = Field(
        None, description="send tool history as plain turns; None = on for local, off otherwise"
    )
    n_ctx: Annotated[int, Field(ge=512, le=131072)] = 8192
    n_parallel: Annotated[int, Field(ge=1, le=64)] = 1
    n_threads: Annotated[int, Field(ge=1, le=64)] | None = None
    local_model: Literal["qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"] = Field(
        "qwen2.5-coder-0.5b",
        description="bundled GGUF served with kind=local. The offline default *agent* uses the 1.5B "
        "(LOCAL_AGENT_LLM); the 0.5B is fast but completed 0/3 built-in tasks in every tool-call mode",
    )
    tool_call_mode: Literal["native", "compact", "json_schema"] | None = Field(
        None,
        description="native: tools in the request; compact: short tool list in the prompt; "
        "json_schema: compact + grammar-constrained replies (llama.cpp). None = native",
    )
    strip_markdown: bool = Field(True, description="drop code blocks and markdown marks before TTS")
    say_then_tool: bool = Field(
        False,
        description="json_schema mode: every reply is {say, tool} with tool a name or 'none' "
        "(Qwen 1.5B makes the lookups it announces; see services/tool_calls.reply_json_schema)",
    )
    plan_replies: bool = Field(False, description="json_schema mode: each reply starts with an unspoken plan")
    ground_tool_arguments: bool = Field(
        False,
        description="do not run tool calls with identifier values the model was never shown; "
        "ask the caller instead (services/grounding.py)",
    )

    @model_validator(mode="after")
    def _endpoint(self) -> LLMConfig:
        if self.kind == "openai-compatible":
            if not self.model:
                raise ValueError("kind='openai-compatible' needs model")
        elif self.base_url is not None:
            raise ValueError("kind='local' starts its own server; leave base_url unset")
        return self

    def reply_policy(self, local: bool) -> ReplyPolicy:
        """The service's :class:`ReplyPolicy`; unset ``flatten_tool_history`` is on for a local model."""
        from voxbench.pipelines.services.reply_policy import ReplyPolicy

        flatten = self.flatten_tool_history
        return ReplyPolicy(
            adapt_text_tool_calls=self.adapt_text_tool_calls,
            flatten_tool_history=local if flatten is None else flatten,
            tool_call_mode=self.tool_call_mode or "native",
            strip_markdown=self.strip_markdown,
            plan_replies=self.plan_replies,
            say_then_tool=self.say_then_tool,
            ground_tool_arguments=self.ground_tool_arguments,
        )

    def api_key(self) -> str | None:
        if self.api_key_env is None:
            return None
        key = read_secret(self.api_key_env)
        if not key:
            raise ValueError(f"environment variable {self.api_key_env} is not set")
        return key


LOCAL_AGENT_LLM = LLMConfig(
    local_model="qwen2.5-coder-1.5b",
    tool_call_mode="json_schema",
    say_then_tool=True,
    ground_tool_arguments=True,
    n_ctx=16384,
)
"""The offline default agent's LLM (profile ``cascade-local``).

Window: 16384 tokens, one slot. Measured with the model's tokenizer
(benchmarks/context_sizes.py): the fixed prompt of this request shaping is 2.8k tokens for
EVA's airline agent, 6.3k for medical HR and 7.7k for ITSM, and a whole reference airline call
(EVA 1.1.2, 27 messages) adds 4.6k. At 8192 ITSM left 286 tokens of conversation (the live
itsm/14 call overflowed after six caller turns); at 16384 it leaves 8.5k, about two such
calls. The KV cache costs 28 KB a token (+224 MiB over 8192, measured RSS); longer calls
are then fitted by leaving their oldest turns out (services/context_fit.py), not refused.

Measured on the built-in airline scenarios (benchmarks/agent_text_bench.py, text only, the
live request shaping): Qwen 0.5B 0/3 tasks in every mode; Qwen 1.5B native/json_schema made
calls with invented values ("123456", "Smith"); 1.5B json_schema + say_then_tool + grounding
2/3-3/3, and a live bb.1 call completed (2 correct tool calls).
With an unspoken ``"plan"`` first (``plan_replies``, tried 2026-12-04 and left off): make run's
live turns replayed in text, 5 samples at temperature 0.7 each, the lookup after code and name
given over two turns was called 0/5 -> 4/5 (bb.2) and 0/5 -> 3/5 (bb.3), where the model
otherwise says "I found your booking" and calls nothing. Live it did not show: make run with
the plan completed 1/3 then 0/3 tasks (without: 1/3, 1/3), the plan wandered into other tools
(get_flight_status for a bag), and every reply's first word came 3-4 s later (latency p50
5.1 -> 8.8 s with the say streamed right after the plan). Three calls per run cannot separate
the task rates; the latency cost is certain, so the default stays without it.
"""

SIMULATOR_LLM = LLMConfig(
    local_model="qwen2.5-coder-1.5b", temperature=0.0, max_tokens=160, strip_markdown=False
)
"""The LLM caller's default model: a caller line is short; its words arrive as a JSON string."""


def make_stt(cfg: STTConfig, **kwargs: Any) -> Any:
    """A pipecat STT service for ``cfg`` (a ``SegmentedSTTService``: needs VAD frames in the pipeline)."""
    if cfg.kind == "whisper-local":
        from voxbench.pipelines.services.stt import WhisperOptions, make_whisper_stt

        opts = WhisperOptions(
            model=cfg.model,
            compute_type=cfg.compute_type,
            beam_size=cfg.beam_size,
            language=cfg.language,
            cpu_threads=cfg.cpu_threads,
            no_speech_prob=cfg.no_speech_prob,
        )
        return make_whisper_stt(opts, **kwargs)
    raise ValueError(f"unsupported STT kind {cfg.kind!r}")  # pragma: no cover


def make_tts(cfg: TTSConfig, **kwargs: Any) -> Any:
    """A pipecat TTS service for ``cfg``; its ``voice_id`` property reports the exact voice."""
    if cfg.kind == "piper-local":
        from voxbench.pipelines.services.tts import make_piper_tts

        return make_piper_tts(
            cfg.voice_params(), sample_rate=cfg.sample_rate, n_threads=cfg.n_threads, **kwargs
        )
    if cfg.kind == "kokoro-local":
        from voxbench.pipelines.services.kokoro import make_kokoro_tts

        return make_kokoro_tts(
            cfg.voice_params(), sample_rate=cfg.sample_rate, n_threads=cfg.n_threads, **kwargs
        )
    raise ValueError(f"unsupported TTS kind {cfg.kind!r}")  # pragma: no cover


def chat_settings(
    cfg: LLMConfig, server: LocalLLMServer | None = None, system_instruction: str | None = None
) -> ChatSettings:
    """Where and how ``cfg`` is asked: its endpoint, or for ``kind='local'`` the started ``server``."""
    from voxbench.pipelines.services.llm import ChatSettings

    common: dict[str, Any] = {
        "system_instruction": system_instruction,
        "temperature": cfg.temperature,
        "max_tokens": cfg.max_tokens,
    }
    if cfg.kind == "local":
        if server is None or not server.running:
            raise ValueError("kind='local' needs a started LocalLLMServer (see make_local_llm_server)")
        return ChatSettings(server.base_url, server.model, "sk-local", cache_prompt=True, **common)
    assert cfg.model is not None
    return ChatSettings(cfg.base_url, cfg.model, cfg.api_key(), **common)


def make_llm(
    cfg: LLMConfig,
    *,
    server: LocalLLMServer | None = None,
    system_instruction: str | None = None,
    **kwargs: Any,
) -> Any:
    """A pipecat OpenAI-compatible LLM service for ``cfg``.

    For ``kind='local'`` pass a started :class:`~voxbench.pipelines.services.llm.LocalLLMServer`
    (its lifetime belongs to the caller, typically one per process shared by the agent, the
    user simulator and judges); build one with :func:`make_local_llm_server`. Its requests are
    then fitted to the server's context window (:mod:`.context_fit`): a long call loses its
    oldest turns from the request instead of failing.
    """
    from voxbench.pipelines.services.llm import make_openai_compatible_llm

    chat = chat_settings(cfg, server, system_instruction)
    from voxbench.localmodels import LlamaServer

    if cfg.kind == "local" and isinstance(server, LlamaServer):  # a running server counts tokens
        from voxbench.pipelines.services.context_fit import ContextFit

        kwargs.setdefault("context_fit", ContextFit.for_server(server, cfg.max_tokens))
    return make_openai_compatible_llm(chat, cfg.reply_policy(local=cfg.kind == "local"), **kwargs)


def make_local_llm_server(cfg: LLMConfig | None = None) -> LocalLLMServer:
    """An unstarted :class:`LocalLLMServer` configured from ``cfg`` (use as a context manager)."""
    from voxbench.pipelines.services.llm import LocalLLMServer, LocalLLMSettings

    cfg = cfg or LLMConfig()
    return LocalLLMServer(
        LocalLLMSettings(
            model=cfg.local_model, n_ctx=cfg.n_ctx, n_parallel=cfg.n_parallel, n_threads=cfg.n_threads
        )
    )
