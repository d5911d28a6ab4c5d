"""The agent's tools: schemas for the LLM, handlers bound to the ToolExecutor.

Every call goes through the deterministic `ToolExecutor` (the scenario database);
`transfer_to_agent` also says the transfer line and ends the call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
from pipecat.adapters.llm.schemas.tools_schema import ToolsSchema
from pipecat.frames.frames import (
    Frame,
    FunctionCallResultProperties,
    FunctionCallsStartedFrame,
    LLMFullResponseStartFrame,
    LLMTextFrame,
    TTSSpeakFrame,
    UserStartedSpeakingFrame,
)
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.services.llm_service import FunctionCallParams, LLMService

from voxbench.pipelines.control import CallControl
from voxbench.scenarios import AgentSpec, ToolExecutor

TRANSFER_TOOL = "transfer_to_agent"


def tools_schema(spec: AgentSpec) -> ToolsSchema:
    """The agent's YAML tools as pipecat function schemas."""
    out = []
    for t in spec.openai_tools():
        fn = t["function"]
        params = fn["parameters"]
        out.append(
            FunctionSchema(
                name=fn["name"],
                description=fn["description"],
                properties=params.get("properties", {}),
                required=params.get("required", []),
            )
        )
    return ToolsSchema(standard_tools=out)


def bind_tools(
    llm: LLMService,
    executor: ToolExecutor,
    spec: AgentSpec,
    control: CallControl,
    transfer_message: str,
    now: Callable[[], float],
) -> None:
    """Register one handler per tool; each runs the executor and returns its result."""

    def make(name: str) -> Callable[[FunctionCallParams], Any]:
        async def handler(params: FunctionCallParams) -> None:
            result = executor.execute(name, dict(params.arguments or {}))
            if name == TRANSFER_TOOL and result.get("status") != "error":
                await params.result_callback(result, properties=FunctionCallResultProperties(run_llm=False))
                await params.llm.push_frame(TTSSpeakFrame(transfer_message))
                control.end("transfer", t=now())
                return
            await params.result_callback(result)

        return handler

    for name in spec.tool_names():
        llm.register_function(name, make(name))


class PreToolSpeech(FrameProcessor):
    """Says a short line before a tool call when the LLM said nothing first.

    Sits right after the LLM; at most once per user turn, so a chain of tool calls
    gets one "one moment" rather than one per call.
    """

    def __init__(self, text: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.text = text
        self._said_text = False
        self._filled_this_turn = False

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, UserStartedSpeakingFrame):
            self._filled_this_turn = False
        elif isinstance(frame, LLMFullResponseStartFrame):
            self._said_text = False
        elif isinstance(frame, LLMTextFrame) and frame.text.strip():
            self._said_text = True
        await self.push_frame(frame, direction)
        if (
            isinstance(frame, FunctionCallsStartedFrame)
            and direction == FrameDirection.DOWNSTREAM
            and not self._said_text
            and not self._filled_this_turn
            and any(c.function_name != TRANSFER_TOOL for c in frame.function_calls)
        ):
            self._filled_this_turn = True
            await self.push_frame(TTSSpeakFrame(self.text))
