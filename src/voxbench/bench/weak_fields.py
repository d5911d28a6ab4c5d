"""Weak-agent turns of one class, ``two_fields_asked``: two of the caller's own facts asked in one
turn, each by its label ("What are the application name and the phone last four?", "What is your
meeting date and your first name?"), templates in ``bench/lang/weak_<lang>.json`` filled with one
scenario's own facts, as :mod:`.weak_turns` does for the other classes. Expected: both facts, and
no other of the caller's facts: not a name's other part, a date's time, a step's or a limit's
others (live: "What are the application name and the phone last four?" answered with the
caller's full name too).

A last name asked may be said with the first, a name said whole, as EVA's reference callers do
('Confirmation number K U T six two nine. Last name Johansson. First name Clara, if you need it.').
The facts a reply cannot say the two values without (one held inside the other: the phone's last
four in the phone number, a route's ends in the route) are no fault: *must not* leaves out those
the bench's matcher finds in the two values said alone.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voxbench.bench.matcher import facts_said, goal_facts
from voxbench.bench.weak_facts import Leaf, label, said
from voxbench.bench.weak_item import digest

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder

_KINDS = ("code", "name", "number", "date", "time", "capitals")
"""Kinds of a fact asked by its label (a free-text one is asked in other words: ``two_part_asked``)."""


def askable(b: Builder) -> list[Leaf]:
    """The caller's own facts of a value kind, not a field of a listed record ('original travel
    details 0 origin'), whose value and label no other fact shares: asked by its label, one fact."""
    return [f for f in b.own if f.kind in _KINDS and not any(p.isdigit() for p in f.key.split("."))
            and all(o.value != f.value and o.words != f.words for o in b.facts if o.key != f.key)]  # fmt: skip


def _within(b: Builder, *asked: Leaf) -> set[str]:
    """Facts whose value is part of an asked one's ('4821' of '617-555-4821'), or a count of a digit
    or two, which any number said in words holds ('six' in an OTP code read out)."""
    flat = [re.sub(r"[^a-z0-9]", "", a.value.lower()) for a in asked]
    out = set()
    for o in b.facts:
        v = re.sub(r"[^a-z0-9]", "", o.value.lower())
        if v and (any(v in x for x in flat) or (v.isdigit() and len(v) <= 2)):
            out.add(o.key)
    return out


def two_fields(b: Builder) -> None:
    """The class's items of one scenario: pairs with no label word in common."""
    facts = goal_facts(b.scenario.user_goal.information_required)
    own = askable(b)
    pairs = [(f, g) for f in own for g in own if f.key < g.key and not set(f.words) & set(g.words)]
    for f, g in b.pick(pairs, lambda p: f"two_fields/{p[0].key}/{p[1].key}"):
        flip = int(digest(b.sid, f.key, g.key)[:2], 16) % 2
        first, second = (g, f) if flip else (f, g)  # either may come first
        turn = b.template("two_fields_asked", first.key + second.key)
        turn = turn.format(a=label(first), b=label(second))
        inside = set(facts_said(f"{said(f.value)}. {said(g.value)}.", facts)) | _within(b, f, g)
        whole = [[w if w != "last" else "first" for w in x.words] for x in (f, g) if "name" in x.words]
        others = [o.key for o in b.facts
                  if o.key not in (f.key, g.key) and o.key not in inside and o.words not in whole]  # fmt: skip
        b.add("two_fields_asked", turn, [first.key, second.key], must_not=others)
