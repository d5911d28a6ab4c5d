"""A reference agent turn said again with a target scenario's values and field names
(:mod:`.weak_refasks`), or the reason it cannot be said faithfully: a value of no fact, no fact of
its sort, two fields of one key, a value, option or field not found, a source value left."""

from __future__ import annotations

from typing import NamedTuple

from voxbench.bench.matcher import facts_said, key_words
from voxbench.bench.reference import (
    names_fact,
)
from voxbench.bench.transplant import (
    Edit,
    Span,
    Tok,
    determined,
    rewrite,
    spelled_run,
    tokens,
)
from voxbench.bench.weak_facts import Leaf, changed, said
from voxbench.bench.weak_refharvest import RefAsk
from voxbench.bench.weak_reftarget import Target, map_facts
from voxbench.bench.weak_several import spelled
from voxbench.bench.weak_whose import owner, whose_words

_SPELLED = ("code", "name")


def field_label(f: Leaf) -> str:
    """How an agent names the fact: its label, another person's with its owner ('the new hire's ID')."""
    who, field = owner(f)
    words = " ".join("ID" if w == "id" else w for w in field)
    return f"{whose_words().persons[who].determiner} {who}'s {words}" if who else words


def _determiners() -> set[str]:
    """The words that say whose a field is before it ('your', 'the', 'his'): ``whose_<lang>.json``."""
    persons = whose_words().persons.values()
    return {p.determiner for p in persons} | {p.pronoun for p in persons}


def _value(f: Leaf, value: str, toks: list[Tok], span: Span) -> str:
    """A target value as the source said its own: spelled where the source spelled it."""
    if f.kind in _SPELLED and spelled_run(toks, span) and any(c.isalpha() for c in value):
        return spelled(value)
    return said(value)


class Said(NamedTuple):
    text: str
    inserted: list[str]
    mapped: dict[str, Leaf]


def say_in(
    src: RefAsk, t: Target, salt: str, wrong: str = "", options: list[str] | None = None
) -> Said | str:
    """The source turn with the target's values and fields (the fact ``wrong`` said changed;
    ``options``: new words for each offered option), or why it cannot be said faithfully."""
    if src.unplaced:
        return "a value of no fact"
    mapped = map_facts([*src.values, *src.named], t, salt)
    if mapped is None:
        return "no fact of its kind"
    keys = [key_words(f.key) for f in src.named]
    if len({tuple(sorted(k)) for k in keys}) < len(keys):
        return "two fields of one key"
    toks = tokens(src.text)
    edits: list[Edit] = []
    inserted: list[str] = []

    def free(s: Span) -> bool:
        return all(s.last <= e.span.first or s.first >= e.span.last for e in edits)

    if options is not None:
        for old, new in zip(src.options, options, strict=True):
            at = src.text.rfind(old)
            span = Span(*_token_range(toks, at, at + len(old))) if at >= 0 else None
            if span is None or not free(span):
                return "option not found"
            edits.append(Edit(span, new))
            inserted.append(new)
    for f in sorted(src.values, key=lambda x: -len(x.value)):
        if not src.at.get(f.key):
            return "value not found"
        found = [(v, lab) for v, lab in src.at[f.key] if free(v)]  # none: inside a longer one's
        g = mapped[f.key]
        for v, lab in found:
            new = _value(g, changed(g, t.taken) or "" if g.key == wrong else g.value, toks, v)
            edits.append(Edit(v, new))
            inserted.append(new)
            if lab is not None and free(lab):
                edits.append(Edit(lab, field_label(g)))
    inside: set[str] = set()  # 'employee ID' in 'the departing employee's employee ID': not named alone
    for key, where in sorted(src.fields.items(), key=lambda x: -len(key_words(x[0]))):
        kept = [s for s in where if free(s)]
        wider = [k for k in src.fields if k != key and set(key_words(key)) < set(key_words(k))]
        if wider and where and not kept:  # 'employee ID' in 'the departing employee's employee ID'
            inside.add(key)
            continue
        if not kept:
            return "field not found"
        g = mapped[key]
        if owner(g)[0]:
            kept = [determined(toks, s, _determiners()) for s in kept]
        edits += [Edit(s, field_label(g)) for s in kept]
    text = rewrite(src.text, toks, edits)
    if text is None:
        return "spans overlap"
    left = set(facts_said(text, src.goal)) - set(facts_said(" ; ".join(inserted), src.goal))
    if left:
        return "a source value left"
    if not all(names_fact(text, mapped[k].key) for k in src.fields if k not in inside):
        return "a field not named"
    return Said(text, inserted, mapped)


def _token_range(toks: list[Tok], start: int, end: int) -> tuple[int, int]:
    idx = [i for i, t in enumerate(toks) if t.end > start and t.start < end]
    return (idx[0], idx[-1] + 1) if idx else (0, 0)
