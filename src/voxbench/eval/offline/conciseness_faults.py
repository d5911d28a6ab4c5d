"""A tool response read out: the conciseness fault the record shows and turn counts cannot.

The fitted counts of `conciseness.py` learn what EVA's human labels hold (long turns, many
numbers, options, explanations). The labels carry no tool responses, so no weight could be
fitted for an agent reading a whole lookup result to the caller; it is read from the record
instead. EVA's rubric allows "a reference number, date, and one or two key details" at once;
a turn that says more than `READ_OUT_MAX` distinct values of one of its tool responses,
values the caller said (in this turn or before) and fields it named in this turn not counted, and a
value inside another one said counted with it (what was asked for is no
excess), has `excess_information_density`, a significant mode: rated 1.

Values are matched as words (a value's letters and digits, in order, as whole words of the
turn), so a value the agent paraphrases or speaks in another form is not counted: the count
is a floor, and a turn it misses is left to the counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline._trace import as_dict

READ_OUT_MAX = 5
"""Values of one tool response a turn may say: EVA's "reference number, date, and one or two
key details", plus one."""

_WORD = re.compile(r"[a-z0-9']+")
_SHORT_KEY = 3
"""A field-name word of this length or less ('id', 'the', 'no') says too little to mean the
caller named the field."""


@dataclass
class TurnView:
    """One agent turn: what the agent said, what the caller said before it, and the responses
    of the tools called in it."""

    text: str = ""
    caller: str = ""
    responses: list[dict[str, Any]] = field(default_factory=list)
    heard: str = ""
    """Everything the caller said up to this turn: a value it gave earlier is no excess either."""
    calls: list[str] = field(default_factory=list)
    """The names of the tools called in the turn."""


def turn_views(ctx: ConversationContext) -> dict[int, TurnView]:
    """{turn_id: TurnView} of the turns where the agent spoke, in order."""
    views: dict[int, TurnView] = {}
    spoke: set[int] = set()
    for e in ctx.conversation_trace:
        t, role, typ = e.get("turn_id"), e.get("role"), e.get("type")
        if not isinstance(t, int):
            continue
        v = views.setdefault(t, TurnView())
        if role == "user":
            v.caller = " ".join(x for x in (v.caller, str(e.get("content", ""))) if x)
        elif role == "assistant":
            spoke.add(t)
            v.text = " ".join(x for x in (v.text, str(e.get("content", ""))) if x)
        elif typ == "tool_call":
            v.calls.append(str(e.get("tool_name", "")))
        elif typ == "tool_response":
            v.responses.append(as_dict(e.get("tool_response")))
    heard = ""
    for _, v in sorted(views.items()):
        heard = v.heard = " ".join(x for x in (heard, v.caller) if x)
    return {t: v for t, v in sorted(views.items()) if t in spoke}


def _words(text: str) -> list[str]:
    return _WORD.findall(strip_tags(text).lower().replace("\u2019", "'"))


@lru_cache(maxsize=4096)
def _value_words(value: str) -> str:
    return " ".join(_words(value))


def _leaves(x: Any, key: str = "") -> list[tuple[str, Any]]:
    """The scalar values of a tool response with the field each sits under."""
    if isinstance(x, dict):
        return [leaf for k, v in x.items() for leaf in _leaves(v, str(k))]
    if isinstance(x, list):
        return [leaf for v in x for leaf in _leaves(v, key)]
    return [] if x is None or x == "" or isinstance(x, bool) else [(key, x)]


def read_out(v: TurnView) -> int:
    """The most distinct values of one of this turn's tool responses said in it, values the
    caller said and values under a field the caller named not counted."""
    if not v.responses:
        return 0
    said = f" {' '.join(_words(v.text))} "
    given = f" {' '.join(_words(v.heard or v.caller))} "
    asked = f" {' '.join(_words(v.caller))} "
    best = 0
    for resp in v.responses:
        got = set()
        for key, value in _leaves(resp):
            w = _value_words(str(value))
            if len(w) < 2 or f" {w} " not in said or f" {w} " in given:
                continue
            if any(len(k) > _SHORT_KEY and f" {k} " in asked for k in key.lower().split("_")):
                continue
            got.add(w)
        best = max(best, len(_outermost(got)))
    return best


def _outermost(values: set[str]) -> set[str]:
    """The values not inside another one said: 'Olivia Tanaka' with its `first_name` and
    `last_name` is one value read out, not three."""
    return {w for w in values if not any(w != o and f" {w} " in f" {o} " for o in values)}
