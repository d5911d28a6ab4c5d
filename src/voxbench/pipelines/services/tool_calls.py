"""Turn tool calls that small models write as JSON *text* into real OpenAI ``tool_calls``.

Small local models (Qwen2.5-Coder 0.5B/1.5B under llama.cpp, see offline-models.md §12) answer a
request that carries ``tools`` with the call as text in ``message.content``::

    {"name": "lookup_booking", "arguments": {"confirmation_code": "K7X9P2"}}

sometimes inside a ```json fence or Hermes-style ``<tool_call>...</tool_call>`` tags, sometimes as
a list of such objects. Pipecat's OpenAI service only runs function handlers for structured
``tool_calls`` deltas, so :class:`ToolCallTextAdapterStream` rewrites the chunk stream: content
that could be the start of a JSON tool call is held back; at the end of the stream, if it parses
into calls of *known* tools, synthetic ``tool_calls`` chunks are emitted instead of the text,
otherwise the held text is released unchanged. Content that plainly is prose streams through
with no added latency.

This module is pure (no pipecat import) so it can be unit tested without models.
"""

from __future__ import annotations

import contextlib
import json
import re
import uuid
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass
from typing import Any

from openai.types.chat.chat_completion_chunk import (
    ChatCompletionChunk,
    Choice,
    ChoiceDelta,
    ChoiceDeltaToolCall,
    ChoiceDeltaToolCallFunction,
)

_FENCE_RE = re.compile(r"^```[a-zA-Z0-9_-]*\s*(.*?)\s*```$", re.DOTALL)
_TAG_RE = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)
_PREFIXES = ("{", "[", "```", "<tool_call>")


@dataclass(frozen=True)
class ParsedToolCall:
    name: str
    arguments: dict[str, Any]


def could_be_tool_call(prefix: str) -> bool:
    """Whether streamed content starting with ``prefix`` may still turn out to be a JSON tool call."""
    head = prefix.lstrip()
    if not head:
        return True
    return any(head.startswith(p) or p.startswith(head) for p in _PREFIXES)


def _objects_from_text(text: str) -> list[Any]:
    body = text.strip()
    fence = _FENCE_RE.match(body)
    if fence:
        body = fence.group(1).strip()
    tagged = _TAG_RE.findall(body)
    chunks = [t for t in tagged if t.strip()] if tagged else [body]
    out: list[Any] = []
    for chunk in chunks:
        try:
            value = json.loads(chunk)
        except json.JSONDecodeError:
            # Several objects separated by newlines ("JSON lines").
            lines = [ln for ln in chunk.splitlines() if ln.strip()]
            if len(lines) < 2:
                return []
            try:
                value = [json.loads(ln) for ln in lines]
            except json.JSONDecodeError:
                return []
        out.extend(value if isinstance(value, list) else [value])
    return out


def parse_tool_calls(text: str, tool_names: Collection[str]) -> list[ParsedToolCall] | None:
    """Parse ``text`` as one or more tool calls of tools in ``tool_names``.

    Returns ``None`` unless *all* of the text is tool-call JSON naming known tools, so a reply
    that merely mentions JSON is never swallowed.
    """
    if not tool_names:
        return None
    objects = _objects_from_text(text)
    if not objects:
        return None
    calls: list[ParsedToolCall] = []
    for obj in objects:
        if not isinstance(obj, dict):
            return None
        if isinstance(obj.get("function"), dict):  # {"type": "function", "function": {...}}
            obj = obj["function"]
        name = obj.get("name")
        if not isinstance(name, str) or name not in tool_names:
            return None
        args: Any = obj.get("arguments", obj.get("parameters", {}))
        if isinstance(args, str):
            try:
                args = json.loads(args) if args.strip() else {}
            except json.JSONDecodeError:
                return None
        if args is None:
            args = {}
        if not isinstance(args, dict):
            return None
        calls.append(ParsedToolCall(name=name, arguments=args))
    return calls


def tool_names_from_params(params: dict[str, Any]) -> frozenset[str]:
    """Names of the function tools in an OpenAI chat-completions request."""
    names: set[str] = set()
    tools = params.get("tools")
    if isinstance(tools, list):
        for tool in tools:
            fn = tool.get("function") if isinstance(tool, dict) else None
            if isinstance(fn, dict) and isinstance(fn.get("name"), str):
                names.add(fn["name"])
    return frozenset(names)


def _chunk(
    template: ChatCompletionChunk | None, delta: ChoiceDelta, finish: Any = None
) -> ChatCompletionChunk:
    return ChatCompletionChunk(
        id=template.id if template else f"voxbench-{uuid.uuid4().hex[:12]}",
        created=template.created if template else 0,
        model=template.model if template else "",
        object="chat.completion.chunk",
        choices=[Choice(index=0, delta=delta, finish_reason=finish)],
    )


def tool_call_chunks(
    calls: list[ParsedToolCall], template: ChatCompletionChunk | None
) -> list[ChatCompletionChunk]:
    """Synthetic streaming chunks carrying ``calls`` as OpenAI ``tool_calls`` deltas."""
    out = []
    for i, call in enumerate(calls):
        delta = ChoiceDelta(
            tool_calls=[
                ChoiceDeltaToolCall(
                    index=i,
                    id=f"call_{uuid.uuid4().hex[:24]}",
                    type="function",
                    function=ChoiceDeltaToolCallFunction(
                        name=call.name, arguments=json.dumps(call.arguments, ensure_ascii=False)
                    ),
                )
            ]
        )
        out.append(_chunk(template, delta))
    return out


class ToolCallTextAdapterStream:
    """Wraps an ``AsyncStream[ChatCompletionChunk]`` and rewrites JSON-text tool calls into ``tool_calls``.

    Exposes ``__aiter__`` and ``close()`` like the OpenAI SDK stream, which is all pipecat uses.
    ``converted`` tells afterwards whether a rewrite happened.
    """

    def __init__(self, stream: Any, tool_names: Collection[str]) -> None:
        self._stream = stream
        self._tool_names = frozenset(tool_names)
        self.converted: list[ParsedToolCall] = []

    def __aiter__(self) -> AsyncIterator[ChatCompletionChunk]:
        return self._iterate()

    async def close(self) -> None:
        closer = getattr(self._stream, "close", None) or getattr(self._stream, "aclose", None)
        if closer is not None:
            await closer()

    async def _iterate(self) -> AsyncIterator[ChatCompletionChunk]:
        if not self._tool_names:
            async for chunk in self._stream:
                yield chunk
            return
        held: list[ChatCompletionChunk] = []  # every chunk since the first content, while undecided
        text = ""
        decided = False  # prose, or the server sent native tool_calls: stream through untouched
        template: ChatCompletionChunk | None = None
        async for chunk in self._stream:
            template = template or chunk
            if decided:
                yield chunk
                continue
            delta = chunk.choices[0].delta if chunk.choices else None
            if delta is not None and delta.tool_calls:
                decided = True
            elif delta is not None and delta.content:
                text += delta.content
                held.append(chunk)
                if could_be_tool_call(text):
                    continue
                decided = True
            elif text:
                held.append(chunk)  # finish reason / usage while holding: keep the order
                continue
            for c in held:
                yield c
            held.clear()
            if delta is None or not delta.content:
                yield chunk
        if not held:
            return
        calls = parse_tool_calls(text, self._tool_names)
        if calls:
            self.converted = calls
            for c in tool_call_chunks(calls, template):
                yield c
            for c in held:
                d = c.choices[0].delta if c.choices else None
                if d is None or not d.content:
                    yield c  # finish reason / usage
            return
        for c in held:
            yield c


FLATTEN_INSTRUCTION = "Now answer the caller in plain spoken English, not JSON."


def flatten_tool_history(messages: list[Any], *, instruction: str = FLATTEN_INSTRUCTION) -> list[Any]:
    """Rewrite OpenAI tool-call history into plain chat turns, for models that cannot read it.

    Qwen2.5-Coder-0.5B, shown its own ``tool_calls`` message followed by a ``tool`` result, tends to
    repeat the call (or echo the result as JSON) instead of answering. With the history
    rewritten as an assistant line plus a *user* message carrying the result it answers in
    prose. Deterministic, so a conversation's prompt prefix stays stable (cache-friendly).

    * assistant message with ``tool_calls`` -> assistant text (its own content, or a neutral line);
    * each run of ``tool`` messages -> one user message ``[name result] content ...`` + instruction.
    """
    names_by_id: dict[str, str] = {}
    out: list[Any] = []
    pending: list[str] = []

    def flush() -> None:
        if pending:
            out.append({"role": "user", "content": "\n".join([*pending, instruction])})
            pending.clear()

    for msg in messages:
        role = msg.get("role") if isinstance(msg, dict) else None
        if role == "tool":
            name = names_by_id.get(str(msg.get("tool_call_id")), "tool")
            content = msg.get("content")
            if isinstance(content, str) and content.startswith('"'):
                with contextlib.suppress(json.JSONDecodeError):
                    decoded = json.loads(content)  # pipecat JSON-encodes string results
                    content = decoded if isinstance(decoded, str) else content
            if not isinstance(content, str):
                content = json.dumps(content, ensure_ascii=False)
            pending.append(f"[{name} result] {content}")
            continue
        flush()
        if role == "assistant" and msg.get("tool_calls"):
            for call in msg["tool_calls"]:
                fn = call.get("function") or {}
                names_by_id[str(call.get("id"))] = str(fn.get("name", "tool"))
            text = msg.get("content")
            out.append(
                {"role": "assistant", "content": text if isinstance(text, str) and text else "One moment."}
            )
            continue
        out.append(msg)
    flush()
    return out
