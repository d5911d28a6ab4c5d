"""The agent's pipecat LLM service for any OpenAI-compatible endpoint, with its reply policy.

:class:`ToolCallAdapterLLMService` is pipecat's ``OpenAILLMService`` that shapes each request
and reads each reply by its :class:`~voxbench.pipelines.services.reply_policy.ReplyPolicy`:
when the model writes a tool call as JSON text in ``content`` (small local models do,
offline-models.md §12), the stream is rewritten into real ``tool_calls`` so pipecat routes it
to the registered function handler. With a :class:`~.context_fit.ContextFit` (the embedded
local model) each request is first fitted to the model's context window: the oldest turns
leave the request when it would not fit. Imports pipecat; build it with
:func:`~voxbench.pipelines.services.llm.make_openai_compatible_llm`.
"""

from __future__ import annotations

import logging
from typing import Any

from loguru import logger as call_log
from pipecat.services.openai.llm import OpenAILLMService
from pipecat.utils.types import assert_given

from voxbench.pipelines.services.context_fit import ContextFit
from voxbench.pipelines.services.grounding import GroundingGuard, request_text, tool_parameter_schemas
from voxbench.pipelines.services.reply_policy import ReplyPolicy
from voxbench.pipelines.services.tool_prompt import prepare_tool_request
from voxbench.pipelines.services.tool_stream import ToolCallTextAdapterStream, closing_iter

logger = logging.getLogger(__name__)


class ToolCallAdapterLLMService(OpenAILLMService):
    """``OpenAILLMService`` that also accepts tool calls written as JSON text in ``content``."""

    def __init__(
        self, *, policy: ReplyPolicy | None = None, context_fit: ContextFit | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.policy = policy or ReplyPolicy()
        self.context_fit = context_fit  # None: requests are sent whatever their size
        self._request_tool_names: frozenset[str] = frozenset()
        self._request_guard: GroundingGuard | None = None
        self.text_tool_calls_converted = 0
        self.tool_calls_refused = 0
        # per-call facts (today's date) sent as their own system message after the instruction
        self.context_note: str | None = None

    def build_chat_completion_params(self, params_from_context: Any) -> dict[str, Any]:
        if self.context_fit is not None:
            messages = self.context_fit.apply(list(params_from_context.get("messages") or []))
            params_from_context = {**params_from_context, "messages": messages}
        params = self._with_note(super().build_chat_completion_params(params_from_context))
        self._request_guard = (
            GroundingGuard(request_text(params.get("messages")), tool_parameter_schemas(params.get("tools")))
            if self.policy.ground_tool_arguments
            else None
        )
        self._request_tool_names = prepare_tool_request(params, self.policy)
        return params

    def _with_note(self, params: dict[str, Any]) -> dict[str, Any]:
        if self.context_note:
            params["messages"] = with_note_after_instruction(params.get("messages") or [], self.context_note)
        return params

    def _request_for(self, params_from_context: Any) -> dict[str, Any]:
        """The request ``params_from_context`` becomes, shaped as it is sent (no state kept)."""
        params = self._with_note(super().build_chat_completion_params(params_from_context))
        prepare_tool_request(params, self.policy)
        return params

    async def _fit_context(self, context: Any, fit: ContextFit) -> None:
        """Decide which old turns the next request leaves out (see :mod:`.context_fit`)."""
        invocation = await self.get_llm_adapter().get_llm_invocation_params(
            context,
            system_instruction=assert_given(getattr(self._settings, "system_instruction", None)),
            convert_developer_to_user=not self.supports_developer_role,
        )
        try:
            done = await fit.fit(
                list(invocation.get("messages") or []),
                lambda msgs: self._request_for({**invocation, "messages": msgs}),
            )
        except (OSError, ValueError) as exc:  # the count failed: send the request as it is
            call_log.warning(f"{self}: prompt not measured ({type(exc).__name__}: {exc}); sent untrimmed")
            return
        if done.trimmed:
            call_log.info(
                f"{self}: context trimmed (#{fit.trims}): the oldest {done.dropped} conversation "
                f"messages left out, prompt now {done.prompt_tokens} of {fit.limit} tokens"
            )

    def stats(self) -> dict[str, int]:
        """Counters for the record: context trims and how the replies were read."""
        out = {
            "text_tool_calls_converted": self.text_tool_calls_converted,
            "tool_calls_refused": self.tool_calls_refused,
        }
        if self.context_fit is not None:
            out |= {
                "context_trims": self.context_fit.trims,
                "context_messages_dropped": self.context_fit.dropped,
            }
        return out

    async def get_chat_completions(self, context: Any) -> Any:
        if self.context_fit is not None:
            await self._fit_context(context, self.context_fit)
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
