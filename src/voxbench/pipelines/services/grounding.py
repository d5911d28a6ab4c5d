"""Argument grounding: a small agent model may only use identifiers it was actually given.

Measured with Qwen2.5-Coder-1.5B on the built-in scenarios (benchmarks/agent_text_bench.py):
asked to add a bag before the caller had said anything, it called
``get_reservation(confirmation_number="123456", last_name="Smith")`` and looped on
``get_flight_status(flight_number="AA123")``. Values like these come from nowhere: not the
caller, not a tool result, not the system prompt. A careful human agent would ask instead.

:class:`GroundingGuard` checks each identifier-like argument of a tool call against the text
the model could have taken it from (the request's messages), compared letters-and-digits
only, so a code the caller spelled ("Q X 7 T 4 M") grounds ``QX7T4M``. If any value is not
found the call is not run; the agent asks the caller for those parameters instead. Free text
(values with spaces), enums, non-string numbers, decimals, dates and times are not checked: a model may
legitimately compose them ("May 6th" -> ``2026-05-06``). Pure: no pipecat import.

This belongs to the *bundled baseline agent* (opt-in via ``LLMConfig.ground_tool_arguments``);
agents under test run without it unless their profile asks for it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from voxbench.pipelines.services.tool_text import ParsedToolCall

_NON_ALNUM = re.compile(r"[^0-9a-z]+")
_COMPOSED = re.compile(r"^(\d{4}-\d{2}-\d{2}([T ].*)?|\d{1,2}:\d{2}(:\d{2})?|[^@\s]+@[^@\s]+|[-+]?\d+\.\d+)$")


def _norm(text: str) -> str:
    return _NON_ALNUM.sub("", text.lower())


def request_text(messages: Any) -> str:
    """Everything the model was shown in ``messages`` (contents and earlier call arguments), as one string."""
    parts: list[str] = []
    for msg in messages if isinstance(messages, list) else []:
        if not isinstance(msg, dict):
            continue
        content = msg.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):  # multi-part content: keep the text parts
            parts += [p.get("text", "") for p in content if isinstance(p, dict)]
        for call in msg.get("tool_calls") or []:
            fn = call.get("function") if isinstance(call, dict) else None
            if isinstance(fn, dict):
                parts.append(str(fn.get("arguments", "")))
    return "\n".join(parts)


def tool_parameter_schemas(tools: Any) -> dict[str, dict[str, Any]]:
    """``{tool name: {parameter: JSON schema}}`` from an OpenAI ``tools`` list.

    Required parameters are listed first, in the tool's order (the order to ask for them).
    """
    out: dict[str, dict[str, Any]] = {}
    for tool in tools if isinstance(tools, list) else []:
        fn = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(fn, dict) and isinstance(fn.get("name"), str):
            params: dict[str, Any] = fn["parameters"] if isinstance(fn.get("parameters"), dict) else {}
            props: dict[str, Any] = params["properties"] if isinstance(params.get("properties"), dict) else {}
            required = [r for r in params.get("required") or [] if r in props]
            order = required + [k for k in props if k not in required]
            out[fn["name"]] = {k: props[k] if isinstance(props[k], dict) else {} for k in order}
            out[fn["name"]][_REQUIRED] = required
    return out


_REQUIRED = "__required__"  # key of a tool's required-parameter list inside tool_parameter_schemas


def needs_grounding(value: Any, schema: Mapping[str, Any]) -> bool:
    """Whether ``value`` is an identifier-like string the model cannot have composed itself."""
    if not isinstance(value, str) or not _is_free_string(schema):
        return False
    text = value.strip()
    if not text or any(ch.isspace() for ch in text) or _COMPOSED.match(text):
        return False
    return len(_norm(text)) >= 2


def _is_free_string(schema: Mapping[str, Any]) -> bool:
    return schema.get("type", "string") == "string" and "enum" not in schema and "const" not in schema


def spoken_name(param: str) -> str:
    """``confirmation_number`` -> ``confirmation number`` (``_id`` -> ``ID``)."""
    words = param.split("_")
    return " ".join("ID" if w.lower() == "id" else w for w in words if w)


@dataclass(frozen=True)
class Ungrounded:
    tool: str
    param: str
    value: str


@dataclass(frozen=True)
class GroundingGuard:
    """Checks parsed tool calls against what the model was shown in this request."""

    shown: str  # request_text(messages) of the request
    schemas: Mapping[str, Mapping[str, Any]]  # tool_parameter_schemas(tools)

    def ungrounded(self, calls: list[ParsedToolCall]) -> list[Ungrounded]:
        corpus = _norm(self.shown)
        out: list[Ungrounded] = []
        for call in calls:
            schema = self.schemas.get(call.name, {})
            for param, value in call.arguments.items():
                if param == _REQUIRED:
                    continue
                if needs_grounding(value, schema.get(param, {})) and _norm(value) not in corpus:
                    out.append(Ungrounded(call.name, param, value))
        return out

    def _source_tool(self, tool: str, param: str) -> str | None:
        """The other tool a parameter's description says its value comes from ("Journey id from get_reservation")."""
        desc = str(self.schemas.get(tool, {}).get(param, {}).get("description", ""))
        words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", desc))
        return next((t for t in self.schemas if t != tool and t in words), None)

    def _caller_params(self, item: Ungrounded) -> list[str]:
        """What to ask the caller for: the parameter itself, or, for a value that comes from
        another tool's result, that tool's required values the model has not been given."""
        source = self._source_tool(item.tool, item.param)
        if source is None:
            return [item.param]
        schema = self.schemas[source]
        asked = [
            p
            for p in schema.get(_REQUIRED, [])
            if _is_free_string(schema.get(p, {})) and f'"{p}"' not in self.shown  # not in an earlier call
        ]
        return asked or [item.param]

    def ask_instead(self, calls: list[ParsedToolCall]) -> str | None:
        """The line to say instead of running ``calls``, or ``None`` when every value is grounded."""
        missing = self.ungrounded(calls)
        if not missing:
            return None
        names: list[str] = []
        for item in missing:
            for param in self._caller_params(item):
                name = spoken_name(param)
                if name not in names:
                    names.append(name)
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"Could you tell me the {listed}, please?"


def describe(items: list[Ungrounded]) -> str:
    """Compact log line for ungrounded values."""
    return json.dumps([{"tool": u.tool, "param": u.param, "value": u.value} for u in items])
