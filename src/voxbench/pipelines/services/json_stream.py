"""One streaming JSON-string decoder, shared by the agent's ``{"say"}`` replies and the caller's turns.

A grammar-constrained reply is only parseable as a whole at its end, but its words come
first: the agent's ``{"say": "...", "tool": ...}`` (services/tool_stream.py) and the LLM
caller's ``{"customer_says": "...", "end_call": ...}`` (pipelines/caller/stream.py) both
speak the string value while the rest is still being generated. :class:`JSONStringStream`
decodes that value chunk by chunk; an escape split across chunks waits for the next chunk.

Pure (no pipecat import).
"""

from __future__ import annotations

import contextlib
import re

_JSON_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
# spoken text: line breaks and tabs are a space, control characters nothing
_SPOKEN_ESCAPES = {**_JSON_ESCAPES, "b": "", "f": "", "n": " ", "r": " ", "t": " "}
_WS = " \t\r\n"


class JSONStringStream:
    """Decodes the string value of ``key`` out of JSON text that arrives in chunks.

    ``leading``: the value counts only when the object *starts* with that key (``{"say": ...``
    first), or with the string-valued key ``after`` and then that key (``{"plan": "...",
    "say": ...``: the agent's unspoken plan, whose words must never be spoken). Otherwise the
    key may come anywhere. ``spoken``: newlines and tabs in the value become spaces (they are never
    spoken). ``feed(chunk)`` returns the newly decoded characters (possibly ``""``);
    ``text`` is everything decoded so far, ``done`` is set at the closing quote (or when the
    value turns out not to be a string).
    """

    def __init__(
        self, key: str, *, leading: bool = False, spoken: bool = False, after: str | None = None
    ) -> None:
        self._needle = f'"{key}"'
        first = (r'(?:"' + re.escape(after) + r'"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*)?') if after else ""
        self._opening = (
            re.compile(r"^\s*\{\s*" + first + '"' + re.escape(key) + r'"\s*:\s*"') if leading else None
        )
        self._escapes = _SPOKEN_ESCAPES if spoken else _JSON_ESCAPES
        self._buf = ""
        self._pos = -1  # index in _buf of the next undecoded value character; -1: not found yet
        self.started = False
        self.done = False
        self.text = ""

    def feed(self, chunk: str) -> str:
        if self.done:
            return ""
        self._buf += chunk
        if self._pos < 0:
            self._find_value()
            if self._pos < 0:
                return ""
        out, self._pos = self._decode(self._pos)
        new = "".join(out)
        self.text += new
        return new

    def _find_value(self) -> None:
        if self._opening is not None:
            m = self._opening.match(self._buf)
            if m is not None:
                self._pos, self.started = m.end(), True
            return
        k = self._buf.find(self._needle)
        if k < 0:
            return
        i = self._skip_ws(k + len(self._needle))
        if i < len(self._buf) and self._buf[i] != ":":
            self._buf = self._buf[i:]  # the key text appeared as a value; keep looking
            return
        i = self._skip_ws(i + 1)
        if i < len(self._buf):
            if self._buf[i] != '"':
                self.done = True  # not a string: the whole reply is parsed at its end
                return
            self._pos, self.started = i + 1, True

    def _skip_ws(self, i: int) -> int:
        while i < len(self._buf) and self._buf[i] in _WS:
            i += 1
        return i

    def _decode(self, i: int) -> tuple[list[str], int]:
        buf, out = self._buf, list[str]()
        while i < len(buf):
            c = buf[i]
            if c == '"':
                self.done = True
                return out, i + 1
            if c != "\\":
                out.append(c)
                i += 1
                continue
            if i + 1 >= len(buf):
                break  # escape split across chunks
            if buf[i + 1] != "u":
                out.append(self._escapes.get(buf[i + 1], buf[i + 1]))
                i += 2
                continue
            size, char = _unicode_escape(buf, i)
            if size == 0:
                break  # incomplete \u escape (or surrogate pair): wait for the next chunk
            out.append(char)
            i += size
        return out, i


def _unicode_escape(buf: str, i: int) -> tuple[int, str]:
    """``(length, character)`` of the ``\\uXXXX`` escape (or surrogate pair) at ``buf[i]``; length 0: incomplete."""
    if i + 6 > len(buf):
        return 0, ""
    try:
        code = int(buf[i + 2 : i + 6], 16)
    except ValueError:
        return 6, ""  # a malformed escape is dropped
    if 0xD800 <= code < 0xDC00:  # a high surrogate: JSON writes astral characters as a pair
        rest = buf[i + 6 : i + 12]
        if len(rest) < 6 and "\\u".startswith(rest[:2]):
            return 0, ""  # the low half may still come
        if rest.startswith("\\u"):
            with contextlib.suppress(ValueError):
                low = int(rest[2:6], 16)
                if 0xDC00 <= low < 0xE000:
                    return 12, chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
    return 6, chr(code)
