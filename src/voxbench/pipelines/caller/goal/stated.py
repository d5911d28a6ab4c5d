"""A field of the caller's stated, in any agent turn, with a value that is not the caller's.

A confirmation question is checked by :func:`.readback.misread` (a field's words and a value of its
kind). A completion report, a summary or an "anything else?" turn states the caller's values too,
and a serious caller corrects a wrong one of its own before it acknowledges or hangs up: "Your
request has been submitted. That is for a footrest delivery to B L D two, floor F L one. Anything
else?" to a caller whose delivery building is East Campus. Two things differ from a read-back:

* the field may be named by the role its value plays rather than by the key's own words: the key's
  modifier and a place's preposition ('delivery to X' for ``delivery_building`` and
  ``delivery_floor``); which of those facts X is, is told by the value (a unit's abbreviation,
  'B L D two': the building) or by elimination (the floor said right in the same sentence);
* the value may be of another kind than the caller's (a code, 'BLD2', for a name, 'East Campus'):
  the caller cannot tell the two are one place, and says its own, as a person does.

It holds back where a correction would be false or not the caller's to make: a value the sentence
also says right in any form :func:`voxbench.spoken.mentions` knows (spelled, spoken numbers, unit
abbreviations, initials); a value that is another of the caller's own facts (the agent is stating
that one: 'I have first name Isla' for the dependent); a field of another person or record (a
person or state word before it: 'your manager's building', 'the new date'); a value the call may
settle otherwise or the agent computes (a preference, a limit, a fee or total: ``stated.not_held``);
a sentence that offers or supposes ('I can deliver to ...', 'if ...': ``stated.offer``); a value
that is prose, not a code, name, date, time or number.
"""

from __future__ import annotations

import re
from functools import cache

from voxbench.pipelines.caller.goal.facts import HEADS, Fact, FactBook
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.readback import (
    PERSON_WORDS,
    STATE_WORDS,
    VALUE_END,
    fact_kind,
    field_words,
    phrase_pattern,
    said_after,
    same_kind_other,
)
from voxbench.pipelines.caller.goal.speech import says, unit_form
from voxbench.spoken import compact, mentions, runs, tokens

_PLACE_HEADS = set(phrases("stated", "place_heads"))
_BARE = set(phrases("stated", "bare_places")) | HEADS
"""A key of one of these words alone names a kind of thing, not which one ('floor', 'date')."""
_NOT_HELD = set(phrases("stated", "not_held"))
_OFFER = re.compile(rf"\b(?:{alt('stated', 'offer')})\b", re.I)
_LEAD = alt("stated", "place_lead")
_NAME = re.compile(r"[A-Z][A-Za-z'-]+(?: (?:[A-Z][A-Za-z'-]+|\d{1,4}))*")
"""A capitalised name, a number in it ('East Campus', 'Building 2'); four words at most."""
_CODE = re.compile(r"\+?[A-Za-z0-9][A-Za-z0-9-]*")
_VERB = re.compile(rf"\s(?:{alt('stated', 'verb')})\b", re.I)
_THE = alt("stated", "the")
"""Where a role's value ends before the sentence goes on ('delivery to Building 2 is booked')."""
_YEAR = re.compile(r"^,?\s*(\d{4})\b")
_KINDS = ("date", "time", "number", "code", "name", "measure", "text")


_HELD: dict[tuple[str, str, str, tuple[str, ...]], bool] = {}


def _held(f: Fact) -> bool:
    """:func:`_holds`, once per fact (a turn asks it of every fact of the caller)."""
    k = (f.key, type(f.value).__name__, str(f.value), f.words)
    if k not in _HELD:
        if len(_HELD) > 20000:
            _HELD.clear()
        _HELD[k] = _holds(f)
    return _HELD[k]


def _holds(f: Fact) -> bool:
    """A value the caller holds as fixed: not what it wants or prefers, a limit or an amount the
    agent computes; a code, name, date, time or number, or a proper name ('East Campus'), not prose."""
    v = str(f.value).strip()
    if isinstance(f.value, list | dict | bool) or not v or f.wanted:
        return False
    if set(re.split(r"[^a-z]+", f.key.lower())) & _NOT_HELD or fact_kind(f) not in _KINDS:
        return False
    return fact_kind(f) != "text" or (bool(_NAME.fullmatch(v)) and len(v.split()) <= 4)


@cache
def _words(key: str) -> tuple[str, ...]:
    """The words that name a field (:func:`.readback._field_words`: they depend on its key alone)."""
    return tuple(field_words(Fact(key, None, ())))


def _a_value(seg: str, f: Fact) -> bool:
    """``seg`` reads as a value for the field: one of its kind (:func:`.readback._same_kind_other`);
    for a code, name or place name also a code (written, 'BLD2', 'CorpNet-8G', or spelled, 'B L D
    two') or a capitalised name, of either kind (an agent's system code for the caller's place
    name); a person's name is not a code, unless the caller's own value holds a digit."""
    kind, v = fact_kind(f), str(f.value)
    if kind in ("date", "time", "number", "measure"):
        return same_kind_other(seg, v, kind)
    s = seg.strip()
    code = _one_token(s) or _spelled(s)
    name = bool(_NAME.fullmatch(s)) and len(s.split()) <= 4
    return name or (code and (kind != "name" or any(c.isdigit() for c in v)))


def _one_token(seg: str) -> bool:
    """A code written as one token holding a digit ('BLD2', 'PTPL-MGENG-34', '+1-415-555-1082')."""
    return bool(_CODE.fullmatch(seg)) and any(c.isdigit() for c in seg)


def _spelled(seg: str) -> bool:
    """A code spelled out: single letters and digits only, one run of them ('B L D two')."""
    ts = [t for t in tokens(seg) if t not in (",", "dash", "-")]
    return len(ts) >= 2 and all(len(t) == 1 or t.isdigit() for t in ts) and len(runs(seg)) == 1


def _someone_elses(before: str, f: Fact) -> bool:
    """A person or state word just before the field's words that its own key does not have ('your
    manager's building', 'the new delivery date'): another's field."""
    own = set(f.words) | set(re.split(r"[^a-z]+", f.key.lower()))
    return bool(set(re.findall(r"[a-z]+", before.lower())[-2:]) & ((STATE_WORDS | PERSON_WORDS) - own))


def _other_value(seg: str, f: Fact, book: FactBook) -> bool:
    """``seg`` is a value for ``f`` that is none of the caller's values (not this one said another
    way, not another of its facts the agent is stating: that whole value, not a part of a code)."""
    v = str(f.value)
    if not seg or compact(seg) == compact(v) or says(seg, v) or not _a_value(seg, f):
        return False
    token = _one_token(seg) or _spelled(seg)
    others = [str(o.value) for o in book if not isinstance(o.value, list | dict | bool) and o.matchable]
    return not any(compact(seg) == compact(o) or (not token and says(seg, o)) for o in others)


def _value_after(s: str, end: int) -> str:
    """The value said after a field's words (:func:`.readback._said_after`), a date with its year
    ('September 18, 2027': the comma does not end it)."""
    seg = said_after(s, end)
    at = s.find(seg, end) if seg else -1
    year = _YEAR.match(s[at + len(seg) :]) if at >= 0 else None
    return f"{seg}, {year.group(1)}" if year and re.search(r"[A-Za-z]+\s+\d{1,2}$", seg) else seg


def _by_words(s: str, f: Fact, book: FactBook) -> str:
    """The value said after the field's own words ('the delivery building is B L D two'), if wrong.
    A key that is a bare kind of thing ('floor', 'date') names no field of the caller's in a
    statement: 'based in building B L D three, floor F L two' is its profile, not the floor it wants."""
    words = _words(f.key)
    if (len(words) == 1 and words[0] in _BARE) or words[-1][:4] not in s.lower():  # its words are not said
        return ""
    for m in phrase_pattern(words).finditer(s):
        if _someone_elses(s[: m.start()], f):
            continue
        seg = _value_after(s, m.end())
        if _other_value(seg, f, book):
            return seg
    return ""


@cache
def _role(modifier: tuple[str, ...]) -> re.Pattern[str]:
    words = r"[\s_-]+".join(re.escape(w) for w in modifier)
    return re.compile(rf"\b{words}(?:'s|s)?\s+(?:{_LEAD})\s+(?:(?:{_THE})\s+)?", re.I)


def _by_role(s: str, book: FactBook, places: list[Fact]) -> dict[str, str]:
    """'delivery to X': the key's modifier and a place's preposition name a place fact of the caller
    (``delivery_building``, ``delivery_floor``); X is the one its unit names ('B L D two': building),
    else the only one of them the sentence neither says right nor names by its own head word."""
    out: dict[str, str] = {}
    for modifier in dict.fromkeys(_words(f.key)[:-1] for f in places):
        group = [f for f in places if _words(f.key)[:-1] == modifier]
        for m in _role(modifier).finditer(s):
            if _someone_elses(s[: m.start()], group[0]):
                continue
            rest = s[m.end() :]
            cut = [c.start() for c in (VALUE_END.search(rest), _VERB.search(rest)) if c is not None]
            seg = rest[: min(cut, default=len(rest))].strip(" .")
            f = _which_place(seg, s, group)
            if f is not None and f.key not in out and _other_value(seg, f, book):
                out[f.key] = seg
    return out


def _which_place(seg: str, sentence: str, group: list[Fact]) -> Fact | None:
    rs = runs(seg)
    unit = (unit_form(rs[0]) if len(rs) == 1 else None) or (seg.split()[0].lower() if seg.split() else "")
    named = [f for f in group if unit.split()[:1] == [_words(f.key)[-1]]]
    if named:
        return named[0]
    left = [f for f in group if not mentions(sentence, str(f.value))
            and not re.search(rf"\b{re.escape(_words(f.key)[-1])}\b", sentence, re.I)]  # fmt: skip
    return left[0] if len(left) == 1 else None


def misstated(sentences: list[str], book: FactBook) -> dict[str, tuple[str, str]]:
    """The caller's facts the sentences state with a value not theirs: key -> (the value said, the
    sentence). A sentence that offers or supposes, or says the fact's own value anywhere, states
    nothing wrong."""
    held = [f for f in book if _held(f)]
    places = [f for f in held if len(w := _words(f.key)) > 1 and w[-1] in _PLACE_HEADS]
    out: dict[str, tuple[str, str]] = {}
    for s in sentences:
        if _OFFER.search(s):
            continue
        found = {f.key: seg for f in held if f.key not in out and (seg := _by_words(s, f, book))}
        found.update({k: v for k, v in _by_role(s, book, places).items() if k not in found and k not in out})
        out.update({k: (v, s) for k, v in found.items() if not mentions(s, str(book.get(k).value))})  # type: ignore[union-attr]
    return out
