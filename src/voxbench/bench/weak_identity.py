"""Weak-agent turns of two classes that name no fact of the caller's by its key, templates in
``bench/lang/weak_<lang>.json`` filled with one scenario's own facts, as :mod:`.weak_turns` does
for the other classes:

* ``identity_asked``: "Can you verify your identity?", "I need to verify your identity first.":
  expected: facts, never "I don't have that" nor a bare "Yes, go ahead"; at least its record's
  identifier, the first of its own code facts whose label ends in one of ``id_heads`` ('employee
  ID', 'confirmation number'), a phone number none (the reference agents ask for that first);
* ``part_held``: a field asked whole ("What is your phone number?") when the caller holds only a
  part of it named by its key (``phone_last_four``, ``held_parts``: 'last four' of a 'number'),
  the whole held by no other fact; expected: the part, never "I don't have that".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder


def _has(words: list[str], part: list[str]) -> bool:
    n = len(part)
    return any(words[i : i + n] == part for i in range(len(words) - n + 1))


def identity_classes(b: Builder) -> None:
    """The two classes' items of one scenario."""
    heads, persons = set(b.t.id_heads), set(b.t.persons) | set(b.t.want_words)
    ids = [f for f in b.own if f.kind == "code" and "." not in f.key and f.words and f.words[-1] in heads
           and not set(f.words) & (persons | {"phone", "mobile", "fax"})]  # fmt: skip
    if ids:
        for t in b.pick(b.t.classes["identity_asked"].templates, lambda t: t):
            b.add("identity_asked", t, [ids[0].key])
    for f in b.own:
        for part, whole in b.t.held_parts.items():
            words = part.split()
            if not _has(f.words, words):
                continue
            field = " ".join([w for w in f.words if w not in words] + [whole])
            if any(" ".join(o.words) == field for o in b.facts):  # the whole held too: no part asked
                continue
            for t in b.pick(b.t.classes["part_held"].templates, lambda t, k=f.key: f"{k}/{t}"):
                b.add("part_held", t.format(field=field), [f.key])
