"""Weak-agent turns that ask for a fact of a person named by its owner, templates in
``bench/lang/weak_<lang>.json`` filled with one scenario's own facts, as :mod:`.weak_turns` does for
the other classes. A scenario may give the caller facts of another person beside its own ("Husband's
travel date", ``colleague_employee_id``, ``dependent_date_of_birth``); an agent names whose fact it
wants by a possessive ("his confirmation number", "your colleague's date of birth", "the new hire's
ID") or by none ("your employee ID"). Live, airline: asked for "his confirmation number" (the
husband's booking), the caller gave its own.

* ``whose_other_held``: another person's fact the caller holds, asked by its owner ("your husband's
  travel date", "their employee ID" after naming the colleague); expected: that value, never the
  caller's own fact of the same field nor a third person's (itsm 79: a new hire's and a departing
  employee's ID);
* ``whose_other_unheld``: a field of the caller's own (an identifier, a date of birth, a phone
  number: ``personal``) asked as another person's, who has no fact of it ("his confirmation
  number"); expected: that it does not have it, never its own value;
* ``whose_own_your``: the caller's own fact asked as "your X" where another person's fact of the
  same field exists ("your employee ID" beside the colleague's), the person named in the turn or
  not; expected: its own value, never another person's of that field (one item per fact of its
  own, naming the person a hash puts first).

Whose a key is: an owner phrase of ``whose_<lang>.json`` as whole words of it ('departing
employee' in ``departing_employee_id``); the rest of its words is its field. Two facts are of one
field when their fields are the same words, when the caller's field ends the other's key words
('employee ID' in 'departing employee ID'), or when both are codes of the same shape
('EMP077777' and 'EMP092841').
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from pydantic import BaseModel

from voxbench.bench.weak_facts import Leaf
from voxbench.bench.weak_item import digest
from voxbench.spoken.tables import read_table

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder


class Person(BaseModel):
    determiner: str
    """How an agent names the person to the caller ('your' husband, 'the' new hire)."""
    pronoun: str
    """The possessive an agent uses for the person once named ('his', 'their')."""


class WhoseWords(BaseModel):
    persons: dict[str, Person]
    """Owner phrases a key may hold ('husband', 'new hire', 'departing employee')."""
    personal: list[str]
    """Fields each person has one of ('employee id', 'date of birth'): asked of another person."""


@cache
def whose_words(language: str = "en") -> WhoseWords:
    return read_table("voxbench.bench.lang", f"whose_{language}.json", WhoseWords, "bench/lang")


@cache
def _persons_longest_first() -> tuple[tuple[str, list[str]], ...]:
    """The owner phrases and their words, the longest first ('new hire' before 'hire')."""
    return tuple((p, p.split()) for p in sorted(whose_words().persons, key=lambda p: -len(p.split())))


def owner(f: Leaf) -> tuple[str, list[str]]:
    """(the owner phrase of the key, '' for the caller's own; the field's words)."""
    for phrase, ws in _persons_longest_first():
        for i in range(len(f.words) - len(ws) + 1):
            if f.words[i : i + len(ws)] == ws:
                return phrase, f.words[:i] + f.words[i + len(ws) :]
    return "", list(f.words)


def _shape(value: str) -> str:
    return re.sub(r"\d", "9", re.sub(r"[A-Za-z]", "A", value))


def same_field(mine: Leaf, other: Leaf) -> bool:
    """Whether the caller's fact ``mine`` and another person's ``other`` are of one field."""
    _, field = owner(other)
    if mine.words == field:
        return True
    n = len(mine.words)
    if field and n > len(field) and other.words[-n:] == mine.words:
        return True  # 'employee id' ends 'departing employee id'
    return mine.kind == other.kind == "code" and _shape(mine.value) == _shape(other.value)


def _field_label(words: list[str]) -> str:
    return " ".join("ID" if w == "id" else w.upper() if w == "npi" else w for w in words)


def of_field(f: Leaf, o: Leaf) -> bool:
    """Whether ``f`` (the caller's, or another person's) and another person's ``o`` are of one
    field and hold two values: what a reply asked for the one must not give for it."""
    if f.key == o.key or f.value == o.value:
        return False
    who = owner(f)[0]
    if not who:
        return same_field(f, o)
    if who == owner(o)[0]:
        return False
    return owner(f)[1] == owner(o)[1] or (f.kind == o.kind == "code" and _shape(f.value) == _shape(o.value))


def whose_classes(b: Builder) -> None:
    """The three classes' items of one scenario."""
    persons = whose_words().persons
    own = [f for f in b.facts if not owner(f)[0]]
    others = [f for f in b.facts if owner(f)[0]]
    if not others:
        return
    for o in b.pick(others, lambda f: f"whose_held/{f.key}"):
        who, field = owner(o)
        p = persons[who]
        mates = [m.key for m in b.facts if of_field(m, o)]  # its own and every other person's
        turn = b.template("whose_other_held", o.key).format(
            owner=f"{p.determiner} {who}'s", pronoun=p.pronoun, field=_field_label(field)
        )
        b.add("whose_other_held", turn, [o.key], must_not=mates)
    unheld(b, own, others)
    named: dict[str, tuple[Leaf, list[Leaf]]] = {}  # an own fact -> (it, every other person's of its field)
    for m in own:
        theirs = [o for o in others if of_field(m, o)]
        key = f"whose_own/{m.key}/"
        theirs.sort(key=lambda o: digest(b.sid, key + o.key))
        if theirs:
            named[m.key] = (m, theirs)
    for m, theirs in b.pick(list(named.values()), lambda x: f"whose_own/{x[0].key}/{x[1][0].key}"):
        who, _ = owner(theirs[0])  # the one its hash puts first, named in the turn or not
        turn = b.template("whose_own_your", m.key).format(
            owner=f"{persons[who].determiner} {who}'s", field=_field_label(m.words)
        )
        b.add("whose_own_your", turn, [m.key], must_not=[o.key for o in theirs])


def unheld(b: Builder, own: list[Leaf], others: list[Leaf]) -> None:
    """``whose_other_unheld``: a personal field of the caller's asked of a person with no fact of it
    (and none of its kind, a name aside: 'travel date' is no 'date of birth' but might be read so)."""
    persons = whose_words().persons
    personal = [p.split() for p in whose_words().personal]
    items = []
    for who in sorted({owner(o)[0] for o in others}):
        theirs = [o for o in others if owner(o)[0] == who]
        for m in own:
            if "." in m.key or m.words not in personal:
                continue
            if any(same_field(m, o) or o.kind == m.kind for o in theirs):
                continue
            items.append((who, m))
    for who, m in b.pick(items, lambda x: f"whose_unheld/{x[0]}/{x[1].key}"):
        p = persons[who]
        turn = b.template("whose_other_unheld", f"{who}/{m.key}").format(
            owner=f"{p.determiner} {who}'s", pronoun=p.pronoun, field=_field_label(m.words)
        )
        b.add("whose_other_unheld", turn, [], must_not=[m.key])
