"""Keep a long call inside a small model's context window: the oldest turns leave the request.

A local model's window holds the fixed part of every request (the system prompt with the
domain policy, the tool schemas, the date note) and the conversation so far. EVA's ITSM
policy and tools alone are ~7.7k tokens of Qwen's tokenizer (benchmarks/context_sizes.py);
with an 8k window the live itsm/14 call overflowed after six caller turns and llama.cpp
refused the request ("request (8243 tokens) exceeds the available context size"), which
ended the call as an infrastructure failure. A window will always be outgrown by a long
enough call, so before each completion :class:`ContextFit` counts the prompt with the
model's own tokenizer (:class:`~voxbench.localmodels.token_count.PromptTokenCounter`) and,
when it would leave less than the reply's ``max_tokens``, leaves the oldest conversation
turns out of the *request* (the pipeline's context, and so the record, keep every turn):

* the leading system messages (policy, tools prompt, date) are never left out;
* a turn is cut only whole: an assistant message with its tool calls together with their
  results (a chat template rejects a result whose call is missing), and a reply that spoke
  and then called a tool (stored as two assistant messages) stays one turn;
* the caller's latest message and everything after it (the tool rounds answering it) stay;
* once cut, the same turns stay out (the request's prefix is stable between turns, which
  keeps llama.cpp's prompt cache useful) and a trim frees ``headroom`` of the room, so the
  next trim comes several turns later rather than on every turn;
* a clear :class:`ContextOverflowError` is raised only when the fixed part (or the fixed part
  with the caller's latest turn) cannot fit at all.

Pure apart from the counter it is given: no pipecat import.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from voxbench.localmodels import LlamaServer, PromptTokenCounter

DEFAULT_REPLY_TOKENS = 512  # kept for the reply when the request sets no max_tokens

Render = Callable[[list[Any]], dict[str, Any]]
"""Raw context messages -> the request that would be sent for them (shaped as the service does)."""


class ContextOverflowError(RuntimeError):
    """Even without the conversation, a request would not fit the model's context."""


@dataclass(frozen=True)
class Fit:
    """What :meth:`ContextFit.fit` decided for one request."""

    prompt_tokens: int  # the prompt as it will be sent
    dropped: int  # conversation messages left out of it
    trimmed: bool  # this request made a new cut


class ContextFit:
    """Fits each request to ``context_tokens`` less ``reply_tokens`` by leaving old turns out."""

    def __init__(
        self,
        counter: PromptTokenCounter,
        context_tokens: int,
        reply_tokens: int,
        headroom: float = 0.2,
    ) -> None:
        if reply_tokens >= context_tokens:
            raise ValueError(f"reply_tokens {reply_tokens} leave no room in a {context_tokens}-token context")
        if not 0.0 <= headroom < 1.0:
            raise ValueError(f"headroom must be in [0, 1), got {headroom}")
        self.counter = counter
        self.context_tokens = context_tokens
        self.reply_tokens = reply_tokens
        self.headroom = headroom
        self.trims = 0  # requests that made a new cut
        self.dropped = 0  # conversation messages left out now
        self._dropped_sig = ""

    @classmethod
    def for_server(cls, server: LlamaServer, reply_tokens: int | None) -> ContextFit:
        """Fitted to one conversation's share of a running llama.cpp server, counted by it."""
        return cls(server.token_counter(), server.slot_context, reply_tokens or DEFAULT_REPLY_TOKENS)

    @property
    def limit(self) -> int:
        """The most prompt tokens a request may have: the rest is the reply's."""
        return self.context_tokens - self.reply_tokens

    def apply(self, messages: list[Any]) -> list[Any]:
        """``messages`` without the turns cut so far (none when the conversation is not the
        one they were cut from, e.g. a context that was replaced)."""
        head, convo = split_fixed(messages)
        n = self._current_cut(convo)
        return [*head, *convo[n:]] if n else list(messages)

    def _current_cut(self, convo: list[Any]) -> int:
        n = self.dropped
        return n if n and len(convo) >= n and _signature(convo[:n]) == self._dropped_sig else 0

    async def fit(self, messages: list[Any], render: Render) -> Fit:
        """Decide which turns the request for ``messages`` leaves out; :meth:`apply` then
        applies it. Raises :class:`ContextOverflowError` when nothing can make it fit."""
        head, convo = split_fixed(messages)
        start = self._current_cut(convo)
        counts: dict[int, int] = {}

        async def tokens(cut: int) -> int:
            if cut not in counts:
                counts[cut] = await self.counter.count(render([*head, *convo[cut:]]))
            return counts[cut]

        if await tokens(start) <= self.limit:
            self._keep(convo, start)
            return Fit(counts[start], start, False)
        fixed = await self.counter.count(render(list(head)))
        if fixed > self.limit:
            raise ContextOverflowError(
                f"the fixed prompt (system prompt, policy and tool schemas) is {fixed} tokens; "
                f"with {self.reply_tokens} kept for the reply the model's context of "
                f"{self.context_tokens} tokens cannot hold it: raise the LLM's n_ctx or shorten the prompt"
            )
        cuts = [c for c in cut_points(convo) if c > start]
        target = self.limit - int((self.limit - fixed) * self.headroom)
        cut = await _first_fitting(cuts, tokens, target)
        if cut is None:  # nothing reaches the target: the most that may go must fit the limit
            cut = cuts[-1] if cuts else start
            if await tokens(cut) > self.limit:
                raise ContextOverflowError(
                    f"the caller's latest turn with the fixed prompt is {counts[cut]} tokens, more "
                    f"than the {self.limit} the model's context of {self.context_tokens} leaves "
                    f"with {self.reply_tokens} for the reply: raise the LLM's n_ctx"
                )
        self._keep(convo, cut)
        self.trims += 1
        return Fit(counts[cut], cut, True)

    def _keep(self, convo: list[Any], cut: int) -> None:
        self.dropped = cut
        self._dropped_sig = _signature(convo[:cut]) if cut else ""


async def _first_fitting(cuts: list[int], tokens: Callable[[int], Any], target: int) -> int | None:
    """The smallest cut whose request is at most ``target`` tokens (binary search: more cut
    never means more tokens); None when even the last one is over."""
    if not cuts or await tokens(cuts[-1]) > target:
        return None
    lo, hi = 0, len(cuts) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if await tokens(cuts[mid]) <= target:
            hi = mid
        else:
            lo = mid + 1
    return cuts[lo]


def split_fixed(messages: list[Any]) -> tuple[list[Any], list[Any]]:
    """(leading system messages, the conversation after them)."""
    n = 0
    while n < len(messages) and _role(messages[n]) == "system":
        n += 1
    return list(messages[:n]), list(messages[n:])


def cut_points(convo: list[Any]) -> list[int]:
    """Where the conversation may start once older turns are left out, oldest first.

    Each is the start of a whole turn: never a tool result (it stays with its call), never
    the second of two assistant messages (one reply that spoke, then called), and never after
    the caller's latest message (the request answers it).
    """
    last_user = max((i for i, m in enumerate(convo) if _role(m) == "user"), default=0)
    points = []
    for i in range(1, last_user + 1):
        role, prev = _role(convo[i]), _role(convo[i - 1])
        if role == "tool" or (role == "assistant" and prev == "assistant"):
            continue
        points.append(i)
    return points


def _role(msg: Any) -> str | None:
    role = msg.get("role") if isinstance(msg, dict) else getattr(msg, "role", None)
    return role if isinstance(role, str) else None


def _signature(messages: list[Any]) -> str:
    text = json.dumps(messages, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()
