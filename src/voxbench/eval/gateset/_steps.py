"""What the injections read of a reference conversation: its lines, the caller's facts, the
agent's reply to a caller line. Shared by the fault kinds (`faults`) and the asked-attribute
kinds (`asked`)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from voxbench.eval.gateset.conversation import Line, RefConversation
from voxbench.eval.offline._caller_facts import field_words


@dataclass(frozen=True)
class Injected:
    """The faulty conversation and where the fault sits (for the label)."""

    conv: RefConversation
    step: int
    what: str


Injector = Callable[[RefConversation, random.Random], Injected | None]
Party = Literal["caller", "agent", "none"]
"""Who spoiled the record; "none" for a clean variant (a control: it must pass the gate)."""


def mid_caller_lines(conv: RefConversation) -> list[int]:
    lines = conv.lines("user")
    return lines[1:-1] or lines


def given_facts(conv: RefConversation) -> dict[str, str]:
    """The caller's facts that can be said (`information_required` scalars of 3+ characters)."""
    info = conv.goal.get("information_required") or {}
    return {
        k: str(v) for k, v in info.items()
        if isinstance(v, str | int) and not isinstance(v, bool) and len(str(v)) >= 3
    }  # fmt: skip


def held_words(conv: RefConversation) -> set[str]:
    """Every word of the caller's field names (an attribute asked must be none of them)."""
    return set().union(*(field_words(k) for k in (conv.goal.get("information_required") or {})))


def owner_words(name: str) -> list[str]:
    """The words of a field name before its last one (the thing: 'laptop' of `laptop_size`)."""
    parts = [w for w in re.split(r"[^a-z0-9]+", name.lower()) if w]
    return sorted({w for w in parts[:-1] if w in field_words(name)})


def insert_exchange(
    conv: RefConversation, rng: random.Random, lines: list[Line], what: str
) -> Injected | None:
    """`lines` (the agent's, the caller's reply, ...) after a mid-call caller line the agent
    answered, drawn by `rng`; the fault's step is the first of them."""
    cands = [i for i in mid_caller_lines(conv) if reply_to(conv, i) is not None]
    if not cands:
        return None
    i = rng.choice(cands)
    return Injected(conv.copy([*conv.steps[: i + 1], *lines, *conv.steps[i + 1 :]]), i + 1, what)


def reply_to(conv: RefConversation, i: int) -> int | None:
    """The agent's first line after caller line `i`, before the caller's next (tool calls
    between them stay where they are)."""
    for j in range(i + 1, len(conv.steps)):
        s = conv.steps[j]
        if isinstance(s, Line):
            return j if s.who == "agent" else None
    return None
