"""The LLM caller's JSON reply ``{"customer_says": str, "end_call": bool}``: schema and parsing.

A grammar-constrained reply keeps a small local model in the caller's role (see
:mod:`voxbench.pipelines.caller.prompt`); what reaches the caller's voice must still be only
the words: :class:`SaysExtractor` decodes the ``customer_says`` string as it streams in, and
:mod:`voxbench.pipelines.caller.stream` turns a chunk stream into spoken words.

Pure (no pipecat import); JSON-in-text parsing is shared with the agent's tool-call adapter.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any

from voxbench.pipelines.caller.prompt import END_KEY, SAYS_KEY
from voxbench.pipelines.services.tool_calls import objects_from_text, spoken_text

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
    objects = objects_from_text(text)
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


def caller_turn_json(says: str, end_call: bool = False) -> str:
    """A reply in the caller format (what a well-behaved model, or a test fake, writes)."""
    return json.dumps({SAYS_KEY: says, END_KEY: end_call}, ensure_ascii=False)
