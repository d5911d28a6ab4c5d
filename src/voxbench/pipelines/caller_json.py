"""The LLM caller's JSON reply ``{"customer_says": str, "end_call": bool}``: schema, parsing, streaming.

A grammar-constrained reply keeps a small local model in the caller's role (see
:mod:`voxbench.pipelines.caller_prompt`); what reaches the caller's voice must still be only
the words. :class:`CallerTurnStream` rewrites an OpenAI chat-completions chunk stream:

* the characters of the ``customer_says`` string are streamed as plain ``content`` as soon as
  they arrive (the caller's TTS starts on the first sentence, no wait for the closing brace);
* ``"end_call": true`` becomes a synthetic ``end_call`` tool call after the words, so the
  simulator's one ``end_call`` handler serves both reply formats;
* a reply that is not JSON at all (an endpoint that ignored ``response_format``) is spoken as
  it is, so a misconfigured cloud model degrades to the plain-text caller instead of silence.

Pure (no pipecat import); JSON-in-text parsing is shared with the agent's tool-call adapter.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from openai.types.chat.chat_completion_chunk import ChatCompletionChunk, Choice, ChoiceDelta

from voxbench.pipelines.caller_prompt import END_KEY, SAYS_KEY
from voxbench.pipelines.services.tool_calls import (
    ParsedToolCall,
    _objects_from_text,
    spoken_text,
    tool_call_chunks,
)

END_CALL = "end_call"

CALLER_TURN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {SAYS_KEY: {"type": "string"}, END_KEY: {"type": "boolean"}},
    "required": [SAYS_KEY, END_KEY],
    "additionalProperties": False,
}


def caller_response_format() -> dict[str, Any]:
    """OpenAI ``response_format`` for one caller turn (llama.cpp compiles it into a grammar).

    ``strict`` and property order (words first) let OpenAI-style endpoints enforce it too and
    let the words stream before the ``end_call`` flag is decided.
    """
    return {
        "type": "json_schema",
        "json_schema": {"name": "caller_turn", "schema": CALLER_TURN_SCHEMA, "strict": True},
    }


@dataclass(frozen=True)
class CallerTurn:
    says: str
    end_call: bool = False


def _as_bool(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() == "true"
    return bool(value)


def parse_caller_turn(text: str) -> CallerTurn | None:
    """The caller turn in ``text`` (a JSON object, fenced or not), else ``None``."""
    objects = _objects_from_text(text)
    if len(objects) != 1 or not isinstance(objects[0], dict):
        return None
    obj = objects[0]
    says = obj.get(SAYS_KEY)
    if not isinstance(says, str):
        return None
    return CallerTurn(says=spoken_text(says.strip()), end_call=_as_bool(obj.get(END_KEY, False)))


_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "", "f": "", "n": " ", "r": " ", "t": " "}


class SaysExtractor:
    """Incrementally decodes the ``customer_says`` string value out of streamed JSON text.

    ``feed`` returns the newly decoded characters (possibly ``""``); an escape split across
    chunks is held until it is complete. Newlines and tabs inside the value become spaces
    (they are never spoken).
    """

    def __init__(self, key: str = SAYS_KEY) -> None:
        self._needle = f'"{key}"'
        self._buf = ""
        self._pos = -1  # index in _buf of the next undecoded value character; -1: not found yet
        self.started = False
        self.done = False
        self.text = ""

    def _find_value(self) -> None:
        k = self._buf.find(self._needle)
        if k < 0:
            return
        i = k + len(self._needle)
        while i < len(self._buf) and self._buf[i] in " \t\r\n":
            i += 1
        if i < len(self._buf) and self._buf[i] != ":":
            self._buf = self._buf[i:]  # the key text appeared as a value; keep looking
            return
        i += 1
        while i < len(self._buf) and self._buf[i] in " \t\r\n":
            i += 1
        if i < len(self._buf):
            if self._buf[i] != '"':
                self.done = True  # not a string: parse_caller_turn decides at the end
                return
            self._pos = i + 1
            self.started = True

    def feed(self, chunk: str) -> str:
        if self.done:
            return ""
        self._buf += chunk
        if self._pos < 0:
            self._find_value()
            if self._pos < 0:
                return ""
        out: list[str] = []
        i = self._pos
        while i < len(self._buf):
            c = self._buf[i]
            if c == '"':
                self.done = True
                i += 1
                break
            if c != "\\":
                out.append(c)
                i += 1
                continue
            if i + 1 >= len(self._buf):
                break  # escape split across chunks
            e = self._buf[i + 1]
            if e == "u":
                if i + 6 > len(self._buf):
                    break
                with contextlib.suppress(ValueError):  # a malformed escape is dropped
                    out.append(chr(int(self._buf[i + 2 : i + 6], 16)))
                i += 6
                continue
            out.append(_ESCAPES.get(e, e))
            i += 2
        self._pos = i
        new = "".join(out)
        self.text += new
        return new


def _chunk(template: ChatCompletionChunk | None, content: str) -> ChatCompletionChunk:
    return ChatCompletionChunk(
        id=template.id if template else "voxbench-caller",
        created=template.created if template else 0,
        model=template.model if template else "",
        object="chat.completion.chunk",
        choices=[Choice(index=0, delta=ChoiceDelta(role="assistant", content=content), finish_reason=None)],
    )


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9 ]+", "", text.lower()).split())


@dataclass(frozen=True)
class GiveUp:
    """The caller's way out of a loop: instead of saying a line for the ``max_says + 1``-th time,
    it says ``line`` and hangs up.

    Small models at temperature 0 repeat themselves when the agent does (measured: Qwen 1.5B
    said "I'll use the JSON object you provided." six times to an agent that kept thanking it,
    benchmarks/caller_text_bench.py --script unhelpful), and the call would run to its time
    limit. A person would give up; so does the simulator, deterministically.
    """

    line: str = "Sorry, this isn't getting anywhere. I'll call back later. Goodbye."
    max_says: int = 2


class RepeatGuard:
    """Holds streamed words while they may still turn out to be a line said too often already."""

    def __init__(self, said_before: Sequence[str], max_says: int) -> None:
        counts = Counter(_norm(s) for s in said_before if _norm(s))
        self._worn = [line for line, n in counts.items() if n >= max_says]
        self._text = ""
        self._held = ""
        self.clear = not self._worn  # nothing to fear: stream straight through

    def feed(self, new: str) -> str:
        """Words to speak now ("" while they could still be a worn-out line)."""
        if self.clear:
            return new
        self._text += new
        self._held += new
        head = _norm(self._text)
        if any(line.startswith(head) for line in self._worn):
            return ""
        self.clear = True
        out, self._held = self._held, ""
        return out

    def repeats(self, says: str) -> bool:
        return not self.clear and _norm(says) in self._worn

    def release(self) -> str:
        out, self._held = self._held, ""
        return out


class CallerTurnStream:
    """Wraps an ``AsyncStream[ChatCompletionChunk]``: JSON caller turns in, spoken words (+ end_call) out.

    Exposes ``__aiter__`` and ``close()`` like the OpenAI SDK stream, which is all pipecat
    uses. After iteration, ``turn`` is the parsed reply (or ``None`` for plain prose) and
    ``raw`` the model's text. With ``give_up``, a reply repeating one of ``said_before`` (the
    caller's earlier lines) more than ``give_up.max_says`` times is replaced by the give-up line
    and ``end_call`` (``gave_up`` is then True); words that may turn out to be such a repeat are
    held back until they differ.
    """

    def __init__(
        self,
        stream: Any,
        end_call_name: str = END_CALL,
        said_before: Sequence[str] = (),
        give_up: GiveUp | None = None,
        on_done: Callable[[CallerTurnStream], None] | None = None,
    ) -> None:
        self._stream = stream
        self._on_done = on_done
        self._end_call = end_call_name
        self._give_up = give_up
        self._guard = RepeatGuard(said_before, give_up.max_says if give_up else 0)
        if give_up is None:
            self._guard.clear = True
        self.turn: CallerTurn | None = None
        self.gave_up = False
        self.raw = ""

    def __aiter__(self) -> AsyncIterator[ChatCompletionChunk]:
        return self._iterate()

    async def close(self) -> None:
        closer = getattr(self._stream, "close", None) or getattr(self._stream, "aclose", None)
        if closer is not None:
            await closer()

    async def _iterate(self) -> AsyncIterator[ChatCompletionChunk]:
        says = SaysExtractor()
        prose: bool | None = None  # None: undecided until the first non-blank character
        template: ChatCompletionChunk | None = None
        async for chunk in self._stream:
            template = template or chunk
            delta = chunk.choices[0].delta if chunk.choices else None
            if delta is None or not delta.content:
                if delta is None or not delta.tool_calls:  # usage, finish reason; never native calls
                    yield chunk
                continue
            self.raw += delta.content
            if prose is None and self.raw.strip():
                prose = self.raw.lstrip()[0] not in "{`"
                if prose:
                    yield _chunk(chunk, self.raw.lstrip())
                    continue
            if prose:
                yield chunk
                continue
            new = self._guard.feed(says.feed(delta.content))
            if new:
                yield _chunk(chunk, new)
        if prose:
            if self._on_done is not None:
                self._on_done(self)
            return
        self.turn = parse_caller_turn(self.raw)
        if self.turn is not None and self._give_up is not None and self._guard.repeats(self.turn.says):
            self.gave_up = True
            self.turn = CallerTurn(self._give_up.line, end_call=True)
            yield _chunk(template, self.turn.says)
        else:
            if held := self._guard.release():  # a strict prefix of a worn-out line (or cut off)
                yield _chunk(template, held)
            if self.turn is not None and self.turn.says and not says.started:  # keys out of order
                yield _chunk(template, self.turn.says)
        if self.turn is not None and self.turn.end_call:
            for c in tool_call_chunks([ParsedToolCall(self._end_call, {"reason": "goodbye"})], template):
                yield c
        if self._on_done is not None:
            self._on_done(self)


def caller_turn_json(says: str, end_call: bool = False) -> str:
    """A reply in the caller format (what a well-behaved model, or a test fake, writes)."""
    return json.dumps({SAYS_KEY: says, END_KEY: end_call}, ensure_ascii=False)
