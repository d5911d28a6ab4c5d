"""LLM services: the embedded local default (llama.cpp via xllamacpp) and any OpenAI-compatible endpoint.

* :class:`LocalLLMServer` runs llama.cpp's HTTP server in-process (``xllamacpp.Server``) on
  127.0.0.1 with the Qwen2.5-Coder-0.5B-Instruct GGUF assembled from installed packages, and
  exposes an OpenAI-compatible ``base_url``. Sync and async context manager.
* :func:`make_openai_compatible_llm` returns a pipecat ``OpenAILLMService`` subclass for *any*
  OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp, the local server).
* :class:`ToolCallAdapterLLMService` is that subclass: when the model writes a tool call as JSON
  text in ``content`` (small local models do, offline-models.md §12), the stream is rewritten
  into real ``tool_calls`` so pipecat routes it to the registered function handler.

Prompt-prefix caching: llama.cpp keeps the KV cache of a slot and reuses the longest matching
prefix (``cache_prompt``, on by default and also sent explicitly for the local server). Keep the
system instruction and tool schemas byte-identical between turns, put them first, and use one
slot per conversation (``n_parallel=1`` by default) so a long domain policy is evaluated once.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from voxbench.localmodels import QWEN_05B, QWEN_15B, LlamaServer, default_threads
from voxbench.localmodels.prompt_cache import default_prompt_cache_dir

logger = logging.getLogger(__name__)

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


def _service_class() -> type:
    from pipecat.services.openai.llm import OpenAILLMService

    from voxbench.pipelines.services.grounding import GroundingGuard, request_text, tool_parameter_schemas
    from voxbench.pipelines.services.tool_calls import (
        ToolCallTextAdapterStream,
        prepare_tool_request,
    )

    class ToolCallAdapterLLMService(OpenAILLMService):
        """``OpenAILLMService`` that also accepts tool calls written as JSON text in ``content``."""

        def __init__(
            self,
            *,
            adapt_text_tool_calls: bool = True,
            flatten_tool_history: bool = False,
            tool_call_mode: str = "native",
            strip_markdown: bool = False,
            plan_replies: bool = False,
            ground_tool_arguments: bool = False,
            say_then_tool: bool = False,
            **kwargs: Any,
        ) -> None:
            super().__init__(**kwargs)
            self._adapt_text_tool_calls = adapt_text_tool_calls
            self._flatten_tool_history = flatten_tool_history
            self._tool_call_mode = tool_call_mode
            self._strip_markdown = strip_markdown
            self._plan_replies = plan_replies
            self._say_then_tool = say_then_tool
            self._ground = ground_tool_arguments
            self._request_tool_names: frozenset[str] = frozenset()
            self._request_guard: GroundingGuard | None = None
            self.text_tool_calls_converted = 0
            self.tool_calls_refused = 0

        def build_chat_completion_params(self, params_from_context: Any) -> dict[str, Any]:
            params: dict[str, Any] = super().build_chat_completion_params(params_from_context)
            self._request_guard = (
                GroundingGuard(
                    request_text(params.get("messages")), tool_parameter_schemas(params.get("tools"))
                )
                if self._ground
                else None
            )
            self._request_tool_names = prepare_tool_request(
                params,
                mode=self._tool_call_mode,
                flatten=self._flatten_tool_history,
                plan=self._plan_replies,
                say_then_tool=self._say_then_tool,
            )
            return params

        async def get_chat_completions(self, context: Any) -> Any:
            stream = await super().get_chat_completions(context)
            names = self._request_tool_names if self._adapt_text_tool_calls else frozenset()
            if not names and not self._strip_markdown:
                return stream
            adapted = ToolCallTextAdapterStream(
                stream,
                names,
                unwrap_say=self._tool_call_mode != "native",
                strip_markdown=self._strip_markdown,
                guard=self._request_guard.ask_instead if self._request_guard is not None else None,
            )
            return _CountingStream(adapted, self)

    class _CountingStream:
        def __init__(self, inner: ToolCallTextAdapterStream, owner: ToolCallAdapterLLMService) -> None:
            self._inner = inner
            self._owner = owner

        def __aiter__(self) -> Any:
            return self._iterate()

        async def _iterate(self) -> Any:
            async for chunk in self._inner:
                yield chunk
            if self._inner.converted:
                self._owner.text_tool_calls_converted += len(self._inner.converted)
            if self._inner.refused:
                self._owner.tool_calls_refused += len(self._inner.refused)
                logger.info("refused tool calls with ungrounded values: %s", self._inner.refused)

        async def close(self) -> None:
            await self._inner.close()

    return ToolCallAdapterLLMService


_SERVICE_CLASS: type | None = None


def tool_call_adapter_service_class() -> type:
    """The ``ToolCallAdapterLLMService`` class (built lazily so importing this module needs no pipecat)."""
    global _SERVICE_CLASS
    if _SERVICE_CLASS is None:
        _SERVICE_CLASS = _service_class()
    return _SERVICE_CLASS


def make_openai_compatible_llm(
    base_url: str | None,
    model: str,
    api_key: str | None = None,
    *,
    system_instruction: str | None = None,
    temperature: float | None = None,
    max_tokens: int | None = None,
    adapt_text_tool_calls: bool = True,
    flatten_tool_history: bool = False,
    cache_prompt: bool = False,
    tool_call_mode: str = "native",
    strip_markdown: bool = False,
    plan_replies: bool = False,
    ground_tool_arguments: bool = False,
    say_then_tool: bool = False,
    extra: dict[str, Any] | None = None,
    **service_kwargs: Any,
) -> Any:
    """A pipecat LLM service for any OpenAI-compatible chat-completions endpoint.

    Args:
        base_url: e.g. ``http://127.0.0.1:8080/v1``; ``None`` means OpenAI itself.
        model: model name sent with each request.
        api_key: key for the endpoint; local servers accept any non-empty string.
        system_instruction: pipecat's system prompt (preferred over a system message in context).
        adapt_text_tool_calls: rewrite JSON-text tool calls into real ``tool_calls``.
        flatten_tool_history: send past tool calls/results as plain chat turns (see
            :func:`~voxbench.pipelines.services.tool_calls.flatten_tool_history`); needed by
            the 0.5B local model, which otherwise repeats its call instead of answering.
        tool_call_mode: ``native`` (tools in the request), ``compact`` (a short tool list in the
            system prompt, replies as ``{"say"}``/``{"tool"}`` JSON) or ``json_schema`` (compact,
            plus each reply grammar-constrained by ``response_format``; llama.cpp servers only).
            See :func:`~voxbench.pipelines.services.tool_calls.prepare_tool_request`.
        strip_markdown: drop code blocks and markdown marks from spoken content.
        plan_replies: in ``json_schema`` mode, start each reply with an unspoken ``"plan"``.
        say_then_tool: in ``json_schema`` mode, every reply is ``{"say", "tool"}`` (a name or "none").
        ground_tool_arguments: do not run tool calls whose identifier-like values the model was
            never shown; ask the caller instead (:mod:`~voxbench.pipelines.services.grounding`).
        cache_prompt: send llama.cpp's ``cache_prompt: true`` (harmless elsewhere only if the
            server ignores unknown fields, so it is off by default for foreign endpoints).
        extra: additional request fields (merged into pipecat's ``Settings.extra``).
        **service_kwargs: passed to ``OpenAILLMService`` (e.g. ``retry_on_timeout``).
    """
    from pipecat.services.openai.llm import OpenAILLMService

    cls = tool_call_adapter_service_class()
    req_extra: dict[str, Any] = dict(extra or {})
    if cache_prompt:
        body = dict(req_extra.get("extra_body") or {})
        body.setdefault("cache_prompt", True)
        req_extra["extra_body"] = body
    settings_kwargs: dict[str, Any] = {"model": model, "system_instruction": system_instruction}
    if temperature is not None:
        settings_kwargs["temperature"] = temperature
    if max_tokens is not None:
        settings_kwargs["max_tokens"] = max_tokens
    if req_extra:
        settings_kwargs["extra"] = req_extra
    return cls(
        api_key=api_key or "sk-no-key",
        base_url=base_url,
        settings=OpenAILLMService.Settings(**settings_kwargs),
        adapt_text_tool_calls=adapt_text_tool_calls,
        flatten_tool_history=flatten_tool_history,
        tool_call_mode=tool_call_mode,
        strip_markdown=strip_markdown,
        plan_replies=plan_replies,
        ground_tool_arguments=ground_tool_arguments,
        say_then_tool=say_then_tool,
        **service_kwargs,
    )
