"""From the LLM caller's JSON reply stream to spoken words, with the two guards a small model needs.

:class:`CallerTurnStream` rewrites an OpenAI chat-completions chunk stream:

* the characters of the ``customer_says`` string are streamed as plain ``content`` as soon as
  they arrive (the caller's TTS starts on the first sentence, no wait for the closing brace);
* ``"end_call": true`` becomes a synthetic ``end_call`` tool call after the words, so the
  simulator's one ``end_call`` handler serves both reply formats;
* a reply that is not JSON at all (an endpoint that ignored ``response_format``) is spoken as
  it is, so a misconfigured cloud model degrades to the plain-text caller instead of silence;
* **echoes**: a reply that repeats the agent (a sentence of it nearly one of the agent's:
  :func:`is_echo`) is asked for again once, with a cue reminding the model that it is the customer (``retry``); a second
  echo is replaced by ``echo_fallback`` ("Sorry, I'm not sure what you mean.");
* **loops**: instead of saying a line a third time the caller gives up (:class:`GiveUp`).

Words that may still turn out to be an echo or a worn-out line are held back (the whole
reply while an echo is possible, otherwise until they differ from every worn-out line:
:class:`HoldGuard`), so neither ever reaches the caller's voice. Pure (no pipecat).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from openai.types.chat.chat_completion_chunk import ChatCompletionChunk, ChoiceDelta

from voxbench.pipelines.caller.turn_json import END_CALL, CallerTurn, SaysExtractor, parse_caller_turn
from voxbench.pipelines.services.chunks import make_chunk, tool_call_chunks
from voxbench.pipelines.services.tool_text import ParsedToolCall

ECHO_MIN_WORDS = 3  # "Okay." or "Thank you." back to the agent is not an echo
ECHO_SHARE = 0.85  # of a reply sentence's words found in one agent sentence
ECHO_FALLBACK = "Sorry, I'm not sure what you mean."


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


def worn_lines(said_before: Sequence[str], max_says: int) -> list[str]:
    """The caller's earlier lines (normalised) it has already said ``max_says`` times."""
    counts = Counter(n for n in (_norm(s) for s in said_before) if n)
    return [line for line, k in counts.items() if k >= max_says]


def _sentences(text: str) -> list[list[str]]:
    parts = (_norm(p).split() for p in re.split(r"(?<=[.!?])\s+", text))
    return [p for p in parts if len(p) >= ECHO_MIN_WORDS]


def is_echo(says: str, agent_turn: str) -> bool:
    """Whether a reply repeats the agent: a sentence of it is (nearly) one of the agent's.

    Measured live: "I see, I'll add one check bag to my flight. What's the flight number?" to
    the agent's "Okay, I'll add one checked bag to your flight. What's the flight number?". A
    sentence counts when at least ``ECHO_SHARE`` of its words (``ECHO_MIN_WORDS`` or more) are
    in one agent sentence: confirming an offer ("Yes, I'd like a window seat." to "You'd like a
    window seat, right?", 4 of 6) is not an echo.
    """
    theirs = [set(s) for s in _sentences(agent_turn)]
    for mine in _sentences(says):
        if any(sum(w in t for w in mine) >= ECHO_SHARE * len(mine) for t in theirs):
            return True
    return False


class HoldGuard:
    """Holds streamed words while they may still turn out to be one of ``lines`` (normalised).

    With ``hold_all`` every word is held until the reply is complete: whether a reply echoes
    the agent shows only in the whole sentence. That costs little, since the caller's TTS
    waits for a sentence's end anyway; it delays a second sentence by its generation time.
    """

    def __init__(self, lines: Sequence[str], hold_all: bool = False) -> None:
        self._lines = list(lines)
        self._hold_all = hold_all
        self._text = ""
        self._held = ""
        self.clear = not self._lines and not hold_all  # nothing to fear: stream straight through

    def feed(self, new: str) -> str:
        """Words to speak now ("" while they could still be one of the lines)."""
        if self.clear:
            return new
        if self._hold_all:
            self._held += new
            return ""
        self._text += new
        self._held += new
        head = _norm(self._text)
        if any(line.startswith(head) for line in self._lines):
            return ""
        self.clear = True
        out, self._held = self._held, ""
        return out

    def release(self) -> str:
        out, self._held = self._held, ""
        return out


def _chunk(template: ChatCompletionChunk | None, content: str) -> ChatCompletionChunk:
    return make_chunk(template, ChoiceDelta(role="assistant", content=content))


class CallerTurnStream:
    """Wraps an ``AsyncStream[ChatCompletionChunk]``: JSON caller turns in, spoken words (+ end_call) out.

    Exposes ``__aiter__`` and ``close()`` like the OpenAI SDK stream, which is all pipecat
    uses. ``said_before`` are the caller's earlier lines and ``give_up`` its loop rule;
    ``agent_turn`` is what the agent has said (the live service passes all of it) and ``retry``
    fetches a second reply (with a stronger cue) when the first one echoed it; a second echo becomes ``echo_fallback``
    (or the give-up line once that is worn out too). After iteration, ``turn`` is the spoken reply
    (``None`` for prose), ``raw`` the model's last text, ``echoed`` / ``gave_up`` say whether a
    guard stepped in and ``unspoken`` lists the replies it kept from the caller's voice.
    """

    def __init__(
        self,
        stream: Any,
        end_call_name: str = END_CALL,
        said_before: Sequence[str] = (),
        give_up: GiveUp | None = None,
        on_done: Callable[[CallerTurnStream], None] | None = None,
        agent_turn: str = "",
        retry: Callable[[], Awaitable[Any]] | None = None,
        echo_fallback: str = ECHO_FALLBACK,
    ) -> None:
        self._streams = [stream]
        self._on_done = on_done
        self._end_call = end_call_name
        self._give_up = give_up
        self._worn = worn_lines(said_before, give_up.max_says) if give_up else []
        self._agent_turn = agent_turn if retry is not None and _sentences(agent_turn) else ""
        self._retry = retry
        self._echo_fallback = echo_fallback
        self.turn: CallerTurn | None = None
        self.gave_up = False
        self.echoed = False
        self.unspoken: list[dict[str, str]] = []  # model replies a guard kept from the caller's voice
        self.raw = ""

    def __aiter__(self) -> AsyncIterator[ChatCompletionChunk]:
        return self._iterate()

    async def close(self) -> None:
        for stream in self._streams:
            closer = getattr(stream, "close", None) or getattr(stream, "aclose", None)
            if closer is not None:
                await closer()

    async def _iterate(self) -> AsyncIterator[ChatCompletionChunk]:
        async for chunk in self._consume(self._streams[0], self._retry):
            yield chunk
        if self._on_done is not None:
            self._on_done(self)

    async def _consume(
        self, stream: Any, retry: Callable[[], Awaitable[Any]] | None
    ) -> AsyncIterator[ChatCompletionChunk]:
        guard = HoldGuard(self._worn, hold_all=bool(self._agent_turn))
        says = SaysExtractor()
        prose: bool | None = None  # None: undecided until the first non-blank character
        template: ChatCompletionChunk | None = None
        self.raw = ""
        async for chunk in stream:
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
            new = guard.feed(says.feed(delta.content))
            if new:
                yield _chunk(chunk, new)
        if prose:
            return
        turn = parse_caller_turn(self.raw)
        replaced = False  # held words of the reply are dropped and another line is said whole
        if turn is not None and self._agent_turn and is_echo(turn.says, self._agent_turn):
            self.echoed = True
            self.unspoken.append({"why": "echo", "text": turn.says})
            if retry is not None:
                self._streams.append(again := await retry())
                async for chunk in self._consume(again, None):
                    yield chunk
                return
            turn, replaced = CallerTurn(self._echo_fallback, end_call=turn.end_call), True
        if turn is not None and self._give_up is not None and _norm(turn.says) in self._worn:
            self.gave_up = True
            self.unspoken.append({"why": "repeat", "text": turn.says})
            turn, replaced = CallerTurn(self._give_up.line, end_call=True), True
        if turn is not None and replaced:
            yield _chunk(template, turn.says)
        else:
            if held := guard.release():  # a strict prefix of a guarded line, or a cut-off reply
                yield _chunk(template, held)
            if turn is not None and turn.says and not says.started:  # keys out of order
                yield _chunk(template, turn.says)
        self.turn = turn
        if turn is not None and turn.end_call:
            for c in tool_call_chunks([ParsedToolCall(self._end_call, {"reason": "goodbye"})], template):
                yield c
