"""Text fit for TTS: markdown and code that small models put into a phone reply, removed.

Pure (no pipecat import); :class:`MarkdownSpeechFilter` works on a stream of chunks,
:func:`spoken_text` on a finished line.
"""

from __future__ import annotations

import re

from openai.types.chat.chat_completion_chunk import ChatCompletionChunk, ChoiceDelta

from voxbench.pipelines.services.chunks import make_chunk

_MD_FENCE_BLOCK = re.compile(r"```.*?(```|$)", re.DOTALL)
_MD_INLINE = re.compile(r"`([^`]*)`")
_MD_MARKS = re.compile(r"(\*\*|__|\*|^#+\s*|^\s*[-*]\s+)", re.MULTILINE)


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
        return make_chunk(
            chunk,
            ChoiceDelta(role=delta.role, content=self.feed(delta.content)),
            chunk.choices[0].finish_reason,
        )


def spoken_text(text: str) -> str:
    """Text fit for TTS: code blocks dropped, inline code, emphasis and list/heading marks removed."""
    out = _MD_FENCE_BLOCK.sub(" ", text)
    out = _MD_INLINE.sub(r"\1", out)
    out = _MD_MARKS.sub("", out)
    return re.sub(r"[ \t]+", " ", out).strip() if out != text else text
