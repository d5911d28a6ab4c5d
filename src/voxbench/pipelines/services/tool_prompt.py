"""Requests shaped for small local models: a compact tool prompt and JSON-schema-constrained replies.

:func:`prepare_tool_request` turns an OpenAI chat request into one of three modes
(``native``, ``compact``, ``json_schema``), driven by the agent's
:class:`~voxbench.pipelines.services.reply_policy.ReplyPolicy`. Pure (no pipecat import).
"""

from __future__ import annotations

from typing import Any

from voxbench.pipelines.services.reply_policy import TOOL_CALL_MODES, ReplyPolicy, ToolCallMode
from voxbench.pipelines.services.tool_history import (
    JSON_RESULT_INSTRUCTION,
    flatten_tool_history,
    json_history,
)
from voxbench.pipelines.services.tool_text import (
    NO_TOOL,
    PLAN_KEY,
    SAY_KEY,
    TOOL_KEY,
    tool_functions,
    tool_names_from_params,
)

__all__ = [
    "TOOL_CALL_MODES",
    "ToolCallMode",
    "compact_tool_prompt",
    "prepare_tool_request",
    "reply_json_schema",
]

PLAN_MAX_CHARS = 160


def _strict_params(params: Any) -> dict[str, Any]:
    params = params if isinstance(params, dict) else {}
    props = params.get("properties") if isinstance(params.get("properties"), dict) else {}
    clean: dict[str, Any] = {}
    for name, schema in props.items():
        s = {k: v for k, v in (schema or {}).items() if k != "description"}
        clean[name] = s or {}
    required = [r for r in params.get("required", []) if r in clean]
    return {"type": "object", "properties": clean, "required": required, "additionalProperties": False}


def reply_json_schema(tools: Any, *, plan: bool = False, say_then_tool: bool = False) -> dict[str, Any]:
    """JSON schema of one agent turn: ``{"say": text}`` or ``{"tool": name, "arguments": {...}}``.

    ``tools`` is an OpenAI ``tools`` list; each tool becomes one ``anyOf`` branch whose
    ``arguments`` follow that tool's parameter schema (required fields, enums, types), so a
    grammar-constrained model can only produce a speakable line or a well-formed call.
    With ``plan`` every branch starts with a short ``"plan"`` string: the model first writes
    what the caller needs and which step comes next, *then* chooses between speaking and a
    tool (a small model that must pick at the first token tends to skip the lookup).
    With ``say_then_tool`` every reply is ``{"say", "tool"}``: a spoken line, then an explicit
    choice of a tool (with ``arguments``) or ``"none"``. Qwen 1.5B, free to close the object
    after "I'll look up your booking", closed it and never called; asked to name the tool
    right after saying that, it can. The caller also hears speech before every slow tool.
    """
    lead: dict[str, Any] = {PLAN_KEY: {"type": "string", "maxLength": PLAN_MAX_CHARS}} if plan else {}

    def branch(props: dict[str, Any]) -> dict[str, Any]:
        props = {**lead, **props}
        return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}

    say = {SAY_KEY: {"type": "string", "minLength": 1}}
    if say_then_tool:
        branches = [branch({**say, TOOL_KEY: {"type": "string", "const": NO_TOOL}})]
    else:
        branches = [branch(say)]
    for fn in tool_functions(tools):
        call = {
            TOOL_KEY: {"type": "string", "const": fn["name"]},
            "arguments": _strict_params(fn.get("parameters")),
        }
        branches.append(branch({**say, **call} if say_then_tool else call))
    return {"anyOf": branches}


def _param_line(name: str, schema: dict[str, Any], required: bool) -> str:
    kind = schema.get("type", "any")
    if isinstance(schema.get("enum"), list):
        kind = "|".join(str(v) for v in schema["enum"])
    return f"{name}{'' if required else '?'}: {kind}"


def compact_tool_prompt(tools: Any, *, plan: bool = False, say_then_tool: bool = False) -> str:
    """A short tool section for the system prompt: the reply format and one line per tool.

    Replaces the verbose JSON tool schemas that a chat template would render (several
    thousand tokens for a domain's tools), so a small CPU model's prompt stays short. It is a
    pure function of ``tools``: the same tools give the same bytes (prompt-cache friendly). There
    is deliberately no example call: Qwen 1.5B copied example values (even of a made-up tool)
    into real calls in live runs.
    """
    fns = tool_functions(tools)
    lead = '"plan": "<next step>", ' if plan else ""
    spoken = '"say": "<one or two short spoken sentences>"'
    if say_then_tool:
        shapes = [
            f'Reply with exactly one JSON object and nothing else: {{{lead}{spoken}, "tool": ...}}.',
            f'"tool" is "{NO_TOOL}" when you only speak, or a tool name followed by "arguments": '
            "{<parameters>} when you use a tool (then say what you are doing, e.g. looking it up).",
            "Never tell the caller you found, checked or changed something unless a tool result "
            "above shows it: when the caller has given what a tool needs, use that tool in this reply.",
        ]
    else:
        shapes = [
            "Reply with exactly one JSON object and nothing else:",
            f"- to speak to the caller: {{{lead}{spoken}}}",
            f'- to use a tool: {{{lead}"tool": "<tool name>", "arguments": {{<parameters>}}}}',
        ]
    if plan:
        shapes.append(
            '"plan" comes first: in a few words, what the caller needs and what the policy says '
            "to do next (look something up, ask the caller, make the change, or answer). The "
            "caller never hears it."
        )
    lines = [
        *shapes,
        "Only use a tool when the caller has told you every required value (or an earlier tool "
        "result gave it); otherwise ask the caller for what is missing. Copy values exactly. "
        "Never describe a tool or show JSON to the caller.",
        "",
        "Tools (name(parameters; ? = optional): what it does):",
    ]
    for fn in fns:
        params: dict[str, Any] = fn["parameters"] if isinstance(fn.get("parameters"), dict) else {}
        props = params.get("properties") or {}
        req = set(params.get("required") or [])
        plist = ", ".join(_param_line(n, s or {}, n in req) for n, s in props.items())
        desc = str(fn.get("description") or "").strip().split(". ")[0].rstrip(".")
        lines.append(f"- {fn['name']}({plist}): {desc}")
    return "\n".join(lines)


def _append_to_system(messages: list[Any], block: str) -> list[Any]:
    out = list(messages)
    for i, msg in enumerate(out):
        if isinstance(msg, dict) and msg.get("role") == "system" and isinstance(msg.get("content"), str):
            out[i] = {**msg, "content": msg["content"].rstrip() + "\n\n" + block}
            return out
    return [{"role": "system", "content": block}, *out]


def tool_rounds_since_user(messages: Any) -> int:
    """How many assistant tool-call turns came after the caller's last message."""
    rounds = 0
    for msg in reversed(messages if isinstance(messages, list) else []):
        role = msg.get("role") if isinstance(msg, dict) else None
        if role == "user":
            break
        if role == "assistant" and msg.get("tool_calls"):
            rounds += 1
    return rounds


def prepare_tool_request(
    params: dict[str, Any], policy: ReplyPolicy, *, max_tool_rounds: int = 3
) -> frozenset[str]:
    """Shape an OpenAI chat request for a small local model; returns the request's tool names.

    By ``policy.tool_call_mode``:

    * ``native``: tools stay in the request (the chat template renders them); with
      ``flatten_tool_history`` the tool history becomes plain chat turns (:func:`flatten_tool_history`).
    * ``compact``: the tools leave the request and a short :func:`compact_tool_prompt` is appended
      to the system message; history uses the ``{"say"}/{"tool"}`` format.
    * ``json_schema``: ``compact`` plus ``response_format`` constraining each reply to
      :func:`reply_json_schema` (llama.cpp turns it into a grammar). After ``max_tool_rounds``
      tool calls in a row without a new caller message only ``{"say"}`` is allowed, so a small
      model cannot loop on tool calls (pipecat re-runs the LLM after every result).
      With ``plan_replies`` each reply starts with a short unspoken ``"plan"``; with
      ``say_then_tool`` a reply may speak and call in one object (see :func:`reply_json_schema`).

    Mutates ``params`` in place. Deterministic, so the prompt prefix is stable between turns.
    """
    names = tool_names_from_params(params)
    messages = params.get("messages")
    mode, plan, say_then_tool = policy.tool_call_mode, policy.plan_replies, policy.say_then_tool
    if mode == "native" or not names:
        if policy.flatten_tool_history and isinstance(messages, list):
            params["messages"] = flatten_tool_history(messages)
        return names
    tools = params.pop("tools")
    params.pop("tool_choice", None)
    if isinstance(messages, list):
        msgs = json_history(messages, JSON_RESULT_INSTRUCTION, say_then_tool=say_then_tool)
        params["messages"] = _append_to_system(
            msgs, compact_tool_prompt(tools, plan=plan, say_then_tool=say_then_tool)
        )
    if mode == "json_schema":
        looping = tool_rounds_since_user(messages) >= max_tool_rounds
        params["response_format"] = {
            "type": "json_schema",
            "json_schema": {
                "name": "agent_turn",
                "schema": reply_json_schema([] if looping else tools, plan=plan, say_then_tool=say_then_tool),
            },
        }
    return names
