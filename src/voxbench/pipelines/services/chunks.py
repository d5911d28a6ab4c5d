"""Synthetic OpenAI streaming chunks: replaced text and tool calls written into a model's stream.

Shared by the agent's tool-call adapter (:mod:`.tool_stream`) and the LLM caller's turn
stream (pipelines/caller/stream.py). Pure (no pipecat import).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from openai.types.chat.chat_completion_chunk import (
    ChatCompletionChunk,
    Choice,
    ChoiceDelta,
    ChoiceDeltaToolCall,
    ChoiceDeltaToolCallFunction,
)

from voxbench.pipelines.services.tool_text import ParsedToolCall


def make_chunk(
    template: ChatCompletionChunk | None, delta: ChoiceDelta, finish: Any = None
) -> ChatCompletionChunk:
    """A chunk carrying ``delta``, with the id, time and model of ``template`` (if any)."""
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
        out.append(make_chunk(template, delta))
    return out


def without_content(chunks: list[ChatCompletionChunk]) -> list[ChatCompletionChunk]:
    """The held chunks that carry no text (finish reason, usage): kept when the text is replaced."""
    return [c for c in chunks if not (c.choices and c.choices[0].delta.content)]
