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
* ``identity_pair_asked``: two of its identifying facts (its record's identifier, a part of a number
  it holds by ``held_parts``, its date of birth, its last name) asked in one identity request, the
  second with no determiner of its own ("To verify your identity, I need the last four digits of
  your phone number and last name."); expected: both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from voxbench.bench.weak_facts import Leaf
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


def _said_label(b: Builder, f: Leaf) -> tuple[str, str]:
    """(with its determiner, bare) as an agent names the fact ('your employee ID', 'employee ID';
    a part: 'the last four digits of your phone number' both ways)."""
    for part, whole in b.t.held_parts.items():
        if _has(f.words, part.split()):
            field = " ".join([w for w in f.words if w not in part.split()] + [whole])
            said = f"the {part} digits of your {field}"
            return said, said
    bare = " ".join("ID" if w == "id" else w for w in f.words)
    return f"your {bare}", bare


def identity_pairs(b: Builder) -> None:
    """``identity_pair_asked``: each ordered pair of its identifying facts, up to ``per_class``."""
    heads, persons = set(b.t.id_heads), set(b.t.persons) | set(b.t.want_words)
    own = [f for f in b.own if "." not in f.key and not set(f.words) & persons]
    ids = [
        f
        for f in own
        if f.kind == "code" and f.words and f.words[-1] in heads and not set(f.words) & {"phone"}
    ]
    parts = [f for f in own if any(_has(f.words, p.split()) for p in b.t.held_parts)]
    births = [f for f in own if "birth" in f.words]
    last = [f for f in own if f.words == ["last", "name"]]
    facts = ids[:1] + parts[:1] + births[:1] + last[:1]
    pairs = [(x, y) for x in facts for y in facts if x is not y]
    for x, y in b.pick(pairs, lambda p: f"pair/{p[0].key}/{p[1].key}"):
        t = b.template_of(b.t.classes["identity_pair_asked"].templates, "identity_pair_asked", x.key + y.key)
        b.add("identity_pair_asked", t.format(a=_said_label(b, x)[0], b=_said_label(b, y)[1]), [x.key, y.key])
