"""Weak-agent turns of an agent that keeps mishearing one of the caller's names or codes, read in
a live call of the goal caller (``make run``: the local agent's recogniser heard 'Okafor' as 'All
Cuffo' four times, and the caller said 'As I said, Okafor.' each time). Templates per class
(``bench/lang/weak_<lang>.json``) filled with one scenario's own name and code facts, as
:mod:`.weak_turns` does for the other classes:

* ``misheard_once`` / ``misheard_twice`` / ``misheard_thrice``: the fact asked, then read back in
  a mis-heard form (:func:`misheard_forms`: a name split into two words, a letter changed; a
  code's digits swapped or a letter changed) once / twice / three times, each time another form;
  expected: a correction with the value; from the second failed hearing on, the value spelled
  (letters and digits one by one);
* ``misread_same_thrice`` / ``misread_same_fourth``: the fact asked, then read back in the same
  mis-heard form three / four times (:func:`misread_same`); expected: a correction with the value
  spelled, the call kept open (EVA's simulated user ends a call only after "5 consecutive turns"
  that do not help, "e.g., repeatedly misunderstands you");
* ``misread_same_end``: the same, a fifth time: expected: the call ended, never with a yes (the
  fifth turn in a row that does not help; EVA's failure condition), no more tellings claimed
  than made;
* ``reasked_twice`` / ``reasked_same``: the fact asked, then asked again twice, in other words /
  in the same words (the live form: the agent reads nothing back and asks once more); expected:
  the value, spelled at the second re-ask;
* ``reask_open_item``: a caller with one request asked what it needs twice after its opening;
  expected: its request again, no word that adds an item to others ('also', 'another': the
  table's ``additive``, those its goal does not say), as it asked for nothing else before (live
  bb.3: 'Just to ask again, could you also tell me the gate?', the gate the only item open).

Whatever the class, the reply may claim no more tellings than the caller made ('I've said that a
few times now.' after two: :func:`count_problems`; ``WeakItem.told``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voxbench.bench.weak_facts import Leaf, label
from voxbench.spoken import is_code

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder

_KINDS = ("name", "code")
_VOWEL_SHIFT = {"a": "e", "e": "a", "i": "e", "o": "e", "u": "o", "y": "i"}
_SOUND_ALIKE = {"b": "d", "d": "b", "p": "b", "t": "d", "m": "n", "n": "m", "f": "s", "s": "f", "v": "b",
                "k": "g", "g": "k", "c": "k", "l": "r", "r": "l", "z": "s", "j": "g", "w": "v", "h": "k",
                "q": "k", "x": "s"}  # fmt: skip
"""A consonant and one a recogniser takes it for ('M' / 'N', 'B' / 'D')."""


def _case(src: str, c: str) -> str:
    return c.upper() if src.isupper() else c


def _vowel(v: str, last: bool = True) -> str:
    """The value with its last (first) vowel after the first letter changed ('Okafor' -> 'Okafer')."""
    at = [i for i, c in enumerate(v) if i > 0 and c.lower() in _VOWEL_SHIFT]
    if not at:
        return ""
    i = at[-1] if last else at[0]
    return v[:i] + _case(v[i], _VOWEL_SHIFT[v[i].lower()]) + v[i + 1 :]


def _consonant(v: str) -> str:
    """The value with its first consonant after the first letter taken for another ('Okafor' -> 'Ogafor')."""
    i = next((i for i, c in enumerate(v) if i > 0 and c.lower() in _SOUND_ALIKE), -1)
    return v[:i] + _case(v[i], _SOUND_ALIKE[v[i].lower()]) + v[i + 1 :] if i > 0 else ""


def _split(v: str) -> str:
    """A name heard as two words at its middle syllable ('Okafor' -> 'Oka For'); '' when too short."""
    if len(v) < 5 or " " in v:
        return ""
    mid = len(v) // 2
    cuts = [i for i in range(2, len(v) - 1) if v[i - 1].lower() in "aeiouy" and v[i].lower() not in "aeiouy"]
    if not cuts:
        return ""
    i = min(cuts, key=lambda c: abs(c - mid))
    return f"{v[:i]} {v[i].upper()}{v[i + 1 :]}"


def _swap_digits(v: str) -> str:
    """The code with its last two different digits swapped ('QX7T4M' -> 'QX4T7M')."""
    at = [i for i, c in enumerate(v) if c.isdigit()]
    for a, b in zip(at[-2::-1], at[:0:-1], strict=False):
        if v[a] != v[b]:
            chars = list(v)
            chars[a], chars[b] = chars[b], chars[a]
            return "".join(chars)
    return ""


def _digit(v: str) -> str:
    """The code with its first digit one on ('QX7T4M' -> 'QX8T4M')."""
    i = next((i for i, c in enumerate(v) if c.isdigit()), -1)
    return v[:i] + str((int(v[i]) + 1) % 10) + v[i + 1 :] if i >= 0 else ""


def _letter(v: str) -> str:
    """The code with its last letter taken for a sound-alike ('QX7T4M' -> 'QX7T4N')."""
    i = next((i for i in range(len(v) - 1, -1, -1) if v[i].lower() in _SOUND_ALIKE), -1)
    return v[:i] + _case(v[i], _SOUND_ALIKE[v[i].lower()]) + v[i + 1 :] if i >= 0 else ""


def misheard_forms(f: Leaf, taken: set[str]) -> list[str]:
    """Up to three mis-heard forms of a name or code, each another, none a value of the caller's:
    a name split with its first vowel changed ('Oke For': split alone, it sounds the same read
    aloud) / its last vowel / its first consonant changed; a code's digits swapped / its last
    letter / its first digit changed."""
    v = f.value
    tries = (
        [_split(_vowel(v, last=False)), _vowel(v), _consonant(v), _vowel(v, last=False)]
        if f.kind == "name"
        else []
    )
    tries += [_swap_digits(v), _letter(v), _digit(v), _vowel(v)] if f.kind == "code" else []
    out: list[str] = []
    for t in tries:
        if t and t != v and t not in taken and t not in out and t.replace(" ", "").lower() != v.lower():
            out.append(t)
    return out[:3]


def misheard_classes(b: Builder) -> None:
    """Every item of the classes above for one scenario: one fact a class, of the caller's own
    names and codes whose value no other fact holds."""
    facts = [f for f in b.own if f.kind in _KINDS and sum(o.value == f.value for o in b.facts) == 1
             and (f.kind != "code" or is_code(f.value))]  # fmt: skip  # not an enum ('14_inch')
    ask = b.t.classes["misheard_once"].context[0]
    for n, cls in enumerate(("misheard_once", "misheard_twice", "misheard_thrice")):
        fit = [f for f in facts if len(misheard_forms(f, b.taken)) > n]  # a form for each reading
        for f in b.pick(fit, lambda f, c=cls: f"{c}/{f.key}")[:1]:
            forms = misheard_forms(f, b.taken)
            reads = [
                b.template(cls, f"{f.key}/{i}").format(label=label(f), wrong=forms[i]) for i in range(n + 1)
            ]
            b.add(cls, reads[-1], [f.key], [ask.format(label=label(f)), *reads[:-1]])
            b.items[-1].told = n + 1
            b.items[-1].spelled = [f.value] if n else []
    misread_same(b, facts)
    for cls in ("reasked_twice", "reasked_same"):
        c = b.t.classes[cls]
        for f in b.pick(facts, lambda f, c=cls: f"{c}/{f.key}")[:1]:
            asks = [t.format(label=label(f)) for t in [*c.context, *c.templates][:3]]
            if cls == "reasked_same":
                asks = [asks[0]] * 3
            b.add(cls, asks[-1], [f.key], asks[:-1])
            b.items[-1].told = 2
            b.items[-1].spelled = [f.value]
    reask_open(b)


MISREAD_SAME = {"misread_same_thrice": 3, "misread_same_fourth": 4, "misread_same_end": 5}
"""The classes of one wrong read-back said again, by the time the graded turn says it."""


def misread_same(b: Builder, facts: list[Leaf]) -> None:
    """The ``misread_same_*`` classes for one scenario: a name or code asked, then read back in
    one mis-heard form (the first of :func:`misheard_forms`) every time, in the class's sentences
    (the agent's own recogniser, or the caller's, hears the same wrong value each time: live bb.2,
    "May 30" for "May 13" seven times). The graded turn is the 3rd / 4th / 5th such read-back;
    the caller has said the value once more than the read-backs before it (``told``)."""
    fit = [f for f in facts if misheard_forms(f, b.taken)]
    ask = b.t.classes["misheard_once"].context[0]
    for cls, n in MISREAD_SAME.items():
        for f in b.pick(fit, lambda f, c=cls: f"{c}/{f.key}")[:1]:
            wrong = misheard_forms(f, b.taken)[0]
            reads = [b.template(cls, f"{f.key}/{i}").format(label=label(f), wrong=wrong) for i in range(n)]
            ends = cls == "misread_same_end"  # a give-up says no value: none required, none spelled
            b.add(cls, reads[-1], [] if ends else [f.key], [ask.format(label=label(f)), *reads[:-1]])
            b.items[-1].told = n
            b.items[-1].spelled = [] if ends else [f.value]


def _claim_pattern(words: dict[str, int]) -> list[tuple[re.Pattern[str], int]]:
    return [(re.compile(rf"\b{p}\b", re.I), n) for p, n in words.items()]


def count_problems(reply: str, told: int, claims: dict[str, int]) -> list[str]:
    """A count of tellings the reply claims ('a few times' 3, 'twice' 2: ``claims``, the table's
    ``told_counts``) beyond ``told``, the times the caller said the fact before the reply."""
    return [
        f"claims {n} tellings after {told}" for p, n in _claim_pattern(claims) if n > told and p.search(reply)
    ]


def reask_open(b: Builder) -> None:
    """``reask_open_item``: a caller with one request, asked twice what it needs after its opening;
    the additive words its goal does not say are ``not_words`` (it asked for nothing else before)."""
    from voxbench.bench.caller_check import goal_text
    from voxbench.bench.weak_endings import requests_of
    from voxbench.bench.weak_fallback import listed_all

    if b.t.endings is None or len(requests_of(b)) != 1 or len(listed_all(b)) > 1:
        return
    c = b.t.classes["reask_open_item"]
    goal = goal_text(b.scenario)
    not_words = [w for w in b.t.additive if not re.search(rf"\b{re.escape(w)}\b", goal, re.I)]
    b.add("reask_open_item", b.template("reask_open_item", ""), context=list(c.context))
    b.items[-1].not_words = not_words
