"""Weak-agent turns of four classes read in live calls of the goal caller against a real agent,
templates per class (``bench/lang/weak_<lang>.json``) filled with one scenario's own facts, as
:mod:`.weak_turns` does for the other classes:

* ``two_part_asked``: a free-text fact and a date asked in one turn ("Could you give me the details
  of the leave reason you need, and the start date?"); expected: both (live, medical_hr: the date
  alone);
* ``readback_both_asked``: two facts the caller gave read back, then asked for again together
  ("I have confirmation code Z K 3 F F W and last name Lima. Can I get your confirmation code and
  last name again?"); expected: both again, though the turn says them (live: the name alone);
* ``thing_label``: a fact whose label names a thing the caller uses, not one it has (its head, or
  the word before a meta word last, is a ``thing_heads`` word: 'application name', 'target
  system'), asked with another fact, after none to two of its other facts asked (the phrasing
  chosen differs along the call); expected: both, never 'my application' (live: "My
  application is Confluence.");
* ``not_found_keys``: two facts the caller gave, reported not found together ("I couldn't find a
  reservation under that code and last name."); expected: both again, a name spelled letter by
  letter, as EVA's simulated users are told to do when the agent gets a value wrong (live: the
  code again, the last name never spelled).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voxbench.bench.weak_facts import Leaf, label, said
from voxbench.spoken.words import DIGIT_WORDS

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder

_GIVEN = ("code", "name", "number", "date")
"""Kinds of a fact a caller gives to be found by (an identifier, a name, a date of birth); one it
wants or prefers, or a field of a listed record, is none."""


def _distinct(b: Builder, f: Leaf) -> bool:
    """A value no other fact holds and a label no other fact's repeats: asked by its label, it is one fact."""
    return all(o.value != f.value and o.words != f.words for o in b.facts if o.key != f.key)


def _pairs(b: Builder, firsts: list[Leaf], seconds: list[Leaf], tag: str) -> list[tuple[Leaf, Leaf]]:
    """Pairs of two different facts with no label word in common (each asked by its own words)."""
    pairs = [(f, g) for f in firsts for g in seconds
             if f.key != g.key and not set(f.words) & set(g.words) and f.value != g.value]  # fmt: skip
    return b.pick(pairs, lambda p: f"{tag}/{p[0].key}/{p[1].key}")


def thing_head(words: list[str], things: set[str], meta: set[str]) -> str:
    """The thing a label names ('application' of 'application name'), '' when it names none."""
    head = words[-2] if len(words) >= 2 and words[-1] in meta else words[-1] if words else ""
    return head if head in things else ""


def live_classes(b: Builder) -> None:
    """The four classes' items of one scenario."""
    wants = set(b.t.want_words) | set(b.t.preference_words) | set(b.t.report_not_held) | {"choice"}
    own = [f for f in b.own if _distinct(b, f)]
    texts = [
        f for f in own if f.kind == "text" and not set(f.words) & wants and not re.search(r"\d", f.value)
    ]
    dates = [f for f in own if f.kind == "date"]
    for f, d in _pairs(b, texts, dates, "two_part"):
        turn = b.template("two_part_asked", f.key).format(text=label(f), date=label(d))
        b.add("two_part_asked", turn, [f.key, d.key])
    given = [f for f in own if f.kind in _GIVEN and "." not in f.key and not set(f.words) & wants]
    names = [f for f in given if f.kind == "name"] or given
    for f, g in _pairs(b, [f for f in given if f.kind != "name"], names, "both"):
        context = [b.t.classes["readback_both_asked"].context[0].format(a=label(f), b=label(g))]
        turn = b.template("readback_both_asked", f.key).format(
            a=label(f), va=said(f.value), b=label(g), vb=said(g.value)
        )
        b.add("readback_both_asked", turn, [f.key, g.key], context)
        turn = b.template("not_found_keys", g.key).format(a=label(f), b=label(g))
        b.add("not_found_keys", turn, [f.key, g.key], context)
        b.items[-1].spelled = [x.value for x in (f, g) if x.kind == "name"]
    things, meta = set(b.t.thing_heads), set(b.t.thing_meta)
    held = [
        f for f in own if f.kind in ("text", "name", "code", "capitals") and thing_head(f.words, things, meta)
    ]
    for n, (f, g) in enumerate(_pairs(b, held, [o for o in own if o.kind != "text"], "thing")):
        turn = b.template("thing_label", f.key).format(label=label(f), other=label(g))
        ask = b.t.classes["thing_label"].context[0]
        before = [o for o in own if o.key not in (f.key, g.key) and not set(o.words) & set(f.words)][:n]
        b.add("thing_label", turn, [f.key, g.key], [ask.format(label=label(o)) for o in before])
        b.items[-1].not_my = [thing_head(f.words, things, meta)]


def spelled_problems(reply: str, values: list[str]) -> list[str]:
    """Each value (a name, a code) not said letter by letter, digits one by one ('L I M A',
    'L-I-M-A', 'L as in Lima ...', 'Q X seven T')."""
    out = []
    for v in values:
        chars = [_char(c) for c in v.upper() if c.isalnum()]
        gap = r"(?:[\s,.-]+|\s+as\s+in\s+\w+[\s,.-]*)"
        if chars and not re.search(r"\b" + gap.join(chars) + r"\b", reply, re.I):
            out.append(f"not spelled {v!r}")
    return out


def _char(c: str) -> str:
    """One character as spelled: a letter, or a digit as a digit or its word."""
    return f"(?:{c}|{DIGIT_WORDS[int(c)]})" if c.isdigit() else c


def owned_problems(reply: str, heads: list[str]) -> list[str]:
    """A thing said as the caller's ('my application', 'my target system')."""
    return [f"said my {h}" for h in heads if re.search(rf"\bmy (?:\w+ ){{0,2}}{re.escape(h)}\b", reply, re.I)]
