"""A tool call made outside pipecat's LLM service, recorded as pipecat records its own.

An external agent's bridged calls and a LiveKit session's function tools run outside the
pipeline; pushing the in-progress and result frames downstream lets the recorder (and anything
else that watches function calls) see them exactly like a cascade's calls. ``run_llm=False``:
the agent that made the call answers it itself."""

from __future__ import annotations

from typing import Any

from pipecat.frames.frames import (
    FunctionCallInProgressFrame,
    FunctionCallResultFrame,
    FunctionCallResultProperties,
)
from pipecat.processors.frame_processor import FrameProcessor


async def push_tool_call(
    processor: FrameProcessor, name: str, call_id: str, args: dict[str, Any], result: dict[str, Any]
) -> None:
    """Push one finished tool call (in progress, then its result) downstream of ``processor``."""
    await processor.push_frame(
        FunctionCallInProgressFrame(function_name=name, tool_call_id=call_id, arguments=args)
    )
    await processor.push_frame(
        FunctionCallResultFrame(
            function_name=name,
            tool_call_id=call_id,
            arguments=args,
            result=result,
            run_llm=False,
            properties=FunctionCallResultProperties(run_llm=False),
        )
    )
