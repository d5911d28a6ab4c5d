"""A reference agent turn said again in another scenario's facts (:mod:`.weak_refasks`).

A turn of one scenario says the values of its caller's facts ("Z K three F F W", "March
twentieth") and names their fields ("your six-character confirmation number", "the N P I"). To
put it to another scenario's caller, each of those is replaced by the other scenario's value or
label of the same value kind, and the rest of the turn's wording is kept. Where a value or a field
is said is found with the bench's own reading (:func:`.matcher.facts_said`, :func:`.matcher.key_words`,
:func:`.matcher.same_word`) on spans of the raw text's tokens, never by a list of the turn's words:

* a value's span is the shortest run of tokens that says it (spelled, in words or in digits);
* a field's span is the shortest run of tokens holding every word of its key, a spelled
  acronym's letters read as one word ('N P I' for 'npi');
* a value's own label is the key's words among the few tokens before it in its sentence
  ("Your D E A number is O K ..."): replaced with the value, so the new value is never read under
  the old field's name.

The caller of :func:`rewrite` checks the result (no value of the source left, each new field
named): a turn whose spans cannot be found is dropped, never patched.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import NamedTuple

from voxbench.bench.matcher import GoalFact, facts_said, key_words, same_word, words_of

_TOKEN = re.compile(r"\S+")
_MAX_VALUE = 24
"""Tokens a value is said in at most ('F L dash M D dash three zero zero five eight eight three eight')."""
_LABEL_BEFORE = 5
"""Tokens before a value in which its own label is looked for ('the supervising physician N P I as')."""
_GAP = 1
"""Tokens between two words of one field name at most ('facility code' in 'facility billing code';
not 'visa record under that petition number' for the visa petition number)."""
_LEAD = re.compile(r"^[^\w]+")
_TRAIL = re.compile(r"[^\w]+$")
_POSSESSIVE = re.compile(r"['’]s$", re.I)
_ABBREVIATION = re.compile(r"^(?:[A-Za-z]\.){2,}$")


class Tok(NamedTuple):
    start: int
    end: int
    text: str


class Span(NamedTuple):
    """Tokens ``first`` to ``last`` (excluded) of a turn."""

    first: int
    last: int


def tokens(text: str) -> list[Tok]:
    return [Tok(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text)]


def _joined(toks: list[Tok], span: Span) -> str:
    return " ".join(t.text for t in toks[span.first : span.last])


def _says(toks: list[Tok], span: Span, fact: GoalFact) -> bool:
    return bool(facts_said(_joined(toks, span), [fact]))


def value_spans(toks: list[Tok], fact: GoalFact) -> list[Span]:
    """Every shortest run of tokens that says the fact's value, none overlapping, in order."""
    out: list[Span] = []
    i, n = 0, len(toks)
    while i < n:
        hi = min(n, i + _MAX_VALUE)
        if not _says(toks, Span(i, hi), fact):
            i += 1
            continue
        last = next(j for j in range(i + 1, hi + 1) if _says(toks, Span(i, j), fact))
        first = max(k for k in range(i, last) if _says(toks, Span(k, last), fact))
        while last < n and _zero(toks[last].text):  # 'three zero zero': the matcher drops zeros
            last += 1
        while first > i and _zero(toks[first - 1].text) and not toks[first - 1].text.endswith((".", ":")):
            first -= 1
        out.append(Span(first, last))
        i = last
    return out


def with_year(toks: list[Tok], span: Span, year: str) -> Span:
    """A date's span run on over the year said after it ('August twenty-eighth, twenty twenty-six'):
    the new date is said whole, its year once."""
    for k in (4, 3, 2, 1):
        if span.last + k <= len(toks) and words_of(_joined(toks, Span(span.last, span.last + k))) == [year]:
            return Span(span.first, span.last + k)
    return span


def with_owner(toks: list[Tok], span: Span) -> Span:
    """The span with a possessive right before it ('the passenger's last name'): whose the field
    is in the source scenario goes with the field."""
    if span.first > 0 and _POSSESSIVE.search(_TRAIL.sub("", toks[span.first - 1].text)):
        return Span(span.first - 1, span.last)
    return span


def determined(toks: list[Tok], span: Span, determiners: set[str]) -> Span:
    """The span with the determiner before it ('your' colleague's employee ID): a label that brings
    its own ('the new hire's ID') replaces both."""
    if span.first > 0 and _word(toks[span.first - 1].text) in determiners:
        return Span(span.first - 1, span.last)
    return span


def _zero(tok: str) -> bool:
    """A token said for a zero ('zero', 'oh', 'O', '0', '00'): the matcher reads codes without them."""
    ws = words_of(tok)
    return bool(ws) and all(set(w) <= {"0"} for w in ws)


def spelled_run(toks: list[Tok], span: Span) -> bool:
    """A value said letter by letter ('Z K three F F W'): two single letters or more among its tokens."""
    return (
        sum(len(w) == 1 and w.isalpha() for w in (_word(t.text) for t in toks[span.first : span.last])) >= 2
    )


def _word(tok: str) -> str:
    return re.sub(r"[^a-z0-9]", "", _POSSESSIVE.sub("", _TRAIL.sub("", tok)).lower())


def _units(toks: list[Tok], lo: int, hi: int) -> list[tuple[str, Span]]:
    """The words of tokens ``lo``..``hi``, a run of single letters joined into one ('N P I' -> 'npi')."""
    out: list[tuple[str, Span]] = []
    i = lo
    while i < hi:
        w = _word(toks[i].text)
        j = i + 1
        if len(w) == 1 and w.isalpha():
            while j < hi and len(x := _word(toks[j].text)) == 1 and x.isalpha():
                w, j = w + x, j + 1
        if w:
            out.append((w, Span(i, j)))
        i = j
    return out


def _sentence_start(toks: list[Tok], i: int) -> int:
    j = i
    while j > 0 and not toks[j - 1].text.endswith((".", "?", "!", ":")):
        j -= 1
    return j


def label_before(toks: list[Tok], value: Span, key: str) -> Span | None:
    """The key's words among the few tokens before a value, in its sentence: from the first such
    token to the last ("D E A number" in "Your D E A number is O K ..."), else None."""
    lo = max(_sentence_start(toks, value.first), value.first - _LABEL_BEFORE)
    kws = key_words(key)
    hits = [s for w, s in _units(toks, lo, value.first) if any(same_word(w, k) for k in kws)]
    return Span(hits[0].first, hits[-1].last) if hits else None


def field_spans(toks: list[Tok], key: str) -> list[Span]:
    """Every shortest run of tokens that holds each word of the key ('six-character confirmation
    number' holds 'confirmation number'; 'N P I'), none overlapping, in order."""
    kws = key_words(key)
    units = _units(toks, 0, len(toks))
    out: list[Span] = []
    i = 0
    while kws and i < len(units):
        if not any(same_word(units[i][0], k) for k in kws):
            i += 1
            continue
        left, j, gap = set(kws), i, 0
        while j < len(units) and left and gap <= _GAP:
            hit = [k for k in left if same_word(units[j][0], k)]
            left -= set(hit[:1])
            gap = 0 if hit else gap + 1
            j += 1
        if left:
            i += 1
            continue
        last = max(x for x in range(i, j) if any(same_word(units[x][0], k) for k in kws))
        out.append(Span(units[i][1].first, units[last][1].last))
        i = last + 1
    return out


class Edit(NamedTuple):
    span: Span
    new: str


def rewrite(text: str, toks: list[Tok], edits: list[Edit]) -> str | None:
    """The text with each edit's tokens replaced by its words (the first token's leading and the
    last token's trailing punctuation kept); None when two edits overlap."""
    ordered = sorted(edits, key=lambda e: e.span.first)
    if any(a.span.last > b.span.first for a, b in pairwise(ordered)):
        return None
    out, at = [], 0
    for e in ordered:
        first, last = toks[e.span.first], toks[e.span.last - 1]
        lead = m.group() if (m := _LEAD.match(first.text)) else ""
        trail = m.group() if (m := _TRAIL.search(last.text)) else ""
        if _ABBREVIATION.match(last.text) and re.match(r" [a-z]", text[last.end : last.end + 2]):
            trail = ""  # 'I.D. for the swap': the stop is the abbreviation's, not the sentence's
        core = _TRAIL.sub("", last.text)
        if _POSSESSIVE.search(core):  # "Samantha's" said of another: the new value's too
            trail = core[-2:] + trail
        out += [text[at : first.start], lead, e.new, trail]
        at = last.end
    out.append(text[at:])
    return "".join(out)
