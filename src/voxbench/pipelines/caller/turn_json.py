"""The LLM caller's JSON reply ``{"customer_says": str, "end_call": bool}``: schema and parsing.

A grammar-constrained reply keeps a small local model in the caller's role (see
:mod:`voxbench.pipelines.caller.prompt`); what reaches the caller's voice must still be only
the words: :class:`SaysExtractor` decodes the ``customer_says`` string as it streams in, and
:mod:`voxbench.pipelines.caller.stream` turns a chunk stream into spoken words.

Pure (no pipecat import); JSON-in-text parsing is shared with the agent's tool-call adapter.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from voxbench.pipelines.caller.prompt import END_KEY, SAYS_KEY
from voxbench.pipelines.services.json_stream import JSONStringStream
from voxbench.pipelines.services.speech_text import spoken_text
from voxbench.pipelines.services.tool_text import objects_from_text

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


class SaysExtractor(JSONStringStream):
    """Incrementally decodes the ``customer_says`` string value out of streamed JSON text.

    The shared decoder (:class:`~voxbench.pipelines.services.json_stream.JSONStringStream`) with
    the key found anywhere in the object and spoken escapes: newlines and tabs inside the value
    become spaces (they are never spoken).
    """

    def __init__(self, key: str = SAYS_KEY) -> None:
        super().__init__(key, spoken=True)


def caller_turn_json(says: str, end_call: bool = False) -> str:
    """A reply in the caller format (what a well-behaved model, or a test fake, writes)."""
    return json.dumps({SAYS_KEY: says, END_KEY: end_call}, ensure_ascii=False)
