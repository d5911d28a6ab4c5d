"""Weak-agent turns of one class met in a live call of the goal caller (``make run``), templates in
``bench/lang/weak_<lang>.json`` filled with one scenario's own facts, as :mod:`.weak_turns` does for
the other classes:

* ``reask_after_check``: two or three facts the caller gave, then one of them read back (and
  confirmed) or a lookup under them reported failed, then all of them asked again, the turn
  saying their values or not ("I have 5 K R 9 5 0 and Whitfield, but that didn't match. Can you
  repeat your confirmation number and last name?"); expected: each of them again, though the
  turn says them (live: 'It's Whitfield.', the last name alone, the code left out).

The facts are those a caller gives to be found by (an identifier, a name, a number, a date), each
named by words no other of them has, each value held by no other fact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from voxbench.bench.weak_facts import Leaf, label, said

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder

_GIVEN = ("code", "name", "number", "date")


def _listed(facts: list[Leaf]) -> str:
    """'a and b', 'a, b and c': the labels as an agent lists them."""
    names = [label(f) for f in facts]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _apart(f: Leaf, others: list[Leaf]) -> bool:
    return all(f.key != o.key and not set(f.words) & set(o.words) and f.value != o.value for o in others)


def reask_classes(b: Builder) -> None:
    """``reask_after_check`` items of one scenario: a pair, and a triple when one more fact fits."""
    wants = set(b.t.want_words) | set(b.t.preference_words) | {"choice"}
    alone = [
        f for f in b.own if all(o.value != f.value and o.words != f.words for o in b.facts if o.key != f.key)
    ]
    given = [f for f in alone if f.kind in _GIVEN and "." not in f.key and not set(f.words) & wants]
    c = b.t.classes["reask_after_check"]
    pairs = [(f, g) for f in given for g in given if f.kind != "name" and _apart(g, [f])]
    for f, g in b.pick(pairs, lambda p: f"reask/{p[0].key}/{p[1].key}"):
        salt = f"reask3/{f.key}/{g.key}"
        thirds = b.pick([h for h in given if _apart(h, [f, g])], lambda h, s=salt: f"{s}/{h.key}")[:1]
        for facts in [[f, g]] + [[f, g, h] for h in thirds]:
            keys = "/".join(x.key for x in facts)
            middle = b.template_of(c.context[1:], "reask_after_check", keys)
            context = [c.context[0].format(list=_listed(facts)), middle.format(a=label(f), va=said(f.value))]
            values = " and ".join(said(x.value) for x in facts)
            turn = b.template("reask_after_check", keys).format(list=_listed(facts), values=values)
            b.add("reask_after_check", turn, [x.key for x in facts], context)
