"""Tool calls that small models write as JSON *text*: reading them out of a reply.

Small local models (Qwen2.5-Coder 0.5B/1.5B under llama.cpp, see offline-models.md §12) answer a
request that carries ``tools`` with the call as text in ``message.content``::

    {"name": "lookup_booking", "arguments": {"confirmation_code": "K7X9P2"}}

sometimes inside a ```json fence or Hermes-style ``<tool_call>...</tool_call>`` tags, sometimes as
a list of such objects; in the compact and json_schema modes (:mod:`.tool_prompt`) as
``{"say": ...}`` / ``{"tool": ..., "arguments": ...}``. Pure (no pipecat import).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

SAY_KEY = "say"
TOOL_KEY = "tool"
PLAN_KEY = "plan"  # optional first field of a json_schema reply: the next step, never spoken
NO_TOOL = "none"  # the "tool" of a say_then_tool reply that calls nothing

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


def objects_from_text(text: str) -> list[Any]:
    """The JSON values in ``text`` (fenced, tagged, a list, or one per line); ``[]`` if it is not JSON."""
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


def _tool_call(obj: Any, tool_names: Collection[str]) -> ParsedToolCall | None:
    """One object as a call of a known tool, else ``None``."""
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("function"), dict):  # {"type": "function", "function": {...}}
        obj = obj["function"]
    name = obj.get("name", obj.get(TOOL_KEY))
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
    return ParsedToolCall(name=name, arguments=args) if isinstance(args, dict) else None


def parse_tool_calls(text: str, tool_names: Collection[str]) -> list[ParsedToolCall] | None:
    """Parse ``text`` as one or more tool calls of tools in ``tool_names``.

    Returns ``None`` unless *all* of the text is tool-call JSON naming known tools, so a reply
    that merely mentions JSON is never swallowed.
    """
    if not tool_names:
        return None
    objects = objects_from_text(text)
    if not objects:
        return None
    calls = [_tool_call(obj, tool_names) for obj in objects]
    return None if any(c is None for c in calls) else [c for c in calls if c is not None]


def parse_reply(text: str, tool_names: Collection[str]) -> tuple[str, list[ParsedToolCall]] | None:
    """A reply made only of ``{"say"}`` objects and known tool calls: (spoken text, calls), else ``None``."""
    objects = objects_from_text(text)
    if not objects:
        return None
    said: list[str] = []
    calls: list[ParsedToolCall] = []
    for obj in objects:
        if isinstance(obj, dict):
            obj = {k: v for k, v in obj.items() if k != PLAN_KEY}
        if isinstance(obj, dict) and isinstance(obj.get(SAY_KEY), str):
            said.append(obj[SAY_KEY].strip())
            obj = {k: v for k, v in obj.items() if k != SAY_KEY and obj.get(TOOL_KEY) != NO_TOOL}
            if not obj:
                continue
        parsed = parse_tool_calls(json.dumps(obj), tool_names)
        if not parsed:
            return None
        calls += parsed
    return " ".join(s for s in said if s), calls


def parse_say(text: str) -> str | None:
    """The spoken line of a ``{"say": "..."}`` reply (fenced or not), else ``None``."""
    objects = objects_from_text(text)
    if len(objects) != 1 or not isinstance(objects[0], dict):
        return None
    value = objects[0].get(SAY_KEY)
    return value if isinstance(value, str) else None


def tool_functions(tools: Any) -> list[dict[str, Any]]:
    """The ``function`` objects of an OpenAI ``tools`` list (anything malformed skipped)."""
    out: list[dict[str, Any]] = []
    if isinstance(tools, list):
        for tool in tools:
            fn = tool.get("function") if isinstance(tool, dict) else None
            if isinstance(fn, dict) and isinstance(fn.get("name"), str):
                out.append(fn)
    return out


def tool_names_from_params(params: dict[str, Any]) -> frozenset[str]:
    """Names of the function tools in an OpenAI chat-completions request."""
    return frozenset(fn["name"] for fn in tool_functions(params.get("tools")))
