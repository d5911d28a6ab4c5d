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
from collections.abc import AsyncIterator, Callable, Collection
from dataclasses import dataclass
from typing import Any, Literal

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


def objects_from_text(text: str) -> list[Any]:
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
    objects = objects_from_text(text)
    if not objects:
        return None
    calls: list[ParsedToolCall] = []
    for obj in objects:
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

    def __init__(
        self,
        stream: Any,
        tool_names: Collection[str],
        *,
        unwrap_say: bool = False,
        strip_markdown: bool = False,
        guard: Callable[[list[ParsedToolCall]], str | None] | None = None,
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
        async for chunk in self._adapt():
            if self._md is not None:
                chunk = self._md.filter_chunk(chunk)
            yield chunk

    async def _adapt(self) -> AsyncIterator[ChatCompletionChunk]:
        if not self._tool_names:
            async for chunk in self._stream:
                yield chunk
            return
        held: list[ChatCompletionChunk] = []  # every chunk since the first content, while undecided
        text = ""
        decided = False  # prose, or the server sent native tool_calls: stream through untouched
        template: ChatCompletionChunk | None = None
        say_stream = SayStreamer()  # speaks a leading {"say": "..."} while it is generated
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
                    if self._unwrap_say:
                        fresh = say_stream.feed(text)
                        if fresh:
                            yield _chunk(chunk, ChoiceDelta(role=delta.role, content=fresh))
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
        reply = parse_reply(text, self._tool_names) if self._unwrap_say else None
        pending = reply[1] if reply is not None else parse_tool_calls(text, self._tool_names)
        instead = self._guard(pending) if pending and self._guard is not None else None
        spoken_already = say_stream.emitted
        if pending and instead is not None:  # ungrounded values: ask the caller, run nothing
            self.refused = pending
            lead = " " if spoken_already else ""
            yield _chunk(template, ChoiceDelta(role="assistant", content=lead + instead))
            for c in _without_content(held):
                yield c  # finish reason / usage
            return
        if reply is not None and reply[0] and reply[1]:  # {"say"} and a call: speak, then call
            say, calls = reply
            self.converted = calls
            if not spoken_already:
                yield _chunk(template, ChoiceDelta(role="assistant", content=say))
            for c in tool_call_chunks(calls, template):
                yield c
            for c in _without_content(held):
                yield c  # finish reason / usage
            return
        only_calls = parse_tool_calls(text, self._tool_names)
        if only_calls:
            self.converted = only_calls
            for c in tool_call_chunks(only_calls, template):
                yield c
            for c in _without_content(held):
                yield c  # finish reason / usage
            return
        spoken = parse_say(text) if self._unwrap_say else None
        if spoken is None and reply is not None and reply[0] and not reply[1]:
            spoken = reply[0]  # {"say", "tool": "none"}
        if spoken is not None and spoken_already:
            for c in _without_content(held):
                yield c  # the words went out while they were generated
            return
        if spoken is not None:
            first = True
            for c in held:
                d = c.choices[0].delta if c.choices else None
                if d is None or not d.content:
                    yield c
                elif first:
                    first = False
                    yield _chunk(c, ChoiceDelta(role=d.role, content=spoken))
            return
        for c in held:
            yield c


class SayStreamer:
    """Decodes the value of a leading ``"say"`` key while the JSON reply is still streaming.

    A grammar-constrained reply ``{"say": "...", "tool": ...}`` is only parseable at its end,
    and Qwen 1.5B on two loaded cores takes 10-40 s for a whole reply after a long tool
    result; the words, though, come first. ``feed(text_so_far)`` returns the newly decoded
    characters of the say string (never half an escape sequence), so TTS can start on the
    first sentence while the rest, and any tool call, is still being generated.
    """

    _OPEN = re.compile(r'^\s*\{\s*"say"\s*:\s*"')

    def __init__(self) -> None:
        self.emitted = ""
        self.closed = False

    def feed(self, text: str) -> str:
        if self.closed:
            return ""
        m = self._OPEN.match(text)
        if m is None:
            return ""
        raw, i, body = text[m.end() :], 0, []
        while i < len(raw):
            ch = raw[i]
            if ch == '"':
                self.closed = True
                break
            if ch == "\\":
                size = 6 if raw[i + 1 : i + 2] == "u" else 2
                if i + size > len(raw):
                    break  # incomplete escape: wait for the next chunk
                body.append(raw[i : i + size])
                i += size
                continue
            body.append(ch)
            i += 1
        try:
            decoded = json.loads('"' + "".join(body) + '"')
        except json.JSONDecodeError:
            return ""
        fresh = decoded[len(self.emitted) :]
        self.emitted = decoded
        return fresh


def _without_content(chunks: list[ChatCompletionChunk]) -> list[ChatCompletionChunk]:
    """The held chunks that carry no text (finish reason, usage): kept when the text is replaced."""
    return [c for c in chunks if not (c.choices and c.choices[0].delta.content)]


class MarkdownSpeechFilter:
    """Streaming filter for content chunks: drops fenced code blocks, strips markdown marks.

    Small models sometimes answer a phone caller with a ```json block or `code`; none of it
    should reach TTS. State carries across chunks (a fence may open in one chunk and close
    several chunks later); a trailing run of backticks is held until the next chunk.
    """

    def __init__(self) -> None:
        self._in_fence = False
        self._carry = ""

    def feed(self, text: str) -> str:
        buf = self._carry + text
        self._carry = ""
        out: list[str] = []
        i = 0
        while i < len(buf):
            j = buf.find("```", i)
            tail = len(buf) - len(buf.rstrip("`"))
            if j < 0:
                end = len(buf) - tail if tail else len(buf)
                if not self._in_fence:
                    out.append(buf[i:end])
                self._carry = buf[end:]
                break
            if not self._in_fence:
                out.append(buf[i:j])
            self._in_fence = not self._in_fence
            i = j + 3
        return _MD_MARKS.sub("", "".join(out)).replace("`", "")

    def filter_chunk(self, chunk: ChatCompletionChunk) -> ChatCompletionChunk:
        delta = chunk.choices[0].delta if chunk.choices else None
        if delta is None or not delta.content:
            return chunk
        return _chunk(
            chunk,
            ChoiceDelta(role=delta.role, content=self.feed(delta.content)),
            chunk.choices[0].finish_reason,
        )


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


# --- compact tool prompts and JSON-schema-constrained replies (small local models) --------------

SAY_KEY = "say"
TOOL_KEY = "tool"
PLAN_KEY = "plan"  # optional first field of a json_schema reply: the next step, never spoken
PLAN_MAX_CHARS = 160
NO_TOOL = "none"  # the "tool" of a say_then_tool reply that calls nothing
ToolCallMode = Literal["native", "compact", "json_schema"]
TOOL_CALL_MODES: tuple[str, ...] = ("native", "compact", "json_schema")

JSON_RESULT_INSTRUCTION = (
    "Reply with the next JSON object: another tool call if you still need one for the caller's "
    'request, otherwise {"say": ...} telling the caller the outcome in plain words.'
)


def _tool_functions(tools: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(tools, list):
        for tool in tools:
            fn = tool.get("function") if isinstance(tool, dict) else None
            if isinstance(fn, dict) and isinstance(fn.get("name"), str):
                out.append(fn)
    return out


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
    for fn in _tool_functions(tools):
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
    fns = _tool_functions(tools)
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


_MD_FENCE_BLOCK = re.compile(r"```.*?(```|$)", re.DOTALL)
_MD_INLINE = re.compile(r"`([^`]*)`")
_MD_MARKS = re.compile(r"(\*\*|__|\*|^#+\s*|^\s*[-*]\s+)", re.MULTILINE)


def spoken_text(text: str) -> str:
    """Text fit for TTS: code blocks dropped, inline code, emphasis and list/heading marks removed."""
    out = _MD_FENCE_BLOCK.sub(" ", text)
    out = _MD_INLINE.sub(r"\1", out)
    out = _MD_MARKS.sub("", out)
    return re.sub(r"[ \t]+", " ", out).strip() if out != text else text


def _json_history(messages: list[Any], instruction: str, *, say_then_tool: bool = False) -> list[Any]:
    """Tool history and assistant turns rendered in the ``{"say"}/{"tool"}`` reply format.

    With ``say_then_tool`` each assistant turn becomes one ``{"say", "tool"}`` object, the
    shape the model is asked to write (small models copy the shape they see in history).
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
            pending.append(_tool_result_line(msg, names_by_id))
            continue
        flush()
        if role == "assistant":
            parts: list[str] = []
            text = msg.get("content")
            if isinstance(text, str) and text.strip():
                parts.append(json.dumps({SAY_KEY: text.strip()}, ensure_ascii=False))
            for call in msg.get("tool_calls") or []:
                fn = call.get("function") or {}
                name = str(fn.get("name", "tool"))
                names_by_id[str(call.get("id"))] = name
                args: Any = fn.get("arguments") or "{}"
                with contextlib.suppress(json.JSONDecodeError, TypeError):
                    args = json.loads(args) if isinstance(args, str) else args
                parts.append(json.dumps({TOOL_KEY: name, "arguments": args}, ensure_ascii=False))
            if say_then_tool:
                parts = [_combined_turn(parts)]
            out.append({"role": "assistant", "content": "\n".join(parts) or json.dumps({SAY_KEY: "..."})})
            continue
        out.append(msg)
    flush()
    return out


def _combined_turn(parts: list[str]) -> str:
    """``{"say"}`` + ``{"tool"}`` lines of one assistant turn as a single ``{"say", "tool"}`` object."""
    say = ""
    calls: list[dict[str, Any]] = []
    for part in parts:
        obj = json.loads(part)
        if SAY_KEY in obj:
            say = obj[SAY_KEY]
        else:
            calls.append(obj)
    if not calls:
        return json.dumps({SAY_KEY: say or "...", TOOL_KEY: NO_TOOL}, ensure_ascii=False)
    lines = [json.dumps({SAY_KEY: say or "One moment.", **calls[0]}, ensure_ascii=False)]
    lines += [json.dumps({SAY_KEY: "One moment.", **c}, ensure_ascii=False) for c in calls[1:]]
    return "\n".join(lines)


def _tool_result_line(msg: dict[str, Any], names_by_id: dict[str, str]) -> str:
    name = names_by_id.get(str(msg.get("tool_call_id")), "tool")
    content = msg.get("content")
    if isinstance(content, str) and content.startswith('"'):
        with contextlib.suppress(json.JSONDecodeError):
            decoded = json.loads(content)
            content = decoded if isinstance(decoded, str) else content
    if not isinstance(content, str):
        content = json.dumps(content, ensure_ascii=False)
    return f"[{name} result] {content}"


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
    params: dict[str, Any],
    *,
    mode: str = "native",
    flatten: bool = False,
    max_tool_rounds: int = 3,
    plan: bool = False,
    say_then_tool: bool = False,
) -> frozenset[str]:
    """Shape an OpenAI chat request for a small local model; returns the request's tool names.

    * ``native``: tools stay in the request (the chat template renders them); with ``flatten``
      the tool history becomes plain chat turns (:func:`flatten_tool_history`).
    * ``compact``: the tools leave the request and a short :func:`compact_tool_prompt` is appended
      to the system message; history uses the ``{"say"}/{"tool"}`` format.
    * ``json_schema``: ``compact`` plus ``response_format`` constraining each reply to
      :func:`reply_json_schema` (llama.cpp turns it into a grammar). After ``max_tool_rounds``
      tool calls in a row without a new caller message only ``{"say"}`` is allowed, so a small
      model cannot loop on tool calls (pipecat re-runs the LLM after every result).
      With ``plan`` each reply starts with a short unspoken ``"plan"``; with ``say_then_tool`` a
      reply may speak and call in one object (see :func:`reply_json_schema`).

    Mutates ``params`` in place. Deterministic, so the prompt prefix is stable between turns.
    """
    names = tool_names_from_params(params)
    messages = params.get("messages")
    if mode == "native" or not names:
        if flatten and isinstance(messages, list):
            params["messages"] = flatten_tool_history(messages)
        return names
    if mode not in TOOL_CALL_MODES:
        raise ValueError(f"unknown tool_call_mode {mode!r}; expected one of {TOOL_CALL_MODES}")
    tools = params.pop("tools")
    params.pop("tool_choice", None)
    if isinstance(messages, list):
        msgs = _json_history(messages, JSON_RESULT_INSTRUCTION, say_then_tool=say_then_tool)
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
