"""Whose fact a request asks for: the caller's own, or another person's that the scenario gives it.

A scenario may give the caller facts of another person beside its own ("Husband's travel date",
``colleague_employee_id``, ``dependent_first_name``, ``new_hire_id``): the person is an owner
phrase of the key (``whose.persons``), the rest of the key is the *field*. An agent names whose
fact it wants by the words before the field ('your husband's', 'the new hire's', 'his', 'their',
'your') or after it ('of your dependent'); a request read by its field words alone does not tell
them apart, and live (airline) "his confirmation number" (the husband's) got the caller's own.

:func:`owned` reads, for each fact a request was found to ask (:mod:`.asks`), the owner the
request names for it and keeps, swaps or drops it:

* another person named ('your colleague's', 'the departing employee's', a role noun of that
  person's phrase: 'the employee's' beside a departing employee) or a third-person possessive
  ('his', 'their') where the caller holds another person's facts: the fact of that person of the
  same field; none held, nothing (the caller does not give its own for theirs);
* 'your' / 'my' (or a role noun that names no other person: 'the passenger's'): the caller's own
  fact of the field, where the words found another person's ('your first name' is not the
  dependent's);
* no owner said: as found.

A fact of another person found by its owner word alone (no field word of it said: 'your husband's
confirmation number' is no husband's name) is not asked; another person's fact whose field words
the request says after its owner ('his name') is asked though no key match found it.
Two facts are of one field when their fields are the same words, when one's field ends the other's
key words ('employee id' in 'departing employee id'), or when both are codes of one shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from voxbench.pipelines.caller.goal.facts import SYNONYMS, Fact, FactBook, key_tokens, stem
from voxbench.pipelines.caller.goal.lang import phrases
from voxbench.pipelines.caller.goal.lang import words as lang_words
from voxbench.pipelines.caller.goal.rules import THIRD_PARTY

_PERSONS = sorted(phrases("whose", "persons"), key=lambda p: -len(p.split()))
_PERSONS_AT: dict[str, list[str]] = {}
for _p in _PERSONS:  # by first word, longest first
    _PERSONS_AT.setdefault(_p.split()[0], []).append(_p)
_KIN = [set(g.split("|")) for g in phrases("whose", "kin")]
_ROLES = frozenset(phrases("whose", "roles"))
_OTHER = frozenset(phrases("whose", "other_possessives"))
_OWN = frozenset(phrases("whose", "own_possessives"))
_DETERMINERS = frozenset(phrases("whose", "determiners"))
_STOPS = frozenset(phrases("whose", "stops")) | frozenset(",;:.?!")
_PERSONAL = [frozenset(p.split()) for p in phrases("whose", "personal_fields")]
SELF, PRONOUN = "", "*"
"""Owners an ask may name besides a person: the caller ('your'), someone unnamed ('his')."""


@cache
def owner_words(key: str) -> tuple[str, tuple[str, ...]]:
    """(the owner phrase of a fact key, '' for the caller's own; its words outside the phrase)."""
    toks = [t for t in key_tokens(key.rsplit(".", 1)[-1]) if t != "s"]
    for phrase in _PERSONS:
        ws = phrase.split()
        for i in range(len(toks) - len(ws) + 1):
            if toks[i : i + len(ws)] == ws:
                return phrase, tuple(toks[:i] + toks[i + len(ws) :])
    return SELF, tuple(toks)


def owner_of(f: Fact) -> str:
    return owner_words(f.key)[0]


def _field(f: Fact) -> tuple[str, ...]:
    """The fact's words that are not its owner's ('first', 'name' of 'dependent_first_name')."""
    who = set(owner_of(f).split())
    return tuple(w for w in f.words if w not in who and w != "s")


def _shape(value: object) -> str:
    return re.sub(r"\d", "9", re.sub(r"[A-Za-z]", "A", str(value)))


def same_field(a: Fact, b: Fact) -> bool:
    """Whether two facts are of one field (see the module docstring)."""
    fa, fb = _field(a), _field(b)
    if fa and fa == fb:
        return True
    ka, kb = owner_words(a.key), owner_words(b.key)
    whole_a, whole_b = tuple(a.words), tuple(b.words)
    if (ka[0] and whole_b == tuple(key_tokens(a.key))[-len(whole_b) :] and set(fa) <= set(whole_b)) or (
        kb[0] and whole_a == tuple(key_tokens(b.key))[-len(whole_a) :] and set(fb) <= set(whole_a)
    ):
        return True  # 'employee id' ends 'departing employee id'
    codes = all(isinstance(x.value, str) and re.search(r"\d", x.value) and " " not in x.value for x in (a, b))
    return bool(codes) and _shape(a.value) == _shape(b.value)


def _matches(asked: str, owner: str) -> bool:
    """Whether an owner named in a request ('spouse', 'employee', '*') is a fact's ``owner``."""
    if not owner:
        return False
    if asked in (PRONOUN, owner) or set(asked.split()) <= set(owner.split()):
        return True
    return any(asked in g and owner in g for g in _KIN)


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    owner: str  # SELF, PRONOUN, a person phrase or a role noun


def _tokens(sentence: str) -> list[str]:
    """Words with their possessive marks, punctuation as tokens, spelled letters joined ('I D')."""
    raw = re.findall(r"[a-z]+(?:-[a-z]+)?(?:'s|s')?|[,;:.?!]", sentence.lower().replace("’", "'"))
    out: list[str] = []
    run: list[str] = []
    for t in [*raw, ""]:
        if len(t) == 1 and t.isalpha():
            run.append(t)
            continue
        out += ["".join(run)] if len(run) > 1 else run
        run = []
        out += [t] if t else []
    return out


def _spans(toks: list[str]) -> list[_Span]:
    """The owners a request names: 'your husband's', 'the new hire's', 'his', 'your'."""
    out: list[_Span] = []
    i = 0
    bare = [re.sub(r"'s$|'$", "", t) for t in toks]
    while i < len(toks):
        hit = None
        for phrase in _PERSONS_AT.get(bare[i], ()):
            ws = phrase.split()
            if bare[i : i + len(ws)] == ws:
                hit = _Span(i, i + len(ws), phrase)
                break
        if hit is None and bare[i] in _ROLES and toks[i] != bare[i]:
            hit = _Span(i, i + 1, bare[i])  # 'the employee's': a role said as an owner
        if hit is not None:
            start = hit.start - 1 if hit.start and toks[hit.start - 1] in _DETERMINERS | _OWN else hit.start
            out.append(_Span(start, hit.end, hit.owner))
            i = hit.end
            continue
        if toks[i] in _OTHER:
            out.append(_Span(i, i + 1, PRONOUN))
        elif toks[i] in _OWN:
            out.append(_Span(i, i + 1, SELF))
        i += 1
    return out


@cache
def _word_stems(word: str) -> frozenset[str]:
    """The stems a field word is said by: its own, its one-word synonyms', the one words that stand
    for it and others ('surname' for 'last' and 'name', :data:`.facts.said_expansions`)."""
    stands = [n for n, ws in lang_words().key_expansions.items() if word in ws and " " not in n]
    return frozenset({stem(word), *(stem(s) for s in [*SYNONYMS.get(word, ()), *stands] if " " not in s)})


@cache
def _tok_stem(tok: str) -> str:
    return stem(re.sub(r"'s$|'$", "", tok))


def _said(word: str, tok: str) -> bool:
    return _tok_stem(tok) in _word_stems(word)


def _field_at(f: Fact, toks: list[str], spans: list[_Span]) -> tuple[int, int] | None:
    """(first, last + 1) token of the first run of the fact's field words outside the owners said."""
    inside = {i for s in spans if s.owner not in (SELF, PRONOUN) for i in range(s.start, s.end)}
    field = _field(f)
    at = [i for i, t in enumerate(toks) if i not in inside and any(_said(w, t) for w in field)]
    if not at:
        return None
    end = at[0] + 1
    while end in at:
        end += 1
    return at[0], end


def _asked_owner(f: Fact, toks: list[str], spans: list[_Span]) -> str | None:
    """The owner the request names for the fact: the nearest before its field words (three words
    at most, none a preposition or a conjunction between) or after them with 'of' / 'for'."""
    where = _field_at(f, toks, spans)
    if where is None:
        return None
    first, end = where
    before = [s for s in spans if s.end <= first and first - s.end <= 3]
    if before and not set(toks[before[-1].end : first]) & _STOPS:
        return before[-1].owner
    if toks[end : end + 1] and toks[end] in ("of", "for"):
        after = [s for s in spans if end < s.start <= end + 2 and s.owner != SELF]
        if after:
            return after[0].owner
    return None


def _resolve(asked: str, book: FactBook, named: set[str]) -> str | None:
    """The owner of the caller's book the request means: a person it holds facts of (for 'his',
    the one named in the rest of the turn, if any), SELF for a role noun none of those holds ('the
    passenger's'), None for a person it holds nothing of."""
    owners = {owner_of(f) for f in book} - {SELF}
    if asked == SELF:
        return SELF
    hits = sorted(o for o in owners if _matches(asked, o))
    if asked == PRONOUN and len(hits) > 1:
        hits = [o for o in hits if any(_matches(n, o) for n in named)] or hits
    if asked in _ROLES and not hits:
        return SELF
    return hits[0] if len(hits) == 1 else (PRONOUN if hits else None)


def owned(
    sentence: str, book: FactBook, asked: list[tuple[str, str]], context: str = ""
) -> list[tuple[str, str]]:
    """``asked`` with each fact's owner as the request names it (see the module docstring)."""
    if not _has_others(book):
        return asked  # one person's facts: nothing to tell apart
    toks = _tokens(sentence)
    spans = _spans(toks)
    if not spans:
        return asked
    named = {s.owner for s in _spans(_tokens(context)) if s.owner not in (SELF, PRONOUN)}
    out: list[tuple[str, str]] = []
    for key, rule in asked:
        f = book.get(key)
        if f is None:
            out.append((key, rule))
            continue
        said = _asked_owner(f, toks, spans)
        if owner_of(f) and _field_at(f, toks, spans) is None and _owner_said(f, spans):
            continue  # its owner said, none of its field: the owner of another thing asked
        if said is None and owner_of(f) and _self_only(f, spans):
            said = SELF  # 'your first name' after 'your dependent's request' elsewhere
        if said is None:
            out.append((key, rule))
            continue
        out += _for_owner(f, rule, _resolve(said, book, named), book, named)
    out += _unfound(toks, spans, book, {k for k, _ in out}, named)
    return list({k: r for k, r in reversed(out)}.items())[::-1]


def _for_owner(f: Fact, rule: str, who: str | None, book: FactBook, named: set[str]) -> list[tuple[str, str]]:
    """The fact of the owner ``who`` of ``f``'s field: ``f`` itself, its twin, or none. A fact of
    the caller's that is no field each person has of their own (``whose.personal_fields``: a name,
    a date of birth, an employee ID, a confirmation number) stays: 'the new hire's start date', 'her
    relationship to you' are the caller's facts about that person."""
    keeps = [] if owner_of(f) or personal(f) else [(f.key, rule)]
    if who is None:
        return keeps  # a person the caller holds nothing of: not its own fact for theirs
    if who == SELF:
        if not owner_of(f):
            return [(f.key, rule)]
        twins = [g for g in book if not owner_of(g) and same_field(f, g)]
        return [(twins[0].key, f"whose_own:{f.key}")] if len(twins) == 1 else [(f.key, rule)]
    if _matches(who, owner_of(f)) and (who != PRONOUN or _one_person(f, book, named)):
        return [(f.key, rule)]
    twins = [g for g in book if g.key != f.key and _matches(who, owner_of(g)) and same_field(f, g)]
    if len(twins) > 1 and named:
        twins = [g for g in twins if any(_matches(n, owner_of(g)) for n in named)]
    return [(twins[0].key, f"{THIRD_PARTY}:{f.key}")] if len(twins) == 1 else keeps


def personal(f: Fact) -> bool:
    """Whether the fact is of a field each person has of their own (``whose.personal_fields``)."""
    return any(p <= set(f.words) for p in _PERSONAL)


def _one_person(f: Fact, book: FactBook, named: set[str]) -> bool:
    """'their ID' is ``f``'s owner's: the one other person of its field, or the one named around."""
    rivals = {owner_of(g) for g in book if owner_of(g) and same_field(f, g)}
    return len(rivals) <= 1 or any(_matches(n, owner_of(f)) for n in named)


def _unfound(
    toks: list[str], spans: list[_Span], book: FactBook, found: set[str], named: set[str]
) -> list[tuple[str, str]]:
    """Another person's facts whose field words all follow its owner said ('his name'), not found."""
    out = []
    for s in spans:
        if s.owner == SELF:
            continue
        who = _resolve(s.owner, book, named)
        if who is None or who == SELF:
            continue
        after = toks[s.end : s.end + 4]
        for g in book:
            if g.key in found or not _matches(who, owner_of(g)) or not _field(g):
                continue
            if all(any(_said(w, t) for t in after) for w in _field(g)):
                out.append((g.key, f"{THIRD_PARTY}:{s.owner}"))
    mine = [k for k, _ in out]
    return [(k, r) for k, r in out if not any(_field_contains(book, o, k) for o in mine if o != k)]


def _field_contains(book: FactBook, a: str, b: str) -> bool:
    """Fact ``a``'s field holds all of ``b``'s and more ('first name' over 'name')."""
    fa, fb = book.get(a), book.get(b)
    return fa is not None and fb is not None and set(_field(fa)) > set(_field(fb))


def _has_others(book: FactBook) -> bool:
    """Whether the book holds another person's facts (the keys' owners are read once per key)."""
    return any(owner_words(f.key)[0] for f in book.facts)


def owned_turn(requests: list[str], book: FactBook, asked: dict[str, str]) -> dict[str, str]:
    """:func:`owned` for the facts a turn asks by any rule (a head noun alone, the subject of a
    field the caller lacks: :mod:`.fallbacks`), each read in the request sentence that says its
    field or its owner; a fact no request sentence says is kept."""
    if not asked or not _has_others(book):
        return asked
    out: dict[str, str] = {}
    rest = dict(asked)
    for s in requests:
        toks = _tokens(s)
        spans = _spans(toks)
        mine = [(k, r) for k, r in rest.items() if (f := book.get(k)) is not None and _says(f, toks, spans)]
        if not spans or not mine:
            continue
        for k, _ in mine:
            rest.pop(k)
        out.update(owned(s, book, mine, " ".join(requests)))
    return {**rest, **out}


def _self_only(f: Fact, spans: list[_Span]) -> bool:
    """The request says 'your' and names no owner the fact is of."""
    mine = any(s.owner == SELF for s in spans)
    return mine and not any(_matches(s.owner, owner_of(f)) for s in spans if s.owner != SELF)


def _owner_said(f: Fact, spans: list[_Span]) -> bool:
    who = owner_of(f)
    return any(s.owner == PRONOUN or _matches(s.owner, who) for s in spans if s.owner != SELF)


def _says(f: Fact, toks: list[str], spans: list[_Span]) -> bool:
    """Whether a request sentence says the fact's field words, or its owner."""
    if _field_at(f, toks, spans) is not None:
        return True
    who = owner_of(f)
    return bool(who) and any(_matches(s.owner, who) for s in spans if s.owner not in (SELF, PRONOUN))
