"""The agent's pipecat LLM service for any OpenAI-compatible endpoint, with its reply policy.

:class:`ToolCallAdapterLLMService` is pipecat's ``OpenAILLMService`` that shapes each request
and reads each reply by its :class:`~voxbench.pipelines.services.reply_policy.ReplyPolicy`:
when the model writes a tool call as JSON text in ``content`` (small local models do,
offline-models.md §12), the stream is rewritten into real ``tool_calls`` so pipecat routes it
to the registered function handler. Imports pipecat; build it with
:func:`~voxbench.pipelines.services.llm.make_openai_compatible_llm`.
"""

from __future__ import annotations

import logging
from typing import Any

from pipecat.services.openai.llm import OpenAILLMService

from voxbench.pipelines.services.grounding import GroundingGuard, request_text, tool_parameter_schemas
from voxbench.pipelines.services.reply_policy import ReplyPolicy
from voxbench.pipelines.services.tool_prompt import prepare_tool_request
from voxbench.pipelines.services.tool_stream import ToolCallTextAdapterStream, closing_iter

logger = logging.getLogger(__name__)


class ToolCallAdapterLLMService(OpenAILLMService):
    """``OpenAILLMService`` that also accepts tool calls written as JSON text in ``content``."""

    def __init__(self, *, policy: ReplyPolicy | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.policy = policy or ReplyPolicy()
        self._request_tool_names: frozenset[str] = frozenset()
        self._request_guard: GroundingGuard | None = None
        self.text_tool_calls_converted = 0
        self.tool_calls_refused = 0
        # per-call facts (today's date) sent as their own system message after the instruction
        self.context_note: str | None = None

    def build_chat_completion_params(self, params_from_context: Any) -> dict[str, Any]:
        params: dict[str, Any] = super().build_chat_completion_params(params_from_context)
        if self.context_note:
            params["messages"] = with_note_after_instruction(params.get("messages") or [], self.context_note)
        self._request_guard = (
            GroundingGuard(request_text(params.get("messages")), tool_parameter_schemas(params.get("tools")))
            if self.policy.ground_tool_arguments
            else None
        )
        self._request_tool_names = prepare_tool_request(params, self.policy)
        return params

    async def get_chat_completions(self, context: Any) -> Any:
        stream = await super().get_chat_completions(context)
        names = self._request_tool_names if self.policy.adapt_text_tool_calls else frozenset()
        if not names and not self.policy.strip_markdown:
            return stream
        adapted = ToolCallTextAdapterStream(
            stream,
            names,
            unwrap_say=self.policy.unwrap_say,
            strip_markdown=self.policy.strip_markdown,
            guard=self._request_guard.ask_instead if self._request_guard is not None else None,
        )
        return _CountingStream(adapted, self)


def with_note_after_instruction(messages: list[Any], note: str) -> list[Any]:
    """``messages`` with ``note`` as a system message right after the leading system message.

    Why not in the instruction: chat templates render the tool schemas after the first system
    message, so a per-call fact inside it makes every scenario's prompt differ before the
    tools, and a local model re-reads the whole policy and tool block for every call (~125 s
    for EVA's airline agent on 2 cores) although a domain's calls share it. A second system
    message is rendered after the tools (Qwen, Llama templates; OpenAI keeps both), so the
    policy-and-tools prefix is the same for a whole domain: llama.cpp reuses it (a saved
    prompt is restored instead of recomputed), as does a hosted API's prefix cache."""
    note_msg = {"role": "system", "content": note}
    if messages and isinstance(messages[0], dict) and messages[0].get("role") == "system":
        return [messages[0], note_msg, *messages[1:]]
    return [note_msg, *messages]


class _CountingStream:
    """Passes the adapted stream through and counts, at its end, what was converted or refused."""

    def __init__(self, inner: ToolCallTextAdapterStream, owner: ToolCallAdapterLLMService) -> None:
        self._inner = inner
        self._owner = owner

    def __aiter__(self) -> Any:
        return self._iterate()

    async def _iterate(self) -> Any:
        async with closing_iter(self._inner) as chunks:
            async for chunk in chunks:
                yield chunk
        if self._inner.converted:
            self._owner.text_tool_calls_converted += len(self._inner.converted)
        if self._inner.refused:
            self._owner.tool_calls_refused += len(self._inner.refused)
            logger.info("refused tool calls with ungrounded values: %s", self._inner.refused)

    async def close(self) -> None:
        await self._inner.close()
