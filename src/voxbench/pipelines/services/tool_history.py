"""Tool-call history rewritten for small models that cannot read OpenAI's ``tool_calls`` turns.

Two renderings of the same history, both deterministic so a conversation's prompt prefix
stays stable between turns (prompt-cache friendly): plain chat turns
(:func:`flatten_tool_history`, native mode) and the ``{"say"}``/``{"tool"}`` reply format
(:func:`json_history`, compact and json_schema modes). Each run of ``tool`` results becomes
one *user* message ``[name result] content ...`` followed by an instruction, consecutive
caller messages become one (:func:`join_fragments`) and so do consecutive assistant messages
(:func:`merge_assistant_runs`). Pure.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from typing import Any

from voxbench.pipelines.services.tool_text import NO_TOOL, SAY_KEY, TOOL_KEY

FLATTEN_INSTRUCTION = "Now answer the caller in plain spoken English, not JSON."
JSON_RESULT_INSTRUCTION = (
    "Reply with the next JSON object: another tool call if you still need one for the caller's "
    'request, otherwise {"say": ...} telling the caller the outcome in plain words.'
)

# an assistant message -> its rewritten text, noting tool names by call id on the way
AssistantTurn = Callable[[dict[str, Any], dict[str, str]], str | None]


def _rewrite(messages: list[Any], instruction: str, assistant: AssistantTurn) -> list[Any]:
    """Tool results folded into user messages; assistant turns rewritten by ``assistant``."""
    names_by_id: dict[str, str] = {}
    out: list[Any] = []
    pending: list[str] = []

    def flush() -> None:
        if pending:
            out.append({"role": "user", "content": "\n".join([*pending, instruction])})
            pending.clear()

    caller_last = False  # out[-1] is the caller's own words (not a folded tool result)
    for msg in merge_assistant_runs(messages):
        role = msg.get("role") if isinstance(msg, dict) else None
        if role == "tool":
            pending.append(_tool_result_line(msg, names_by_id))
            continue
        flush()
        if role == "user" and isinstance(msg.get("content"), str):
            if caller_last:
                out[-1] = {**out[-1], "content": join_fragments(out[-1]["content"], msg["content"])}
            else:
                out.append({**msg, "content": join_fragments("", msg["content"])})
            caller_last = True
            continue
        caller_last = False
        text = assistant(msg, names_by_id) if role == "assistant" else None
        out.append(msg if text is None else {"role": "assistant", "content": text})
    flush()
    return out


def merge_assistant_runs(messages: list[Any]) -> list[Any]:
    """Each run of consecutive assistant messages as the one turn the model wrote.

    Pipecat's context stores one reply that spoke and called a tool as two messages: the
    spoken words (no ``tool_calls``), then the call (no content). Rendered one by one, the
    history showed the model ``{"say": "I'll look up the booking. Please hold on.", "tool":
    "none"}`` followed by ``{"say": "One moment.", "tool": "get_reservation", ...}``: its own
    "I'll do it" line paired with *no* tool. Qwen 1.5B copied that pairing in the live bb.1
    call (2026-12-04): after the booking lookup it said "Okay, I'll add one bag to the
    booking. Please hold on a moment." with tool "none" and went silent. Merged, the history
    holds what it actually replied: those words with that call.
    """
    out: list[Any] = []
    for msg in messages:
        prev: Any = out[-1] if out else None
        if _is_assistant(msg) and _is_assistant(prev):
            texts = [t for t in (prev.get("content"), msg.get("content")) if isinstance(t, str) and t.strip()]
            calls = [*(prev.get("tool_calls") or []), *(msg.get("tool_calls") or [])]
            merged: dict[str, Any] = {
                "role": "assistant",
                "content": " ".join(t.strip() for t in texts) or None,
            }
            if calls:
                merged["tool_calls"] = calls
            out[-1] = merged
        else:
            out.append(msg)
    return out


def _is_assistant(msg: Any) -> bool:
    return isinstance(msg, dict) and msg.get("role") == "assistant"


_SEGMENT_STOP = re.compile(r"(?<=\w)\.\s+(?=[a-z])")


def join_fragments(before: str, after: str) -> str:
    """The caller's words as one message, with speech-recogniser segment ends removed.

    A segmented STT transcribes each stretch of speech between short pauses on its own and
    ends each with a full stop, so "The confirmation code is QX7T4M." arrives as "The
    confirmation code." + "is QX7T4M.", and a turn the caller resumed after the agent's turn
    detector fired arrives as a second user message with no agent reply between. Measured
    on Qwen2.5-Coder-1.5B (bb.1, live run 2026-12-04): given the three fragments of one answer
    as three user messages it repeated its previous question; given one message with the
    stray stop it said "I'll look up the booking" and called nothing; given the joined
    sentence it called ``get_reservation`` with the right code and name. A full stop followed
    by a lower-case word is never a sentence end in the recogniser's output, so it goes.
    """
    text = f"{before.rstrip()} {after.strip()}".strip() if before else after.strip()
    return _SEGMENT_STOP.sub(" ", text)


def flatten_tool_history(messages: list[Any], *, instruction: str = FLATTEN_INSTRUCTION) -> list[Any]:
    """Rewrite OpenAI tool-call history into plain chat turns, for models that cannot read it.

    Qwen2.5-Coder-0.5B, shown its own ``tool_calls`` message followed by a ``tool`` result, tends to
    repeat the call (or echo the result as JSON) instead of answering. With the history
    rewritten as an assistant line plus a *user* message carrying the result it answers in
    prose.

    * assistant message with ``tool_calls`` -> assistant text (its own content, or a neutral line);
    * each run of ``tool`` messages -> one user message ``[name result] content ...`` + instruction.
    """

    def plain(msg: dict[str, Any], names_by_id: dict[str, str]) -> str | None:
        if not msg.get("tool_calls"):
            return None  # kept as it is
        for call in msg["tool_calls"]:
            fn = call.get("function") or {}
            names_by_id[str(call.get("id"))] = str(fn.get("name", "tool"))
        text = msg.get("content")
        return text if isinstance(text, str) and text else "One moment."

    return _rewrite(messages, instruction, plain)


def json_history(messages: list[Any], instruction: str, *, say_then_tool: bool = False) -> list[Any]:
    """Tool history and assistant turns rendered in the ``{"say"}/{"tool"}`` reply format.

    With ``say_then_tool`` each assistant turn becomes one ``{"say", "tool"}`` object, the
    shape the model is asked to write (small models copy the shape they see in history).
    """

    def as_json(msg: dict[str, Any], names_by_id: dict[str, str]) -> str:
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
        return "\n".join(parts) or json.dumps({SAY_KEY: "..."})

    return _rewrite(messages, instruction, as_json)


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
            decoded = json.loads(content)  # pipecat JSON-encodes string results
            content = decoded if isinstance(decoded, str) else content
    if not isinstance(content, str):
        content = json.dumps(content, ensure_ascii=False)
    return f"[{name} result] {content}"
