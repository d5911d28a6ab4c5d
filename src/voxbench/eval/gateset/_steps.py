"""What the injections read of a reference conversation: its lines, the caller's facts, the
agent's reply to a caller line, its questions and write calls; and the two edits they share (a
value made up in the same shape, one step replaced). Shared by the fault kinds (`caller_faults`,
`pauses`, `agent_faults`) and the asked, offered and present kinds (`asked`, `offered`, `present`)."""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from voxbench.eval.gateset.conversation import Line, RefConversation, Step
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


def writes(conv: RefConversation) -> list[int]:
    """The steps calling a write tool of the agent's: what a completion rests on."""
    kinds = {t.name: t.tool_type for t in conv.dd.agent.tools}
    return [i for i in conv.tools() if kinds.get(conv.steps[i].name) == "write"]  # type: ignore[union-attr]


def before_first_write(conv: RefConversation) -> int:
    """The first write's step (or near the end without one): faults placed before it meet an
    agent still progressing."""
    w = writes(conv)
    return w[0] if w else max(len(conv.steps) - 2, 1)


def digit_facts(conv: RefConversation) -> list[str]:
    """The caller's facts of 4+ characters holding a digit: codes and numbers whose made-up
    twin (`fabricate`) reads as one."""
    info = conv.goal.get("information_required") or {}
    vals = [str(v) for v in info.values() if isinstance(v, str | int) and not isinstance(v, bool)]
    return [v for v in vals if len(v) >= 4 and any(c.isdigit() for c in v)]


def agent_questions(conv: RefConversation, before: int) -> list[int]:
    """Agent lines asking the caller something, after the first caller line and before `before`."""
    first_user = conv.lines("user")[0]
    return [i for i in conv.lines("agent") if first_user < i < before and "?" in conv.line(i).text]


def fabricate(value: str, rng: random.Random) -> str:
    """Another value of the same shape (a digit for a digit, a capital for a letter), never
    the value itself."""
    out = [
        rng.choice(string.digits) if c.isdigit() else rng.choice(string.ascii_uppercase) if c.isalpha() else c
        for c in value
    ]
    return "".join(out) if "".join(out) != value else fabricate(value, rng)


def edit_step(conv: RefConversation, i: int, step: Step, what: str) -> Injected:
    """The conversation with step `i` replaced, the fault placed there."""
    steps = list(conv.steps)
    steps[i] = step
    return Injected(conv.copy(steps), i, what)
