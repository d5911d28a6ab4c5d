"""Weak-agent turns that state one of the caller's values and ask for a field in the same turn,
templates per class (``bench/lang/weak_<lang>.json``) filled with one scenario's own facts, as
:mod:`.weak_turns` does for the other classes. Each follows a context turn that asked for the
stated fact, so the caller has given it already:

* ``stated_then_asked``: the agent states the value as part of an announcement, then asks for
  that field by name in a sentence of its own ("I'll look up employee ID EMP123. What is your
  employee ID?"), as a small agent does when it does not trust what it heard; expected: the value
  again (a "Yes," first or not), never a bare acknowledgement;
* ``readback_other_asked``: its control, a read-back of that field and a request for another
  ("Thanks, I have your employee ID as EMP123. What is your last name?"); expected: the other
  field only, not the read-back one again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from voxbench.bench.weak_facts import Leaf, label, said

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder

# a value a request's own words cannot tell apart from the field's words (a number, a short name)
_STATED_KINDS = ("code", "date", "time", "number", "name", "capitals")


def _distinct(b: Builder, f: Leaf) -> bool:
    """One value no other fact of the caller holds, and a label no other fact's label repeats."""
    return all(o.value != f.value and o.words != f.words for o in b.facts if o.key != f.key)


def restated(b: Builder) -> None:
    """The stated-then-asked turn of a fact it gave, and its control asking for another fact."""
    stated = [f for f in b.own if f.kind in _STATED_KINDS and _distinct(b, f)]
    for f in b.pick(stated, lambda f: f"restate/{f.key}"):
        context = [b.t.classes["stated_then_asked"].context[0].format(label=label(f))]
        turn = b.template("stated_then_asked", f.key).format(label=label(f), value=said(f.value))
        b.add("stated_then_asked", turn, [f.key], context)
        other = _other(b, f)
        if other is not None:
            turn = b.template("readback_other_asked", f.key).format(
                label=label(f), value=said(f.value), other=label(other)
            )
            b.add("readback_other_asked", turn, [other.key], context, must_not=[f.key])


def _other(b: Builder, f: Leaf) -> Leaf | None:
    """Another of its facts to ask for: no word of its label in the stated one's, a value of its own."""
    others = [o for o in b.own if o.key != f.key and o.kind != "text" and not set(o.words) & set(f.words)
              and o.value != f.value and _distinct(b, o)]  # fmt: skip
    return (b.pick(others, lambda o: f"other/{f.key}/{o.key}") or [None])[0]
