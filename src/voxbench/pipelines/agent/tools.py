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
    FunctionCallResultProperties,
    TTSSpeakFrame,
)
from pipecat.services.llm_service import FunctionCallParams, LLMService

from voxbench.processors.control import TRANSFER_TOOL, CallControl
from voxbench.processors.pre_tool_speech import PreToolSpeech
from voxbench.scenarios import AgentSpec, ToolExecutor


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


__all__ = ["TRANSFER_TOOL", "PreToolSpeech", "bind_tools", "tools_schema"]
