"""LLM services: the embedded local default (llama.cpp via xllamacpp) and any OpenAI-compatible endpoint.

* :class:`LocalLLMServer` runs llama.cpp's HTTP server in-process (``xllamacpp.Server``) on
  127.0.0.1 with the Qwen2.5-Coder-0.5B-Instruct GGUF assembled from installed packages, and
  exposes an OpenAI-compatible ``base_url``. Sync and async context manager.
* :func:`make_openai_compatible_llm` returns a pipecat ``OpenAILLMService`` subclass for *any*
  OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp, the local server), from a
  :class:`ChatSettings` and a reply policy (:mod:`.llm_service`).

Prompt-prefix caching: llama.cpp keeps the KV cache of a slot and reuses the longest matching
prefix (``cache_prompt``, on by default and also sent explicitly for the local server). Keep the
system instruction and tool schemas byte-identical between turns, put them first, and use one
slot per conversation (``n_parallel=1`` by default) so a long domain policy is evaluated once.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from voxbench.localmodels import QWEN_05B, QWEN_15B, LlamaServer, default_threads
from voxbench.localmodels.prompt_cache import default_prompt_cache_dir

if TYPE_CHECKING:
    from voxbench.pipelines.services.reply_policy import ReplyPolicy


# Bundled models by short name (the config's `local_model`) -> their pinned spec.
LOCAL_MODELS = {"qwen2.5-coder-0.5b": QWEN_05B, "qwen2.5-coder-1.5b": QWEN_15B}
DEFAULT_LOCAL_MODEL = "qwen2.5-coder-0.5b"
LOCAL_MODEL_ALIAS = QWEN_05B.alias

__all__ = ["DEFAULT_LOCAL_MODEL", "LOCAL_MODELS", "LocalLLMServer", "LocalLLMSettings", "default_threads"]


@dataclass(frozen=True)
class LocalLLMSettings:
    """How the in-process llama.cpp server is started for the live loop."""

    model_path: Path | None = None  # None: the bundled `model` (assembled and verified)
    model: str = DEFAULT_LOCAL_MODEL  # a key of LOCAL_MODELS
    n_ctx: int = 8192  # total over all slots
    n_parallel: int = 1  # slots; one per concurrent conversation keeps its prefix cache warm
    n_threads: int | None = None  # generation threads (None: default_threads(), half the cores)
    n_threads_batch: int | None = None  # prompt-processing threads (None: same as n_threads)
    port: int = 0  # 0: pick a free port
    verbosity: int = 0  # llama.cpp log verbosity; its logs go to stderr
    # KV chunks of at least this many tokens are shifted, not recomputed, when turns are left
    # out of a long call (context_fit): measured on 2 cores, 1.2 s instead of 109 s
    n_cache_reuse: int = 256
    # warm prompts saved between processes (localmodels.prompt_cache); None: not kept
    slot_dir: Path | None = field(default_factory=default_prompt_cache_dir)


class LocalLLMServer(LlamaServer):
    """llama.cpp's OpenAI-compatible server, in-process on 127.0.0.1, for pipecat services.

    The pipecat-free :class:`~voxbench.localmodels.LlamaServer` (shared with eval's local
    judges) configured from :class:`LocalLLMSettings`, plus async start/stop for pipelines::

        with LocalLLMServer() as srv:            # or: async with LocalLLMServer() as srv:
            llm = make_openai_compatible_llm(srv.base_url, srv.model)
    """

    def __init__(self, settings: LocalLLMSettings | None = None) -> None:
        s = self.settings = settings or LocalLLMSettings()
        if s.model_path is None and s.model not in LOCAL_MODELS:
            raise ValueError(f"unknown local model {s.model!r}; expected one of {sorted(LOCAL_MODELS)}")
        super().__init__(
            LOCAL_MODELS.get(s.model, QWEN_05B),
            n_ctx=s.n_ctx,
            n_threads=s.n_threads,
            verbosity=s.verbosity,
            model_path=s.model_path,
            n_parallel=s.n_parallel,
            n_threads_batch=s.n_threads_batch,
            port=s.port,
            slot_dir=s.slot_dir,
            n_cache_reuse=s.n_cache_reuse,
        )

    async def astart(self) -> LocalLLMServer:
        await asyncio.to_thread(self.start)
        return self

    async def astop(self) -> None:
        await asyncio.to_thread(self.stop)

    async def __aenter__(self) -> LocalLLMServer:
        return await self.astart()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.astop()


@dataclass(frozen=True)
class ChatSettings:
    """One OpenAI-compatible chat endpoint and what is sent with every request.

    ``base_url`` ``None`` means OpenAI itself; local servers accept any non-empty ``api_key``.
    ``cache_prompt`` sends llama.cpp's ``cache_prompt: true`` (harmless elsewhere only if the
    server ignores unknown fields, so it is off for foreign endpoints). ``extra`` is merged into
    pipecat's ``Settings.extra`` (e.g. ``extra_body``).
    """

    base_url: str | None
    model: str
    api_key: str | None = field(default=None, repr=False)  # a secret: never in a log line
    system_instruction: str | None = None  # pipecat's system prompt (preferred over a system message)
    temperature: float | None = None
    max_tokens: int | None = None
    cache_prompt: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def service_kwargs(self) -> dict[str, Any]:
        """``api_key``, ``base_url`` and ``settings`` for an ``OpenAILLMService`` (or a subclass)."""
        from pipecat.services.openai.llm import OpenAILLMService

        req_extra: dict[str, Any] = dict(self.extra)
        if self.cache_prompt:
            body = dict(req_extra.get("extra_body") or {})
            body.setdefault("cache_prompt", True)
            req_extra["extra_body"] = body
        settings: dict[str, Any] = {"model": self.model, "system_instruction": self.system_instruction}
        if self.temperature is not None:
            settings["temperature"] = self.temperature
        if self.max_tokens is not None:
            settings["max_tokens"] = self.max_tokens
        if req_extra:
            settings["extra"] = req_extra
        return {
            "api_key": self.api_key or "sk-no-key",
            "base_url": self.base_url,
            "settings": OpenAILLMService.Settings(**settings),
        }


def make_openai_compatible_llm(
    chat: ChatSettings, policy: ReplyPolicy | None = None, **service_kwargs: Any
) -> Any:
    """A pipecat LLM service for any OpenAI-compatible chat-completions endpoint.

    ``policy`` says how requests are shaped and replies read (tool calls written as JSON text,
    flattened tool history, compact or grammar-constrained tool modes, markdown, grounding):
    see :class:`~voxbench.pipelines.services.reply_policy.ReplyPolicy`; the default leaves a
    capable model alone apart from adapting JSON-text tool calls. ``service_kwargs`` go to
    ``OpenAILLMService`` (e.g. ``retry_on_timeout``).
    """
    from voxbench.pipelines.services.llm_service import ToolCallAdapterLLMService

    return ToolCallAdapterLLMService(policy=policy, **chat.service_kwargs(), **service_kwargs)
