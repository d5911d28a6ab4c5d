"""Weak-agent turns asking, by a confirm or verify verb, for a field the caller holds as a wish or
a limit (:mod:`.weak_turns`), from each scenario's own facts:

* ``confirm_wish``: "Please confirm your departure time." where one of its facts for that field is
  what it wants or a bound it sets (a key with a want word, ``want_words``, or a limit word,
  ``wish_limits``: 'preferred_departure_time', 'latest_acceptable_arrival_time'); the field is
  the rest of the key's words less those of a state ('original', 'new'), a time or a date.
  Where it holds the booking's value of the field too (a fact, no wish, with every word of it:
  'original_travel_details.0.departure_time'), one only, that is the fact the reply must say;
  where it holds none, the wish. Expected (act ``wish_framed``): no hang-up, and the wish, if
  said, said as what it is: its sentence has a word of a wish or a limit (``wish_marks``: 'like',
  'prefer', 'latest', 'after', ...), never "It's 8:15 AM." as if the booking's value.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voxbench.bench.matcher import GoalFact, facts_said
from voxbench.bench.reference import BYE
from voxbench.spoken import sentences_of

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder, WeakItem

ACTS = ("wish_framed",)
_STATES = {"original", "current", "new", "old", "previous", "existing"}


def _key(key: str) -> set[str]:
    return set(re.split(r"[^a-z]+", key.lower()))


def confirm_wishes(b: Builder) -> None:
    """The class's items of one scenario (see the module docstring)."""
    wish = set(b.t.want_words) | set(b.t.wish_limits)
    if not b.t.wish_limits:
        return
    for f in b.pick([f for f in b.own if _key(f.key) & wish], lambda f: f"wish/{f.key}"):
        field = [w for w in f.words if w not in wish | _STATES]
        if len(field) < 2 or field[-1] not in ("time", "date"):
            continue
        now = [o for o in b.own if o is not f and not _key(o.key) & wish and set(field) <= set(o.words)]
        if len(now) > 1:
            continue
        must = [now[0].key] if now else [f.key]
        for t in b.pick(b.t.classes["confirm_wish"].templates, lambda t, k=f.key: f"{k}/{t}")[:2]:
            b.add("confirm_wish", t.format(field=" ".join(field)), must)
            b.items[-1].framed = [f.key]


def problem(item: WeakItem, reply: str, ends_call: bool, facts: list[GoalFact], marks: list[str]) -> str:
    """Why the reply is not the act expected ('' when it is); the facts it must say are checked by
    the grader."""
    if ends_call or BYE.search(reply):
        return "hung up"
    mark = re.compile(r"\b(?:" + "|".join(re.escape(m) for m in marks) + r")\b", re.I)
    for s in sentences_of(reply):
        bare = [k for k in facts_said(s, facts) if k in item.framed and not mark.search(s)]
        if bare:
            return f"a wish said as the booking's value: {bare[0]} in {s!r}"
    return ""
