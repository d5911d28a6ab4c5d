"""The judge protocol and chatter-robust JSON parsing of judge replies."""

from __future__ import annotations

import json
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel


class JudgeReply(BaseModel):
    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None
    cached: bool = False


@runtime_checkable
class Judge(Protocol):
    """Anything that turns (system, user[, audio]) into a reply. `model` names it."""

    model: str

    def complete(self, system: str, user: str, *, audio_wav: bytes | None = None) -> JudgeReply: ...


def _json_values(text: str) -> list[Any]:
    """Every JSON object/array embedded in `text` (markdown fences and chatter ignored)."""
    dec = json.JSONDecoder()
    out: list[Any] = []
    i = 0
    while i < len(text):
        if text[i] in "{[":
            try:
                val, end = dec.raw_decode(text, i)
            except json.JSONDecodeError:
                i += 1
                continue
            out.append(val)
            i = end
        else:
            i += 1
    return out


def parse_json_object(text: str, prefer_key: str = "rating") -> dict[str, Any] | None:
    """The object carrying `prefer_key` if any, else the largest object; None if none."""
    objs = [v for v in _json_values(text) if isinstance(v, dict)]
    if not objs:
        return None
    with_key = [o for o in objs if prefer_key in o]
    pool = with_key or objs
    return max(pool, key=lambda o: len(json.dumps(o)))


def parse_json_list(text: str) -> list[dict[str, Any]] | None:
    """A list of objects, or a single object wrapped, or a dict holding one list."""
    vals = _json_values(text)
    for v in vals:
        if isinstance(v, list) and all(isinstance(x, dict) for x in v):
            return v
    for v in vals:
        if isinstance(v, dict):
            for x in v.values():
                if isinstance(x, list) and x and all(isinstance(y, dict) for y in x):
                    return x
            return [v]
    return None
