"""A LiveKit agent's function tools, run against the call's scenario instead of its own code.

A scenario's tools change a per-call database that task completion scores, so a tool call
of the agent under test must reach the scenario's ``ToolExecutor``. Every function tool of
the agent (its ``@function_tool`` methods, tools passed to ``Agent(tools=...)``, the function
tools inside a ``Toolset``) is replaced by a raw tool with the *same* schema (what the LLM
sees is the agent as written) whose body is the executor: a tool the scenario defines
runs on the database; one it does not define answers ``tool_not_found`` (recorded like any
call, and in the audit log), never the agent's own code. Names listed in
``passthrough`` keep their own code (e.g. an ``end_call`` that hangs up); those calls are
not recorded as tool calls.

Provider tools (run by the model vendor) are left as they are, with a warning.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from livekit.agents import RunContext, llm
from livekit.agents.llm.tool_context import (
    FunctionTool,
    RawFunctionTool,
    StopResponse,
    Toolset,
    function_tool,
)
from livekit.agents.llm.utils import build_legacy_openai_schema
from loguru import logger

from voxbench.scenarios import ToolExecutor

ToolHook = Callable[[str, dict[str, Any], dict[str, Any], RunContext], Awaitable[bool]]
"""Called after each routed call with (name, arguments, result, context); True: the call is
over for the LLM (a transfer), its result is not read back."""


@dataclass
class RoutedTools:
    """What routing did to the agent's tools (logged, and kept for the tests)."""

    routed: list[str] = field(default_factory=list)
    not_in_scenario: list[str] = field(default_factory=list)
    passthrough: list[str] = field(default_factory=list)
    provider: list[str] = field(default_factory=list)
    scenario_missing: list[str] = field(default_factory=list)


def tool_schema(tool: FunctionTool | RawFunctionTool) -> dict[str, Any]:
    """The tool's function schema ``{name, description, parameters}`` as LiveKit sends it."""
    if isinstance(tool, RawFunctionTool):
        raw = dict(tool.info.raw_schema)
        return {
            "name": raw["name"],
            "description": raw.get("description") or "",
            "parameters": raw["parameters"],
        }
    schema = build_legacy_openai_schema(tool, internally_tagged=True)
    return {"name": schema["name"], "description": schema["description"], "parameters": schema["parameters"]}


def _flatten(tools: Iterable[Any]) -> Iterable[Any]:
    for t in tools:
        if isinstance(t, Toolset):
            yield from _flatten(t.tools)
        else:
            yield t


def routed_tool(
    tool: FunctionTool | RawFunctionTool, executor: ToolExecutor, hook: ToolHook
) -> RawFunctionTool:
    """``tool``'s schema and flags, the executor as its body."""
    schema = tool_schema(tool)
    name = schema["name"]

    async def _run(raw_arguments: dict[str, object], context: RunContext) -> str:
        args = dict(raw_arguments)
        result = executor.execute(name, args)
        if await hook(name, args, result, context):
            raise StopResponse()
        return json.dumps(result, default=str)

    out: RawFunctionTool = function_tool(_run, raw_schema=schema, flags=tool.info.flags)
    return out


def route_tools(
    tools: Iterable[Any],
    executor: ToolExecutor,
    scenario_tools: list[str],
    hook: ToolHook,
    passthrough: Iterable[str] = (),
) -> tuple[list[llm.Tool | llm.Toolset], RoutedTools]:
    """The agent's tool list with every function tool routed to ``executor``."""
    keep = set(passthrough)
    out: list[llm.Tool | llm.Toolset] = []
    report = RoutedTools()
    for t in _flatten(tools):
        if isinstance(t, FunctionTool | RawFunctionTool):
            name = t.info.name
            if name in keep:
                out.append(t)
                report.passthrough.append(name)
                continue
            out.append(routed_tool(t, executor, hook))
            report.routed.append(name)
            if name not in scenario_tools:
                report.not_in_scenario.append(name)
        else:
            out.append(t)
            report.provider.append(getattr(t, "id", type(t).__name__))
    report.scenario_missing = [n for n in scenario_tools if n not in report.routed]
    if report.not_in_scenario:
        logger.warning(
            f"LiveKit agent tools the scenario does not define (they answer tool_not_found): "
            f"{', '.join(report.not_in_scenario)}"
        )
    if report.provider:
        logger.warning(f"LiveKit provider tools left as they are (not scored): {', '.join(report.provider)}")
    return out, report
