"""Weak-agent turns of one class, ``enumerated_asks``: three to five of the caller's own facts asked
as a numbered list ("I need the following information to help you with the process: 1. Your first
name 2. Your employee ID 3. Your visa petition number ..."), written, and in the two forms a
speech recogniser gave it live ("... two. Your employee ID three. Your visa petition, number four.
..." and "... 2, your employee ID 3, your visa petition number 4, ..."), filled with one scenario's
own facts as :mod:`.weak_turns` does for the other classes. Expected (act ``listed``): no
correction (a list marker after a field's name is no value read back) and the facts asked said.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from voxbench.bench.weak_facts import Leaf, label
from voxbench.bench.weak_fields import askable
from voxbench.bench.weak_item import digest

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder

_WORDS = ("one", "two", "three", "four", "five")


def _written(labels: list[str]) -> str:
    return " ".join(f"{i}. Your {x}" for i, x in enumerate(labels, 1)) + "."


def _in_words(labels: list[str]) -> str:
    """'one. Your first name two. Your employee ID three. Your visa petition, number four. ...':
    a marker said after its item, a field's last word 'number' heard with the next marker."""
    out = f"{_WORDS[0]}."
    for i, x in enumerate(labels):
        item = f"Your {x}"
        if i + 1 < len(labels):
            nxt = _WORDS[i + 1]
            out += (
                f" {item[: -len(' number')]}, number {nxt}." if x.endswith(" number") else f" {item} {nxt}."
            )
        else:
            out += f" {item}."
    return out


def _in_digits(labels: list[str]) -> str:
    return " ".join(f"{i}, your {x}" for i, x in enumerate(labels, 1)) + "."


FORMS = {"written": _written, "words": _in_words, "digits": _in_digits}


def enumerated(b: Builder) -> None:
    """One item per form: 3-5 of its askable facts (no label word in common, as ``two_fields_asked``),
    in an order fixed by a hash; not a count of a digit or two, which a list marker said holds."""
    own = [f for f in askable(b) if not (f.value.isdigit() and len(f.value) <= 2)]
    for form, write in FORMS.items():
        salt = f"{b.sid}/enumerated/{form}"
        picked: list[Leaf] = []
        for f in sorted(own, key=lambda x: digest(salt, x.key)):
            if not any(set(f.words) & set(o.words) for o in picked):  # no label word shared, as two_fields
                picked.append(f)
        picked = picked[: 3 + int(digest(salt)[:2], 16) % 3]
        if len(picked) < 3:  # this form's order found too few; another form's may not
            continue
        intro = b.template("enumerated_asks", form)
        b.add("enumerated_asks", f"{intro} {write([label(f) for f in picked])}", [f.key for f in picked])
