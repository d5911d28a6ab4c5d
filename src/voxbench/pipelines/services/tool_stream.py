"""Rewrites a model's chunk stream so JSON-text tool calls become real OpenAI ``tool_calls``.

Pipecat's OpenAI service only runs function handlers for structured ``tool_calls`` deltas, so
:class:`ToolCallTextAdapterStream` rewrites the chunk stream: content that could be the start
of a JSON tool call (:func:`~.tool_text.could_be_tool_call`) is held back; at the end of the
stream, if it parses into calls of *known* tools, synthetic ``tool_calls`` chunks are emitted
instead of the text, otherwise the held text is released unchanged. Content that plainly is
prose streams through with no added latency. Pure (no pipecat import).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from openai.types.chat.chat_completion_chunk import ChatCompletionChunk, ChoiceDelta

from voxbench.pipelines.services.chunks import make_chunk, tool_call_chunks, without_content
from voxbench.pipelines.services.json_stream import JSONStringStream
from voxbench.pipelines.services.speech_text import MarkdownSpeechFilter
from voxbench.pipelines.services.tool_text import (
    PLAN_KEY,
    SAY_KEY,
    ParsedToolCall,
    could_be_tool_call,
    parse_reply,
    parse_say,
    parse_tool_calls,
)

Guard = Callable[[list[ParsedToolCall]], str | None]


def say_stream() -> JSONStringStream:
    """Decodes a leading ``{"say": "..."}`` while it streams, so TTS starts on the first sentence.

    A grammar-constrained reply ``{"say": "...", "tool": ...}`` is only parseable at its end,
    and Qwen 1.5B on two loaded cores takes 10-40 s for a whole reply after a long tool
    result; the words, though, come first. With an unspoken ``"plan"`` first, the words
    start once the plan's string has closed (before: only at the reply's end, which put the
    whole reply's generation, 8-9 s in make run, before every first word).
    """
    return JSONStringStream(SAY_KEY, leading=True, after=PLAN_KEY)


@asynccontextmanager
async def closing_iter(source: Any) -> AsyncIterator[Any]:
    """``source``'s async iterator, closed when the block ends, however it ends.

    Pipecat closes the LLM stream's iterator when a reply is interrupted; closing a generator
    does not close the iterators its ``async for`` loops were reading. Left open, the OpenAI
    stream's and httpx's generators were finalised at loop shutdown, which printed "aclose():
    asynchronous generator is already running" tracebacks at the end of `voxbench call`.
    """
    it = source.__aiter__()
    try:
        yield it
    finally:
        closer = getattr(it, "aclose", None)
        if closer is not None:
            await closer()


@dataclass
class _Held:
    """Every chunk since the first content, while it is undecided whether the text is a call."""

    chunks: list[ChatCompletionChunk] = field(default_factory=list)
    text: str = ""
    template: ChatCompletionChunk | None = None
    say: JSONStringStream = field(default_factory=say_stream)


class ToolCallTextAdapterStream:
    """Wraps an ``AsyncStream[ChatCompletionChunk]`` and rewrites JSON-text tool calls into ``tool_calls``.

    Exposes ``__aiter__`` and ``close()`` like the OpenAI SDK stream, which is all pipecat uses.
    ``converted`` tells afterwards whether a rewrite happened.
    """

    def __init__(
        self,
        stream: Any,
        tool_names: Collection[str],
        *,
        unwrap_say: bool = False,
        strip_markdown: bool = False,
        guard: Guard | None = None,
    ) -> None:
        self._stream = stream
        self._tool_names = frozenset(tool_names)
        self._unwrap_say = unwrap_say
        self._md = MarkdownSpeechFilter() if strip_markdown else None
        self._guard = guard
        self.converted: list[ParsedToolCall] = []
        self.refused: list[ParsedToolCall] = []  # calls the guard stopped (said a line instead)

    def __aiter__(self) -> AsyncIterator[ChatCompletionChunk]:
        return self._iterate()

    async def close(self) -> None:
        closer = getattr(self._stream, "close", None) or getattr(self._stream, "aclose", None)
        if closer is not None:
            await closer()

    async def _iterate(self) -> AsyncIterator[ChatCompletionChunk]:
        async with closing_iter(self._adapt()) as chunks:
            async for chunk in chunks:
                if self._md is not None:
                    chunk = self._md.filter_chunk(chunk)
                yield chunk

    async def _adapt(self) -> AsyncIterator[ChatCompletionChunk]:
        async with closing_iter(self._stream) as chunks:
            if not self._tool_names:
                async for chunk in chunks:
                    yield chunk
                return
            async for chunk in self._adapt_chunks(chunks):
                yield chunk

    async def _adapt_chunks(
        self, chunks: AsyncIterator[ChatCompletionChunk]
    ) -> AsyncIterator[ChatCompletionChunk]:
        held = _Held()
        decided = False  # prose, or the server sent native tool_calls: stream through untouched
        async for chunk in chunks:
            held.template = held.template or chunk
            if decided:
                yield chunk
                continue
            delta = chunk.choices[0].delta if chunk.choices else None
            if delta is not None and delta.tool_calls:
                decided = True
            elif delta is not None and delta.content:
                held.text += delta.content
                held.chunks.append(chunk)
                if could_be_tool_call(held.text):
                    fresh = held.say.feed(delta.content) if self._unwrap_say else ""
                    if fresh:
                        yield make_chunk(chunk, ChoiceDelta(role=delta.role, content=fresh))
                    continue
                decided = True
            elif held.text:
                held.chunks.append(chunk)  # finish reason / usage while holding: keep the order
                continue
            for c in held.chunks:
                yield c
            held.chunks.clear()
            if delta is None or not delta.content:
                yield chunk
        if held.chunks:
            for c in self._settle(held):
                yield c

    def _settle(self, held: _Held) -> list[ChatCompletionChunk]:
        """The end of a held reply: tool calls, a refusal, the spoken words, or the text as it was."""
        reply = parse_reply(held.text, self._tool_names) if self._unwrap_say else None
        pending = reply[1] if reply is not None else parse_tool_calls(held.text, self._tool_names)
        instead = self._guard(pending) if pending and self._guard is not None else None
        spoken_already = held.say.text
        if pending and instead is not None:  # ungrounded values: ask the caller, run nothing
            self.refused = pending
            lead = " " if spoken_already else ""
            line = make_chunk(held.template, ChoiceDelta(role="assistant", content=lead + instead))
            return [line, *without_content(held.chunks)]
        if reply is not None and reply[0] and reply[1]:  # {"say"} and a call: speak, then call
            say, calls = reply
            self.converted = calls
            words = (
                []
                if spoken_already
                else [make_chunk(held.template, ChoiceDelta(role="assistant", content=say))]
            )
            return [*words, *tool_call_chunks(calls, held.template), *without_content(held.chunks)]
        only_calls = parse_tool_calls(held.text, self._tool_names)
        if only_calls:
            self.converted = only_calls
            return [*tool_call_chunks(only_calls, held.template), *without_content(held.chunks)]
        return self._released(held, reply)

    def _released(
        self, held: _Held, reply: tuple[str, list[ParsedToolCall]] | None
    ) -> list[ChatCompletionChunk]:
        """No call: the ``{"say"}`` words once (unless they went out while generated), else the text."""
        spoken = parse_say(held.text) if self._unwrap_say else None
        if spoken is None and reply is not None and reply[0] and not reply[1]:
            spoken = reply[0]  # {"say", "tool": "none"}
        if spoken is None:
            return list(held.chunks)
        if held.say.text:
            return without_content(held.chunks)  # the words went out while they were generated
        out, first = [], True
        for c in held.chunks:
            d = c.choices[0].delta if c.choices else None
            if d is None or not d.content:
                out.append(c)
            elif first:
                first = False
                out.append(make_chunk(c, ChoiceDelta(role=d.role, content=spoken)))
        return out
