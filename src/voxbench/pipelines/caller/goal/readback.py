"""Facts the agent said back to the caller: with the caller's value, or a near miss of it."""

from __future__ import annotations

import re
from functools import cache

from voxbench.pipelines.caller.goal.confirmobj import asks_a_field
from voxbench.pipelines.caller.goal.cues import CONFIRM_ASKS
from voxbench.pipelines.caller.goal.facts import Fact, FactBook
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.speech import says, value_kind
from voxbench.spoken import compact, is_code, mentions, parse_time_value, runs, sentences_of, times
from voxbench.spoken.edits import one_dropped
from voxbench.spoken.say import EMAIL
from voxbench.spoken.words import MONTH_NAMES


def readbacks(text: str, book: FactBook) -> tuple[list[str], list[str]]:
    """Facts the agent said back: with the caller's value (:func:`said_right`), or with a near miss of it."""
    ok: list[str] = []
    wrong: list[str] = []
    rs = digit_runs(text, book)
    for f in book:
        if not f.matchable:
            continue
        if said_right(text, f, rs):
            ok.append(f.key)
        elif any(_near_miss(v, rs) for v in f.values()):
            wrong.append(f.key)
    return ok, wrong


def digit_runs(text: str, book: FactBook) -> list[str]:
    """The runs of characters with a digit (three or more) the text says, but those that are one of
    the caller's values: a run that is another of its values is that fact said, not this one misheard."""
    held = {compact(v) for f in book for v in f.values()}
    return [r for r in runs(text) if any(c.isdigit() for c in r) and len(r) >= 3 and r not in held]


def said_right(text: str, f: Fact, rs: list[str]) -> bool:
    """Whether the text says the fact's own value: one of its values as the caller holds it, or a
    long number by its last four digits ("the phone ending in four eight two nine"; ``rs``: the
    text's :func:`digit_runs`). The one statement of what a read-back says right, for the read-back
    check and for a closing read-back's values (:mod:`.closeread`)."""
    vals = f.values()
    return any(mentions(text, v) for v in vals) or any(_last_four(compact(v), rs) for v in vals)


def _last_four(flat: str, rs: list[str]) -> bool:
    """A long number (:data:`_LONG_NUMBER` digits or more) said by its last four digits."""
    return sum(ch.isdigit() for ch in flat) >= _LONG_NUMBER and any(
        len(r) == 4 and flat.endswith(r) for r in rs
    )


def _near_miss(value: str, rs: list[str]) -> bool:
    """A run of the value's length said one or two characters off it: a mishearing, not another
    code; or a long code with one character missed ('three three four two three, then one four
    four four' for 3342331444)."""
    c = compact(value)
    if len(c) < 4 or not _said_by_characters(value, c) or not any(ch.isdigit() for ch in c):
        return False
    return any(
        (len(r) == len(c) and sum(a != b for a, b in zip(r, c, strict=True)) <= min(2, len(c) // 3))
        or (len(c) >= 7 and one_dropped(c, r))
        for r in rs
    )


def _said_by_characters(value: str, flat: str) -> bool:
    """A value said character by character, whose near miss is a mishearing: a code, or a number of
    seven digits or more whatever its signs ('+1-206-555-0334': no code by its '+', a phone number
    read back one or two digits off all the same)."""
    return is_code(value) or (flat.isdigit() and len(flat) >= _LONG_NUMBER)


_LONG_NUMBER = 7
"""Digits of a number said digit by digit (a phone number), not an amount or a count."""


def asks_to_state(sentence: str, book: FactBook) -> bool:
    """'Can you confirm your home mailing address?': a confirm or verify verb whose object is 'your'
    and a field (:data:`.cues.CONFIRM_ASKS`: every word of one of the caller's fields, or a field
    by :func:`.confirmobj.asks_a_field`; not 'your booking') and that states no value (no digit, no month, none of the
    caller's values, no field named with another value) reads nothing back: it asks the caller to
    state the field, a request (held, it says it; lacked, that it does not have it)."""
    m = CONFIRM_ASKS.match(sentence)
    if m is None or re.search(r"\d|\b(" + "|".join(MONTH_NAMES) + r")\b", sentence, re.I):
        return False
    words = set(re.findall(r"[a-z]+", m.group("field").lower()))
    name = {w for f in book if (fw := field_words(f)) and set(fw) <= words for w in fw}
    if not name and not asks_a_field(m.group("field"), book):
        return False
    ok, wrong = readbacks(sentence, book)
    stated = [k for k in ok + wrong if not _named_not_said(book.get(k), words, sentence)]
    return not stated and not misread(sentence, book)


def _named_not_said(f: Fact | None, name: set[str], sentence: str) -> bool:
    """A value found only as words of the field's own name ('pto' in 'your pto end date', 'TB_TEST'
    of a list of task codes in 'your completion codes tb test') or as the initials of its words
    ('MA' in 'mailing address'): not a value said."""
    if f is None:
        return False
    vs = [v.lower() for v in f.values() if mentions(sentence, v)]  # those the sentence says
    if vs and all(set(re.findall(r"[a-z]+", v)) <= name and not re.search(r"\d", v) for v in vs):
        return True
    v = str(f.value).lower()
    return v.isalpha() and len(v) <= 4 and v not in runs(sentence)


# -- a field named with a value that is not the caller's ---------------------------------------

_SELF = set(phrases("readback", "self_words"))
_FILLER = set(phrases("readback", "key_filler"))
STATE_WORDS = set(phrases("readback", "state_words"))
PERSON_WORDS = set(phrases("readback", "person_words"))
_LINK = "|".join(phrases("readback", "links"))
_LEAD = re.compile(rf"^\s*(?:'s\b|s\b)?[\s:=-]*(?:(?:{alt('readback', 'value_lead')})\b[\s:]*)*", re.I)
_NOT_VALUE = set(phrases("readback", "not_value"))
VALUE_END = re.compile(rf"[,;?!]|\.(?:\s|$)|\s(?:{alt('readback', 'value_end')})\b", re.I)


def field_words(f: Fact) -> list[str]:
    """The words that name a fact's field, as its key writes them ('preferred_date': 'preferred
    date', not 'date' alone): its leaf's for a listed record's field ('origin', not the record's
    'original travel details'), the key's filler and a leading word for the caller itself
    ('passenger') left out."""
    parts = f.key.split(".")
    key = (
        parts[-1] if len(parts) > 2 and parts[-2].isdigit() else " ".join(p for p in parts if not p.isdigit())
    )
    leaf = [
        w
        for w in re.split(r"[^a-z0-9]+", re.sub(r"\(.*?\)|'s\b", " ", key).lower())
        if w and w not in _FILLER
    ]
    while len(leaf) > 1 and leaf[0] in _SELF:
        leaf = leaf[1:]
    return leaf


@cache
def phrase_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    sep = rf"(?:'s)?(?:\s+(?:{_LINK}))*[\s_-]+"
    return re.compile(r"\b" + sep.join(re.escape(w) for w in words) + r"(?:'s|s)?\b", re.I)


def said_after(sentence: str, end: int) -> str:
    """The value said after a field's name ('your last name is Rossi, right?' -> 'Rossi')."""
    rest = sentence[end:]
    rest = rest[_LEAD.match(rest).end() :]  # type: ignore[union-attr]
    if address := EMAIL.match(rest):  # an address said, 'dot' and 'at' in it
        return address.group(0)
    m = VALUE_END.search(rest)
    seg = (rest[: m.start()] if m else rest).strip(" .")
    first = seg.split()[0].lower() if seg.split() else ""
    return "" if not first or first in _NOT_VALUE or len(seg.split()) > 6 else seg


def same_kind_other(seg: str, value: str, kind: str) -> bool:
    """``seg`` holds a value of ``kind`` and it is not ``value``."""
    if compact(seg) == compact(value) or says(seg, value) or mentions(seg, value):
        return False
    if kind == "date":
        return bool(
            re.search(r"\b(" + "|".join(MONTH_NAMES) + r")\s+\d{1,2}\b|\b\d{4}-\d{2}-\d{2}\b", seg, re.I)
        )
    if kind == "time":
        said, held = parse_time_value(seg), parse_time_value(value)
        if said is not None and held is not None:
            return said != held
        return bool(times(seg) or re.search(r"\b\d{1,2}:\d{2}\b", seg))
    if kind == "measure":  # '14_inch' against '49 inch': its number
        return re.findall(r"\d+", seg)[:1] not in ([], re.findall(r"\d+", value)[:1])
    if kind in ("number", "money"):  # not a code, written or spelled: 'FL2', 'F-L-2', 'F L 2'
        joined = re.sub(r"(?<=\b[A-Za-z0-9])[\s-]+(?=[A-Za-z0-9]\b)", "", seg)
        return bool(re.search(r"\d", seg)) and not re.search(r"[A-Za-z]\d|\d[A-Za-z]", joined)
    if (
        kind == "code"
    ):  # one token of capitals and digits ('ORD', 'GQSIKP', '+1-415-555-1082'), of about its length
        token = _TOKEN.fullmatch(seg.strip())
        return token is not None and abs(len(compact(seg)) - len(compact(value))) <= 2
    if kind == "name":
        return bool(re.fullmatch(r"[A-Z][A-Za-z'-]+(?: [A-Z][A-Za-z'-]+){0,2}", seg))
    if kind == "email":  # another address, written or said ('t dot wexler at mailbox dot com')
        return bool(EMAIL.search(seg))
    return False


def misread(text: str, book: FactBook) -> dict[str, str]:
    """Facts the text names by their field's words followed by another value of their kind ('your
    last name is Rossi', 'I have your start time as 13:00'): key -> the key of the caller's fact
    whose value was said instead ('' if none). An occurrence after a state word the fact's key
    does not have ('the *new* flight date is ...' for the original one) is another field's; the
    change the caller wants said for the field it changes is no misreading (:func:`_changing`)."""
    out: dict[str, str] = {}
    facts = [f for f in book if not isinstance(f.value, list | dict | bool) and str(f.value).strip()]
    for s in sentences_of(text):
        for f in facts:
            kind = fact_kind(f)
            if (
                kind not in ("date", "time", "number", "money", "code", "name", "measure", "email")
                or f.key in out
            ):
                continue
            own = set(f.words) | set(re.split(r"[^a-z]+", f.key.lower()))  # 'preferred_time': 'preferred' too
            for m in phrase_pattern(tuple(field_words(f))).finditer(s):
                before = re.findall(r"[a-z]+", s[: m.start()].lower())[-2:]
                if set(before) & (
                    (STATE_WORDS | PERSON_WORDS) - own
                ):  # 'the new date', 'your colleague's ID'
                    continue
                seg = said_after(s, m.end())
                if mentions(s, str(f.value)):  # its value is said, cut at a comma ('7 1 1 6 0, 9 6 8 7 4')
                    break
                if (seg and same_kind_other(seg, str(f.value), kind) and not _any_named_value(seg, f, facts)
                        and not _changing(seg, f, facts)):  # fmt: skip
                    out[f.key] = next((o.key for o in facts if o is not f and says(seg, str(o.value))
                                       and (kind != "email" or fact_kind(o) == kind)), "")  # fmt: skip
                    break
    out.update({k: v for k, v in _full_name_misread(text, facts).items() if k not in out})
    return out


def _changing(seg: str, f: Fact, facts: list[Fact]) -> bool:
    """The value said is the change the caller wants to a field of this kind ('1:00 PM', its
    'requested_new_departure_time', read back as the booking's departure time): not a misreading."""
    return any(
        o.wanted and o.words[-1:] == f.words[-1:] and says(seg, str(o.value)) for o in facts if o is not f
    )


_TOKEN = re.compile(r"\+?[A-Z0-9][A-Z0-9-]*")
_YOUR_NAME = re.compile(
    rf"\b(?:{alt('readback', 'name_owner')})\s+(?:(?:{alt('readback', 'full')})\s+)?(?:{alt('readback', 'name')})\b",
    re.I,
)


def _full_name_misread(text: str, facts: list[Fact]) -> dict[str, str]:
    """'Your name is David Park' where the caller is someone else: its first and last name, and the
    fact whose value was said ('' if none)."""
    own = [f for f in facts if f.words and f.words[-1] == "name" and not set(f.words) & PERSON_WORDS]
    first = next((f for f in own if "first" in f.words), None)
    last = next((f for f in own if "last" in f.words), None)
    if first is None or last is None:
        return {}
    for s in sentences_of(text):
        for m in _YOUR_NAME.finditer(s):
            seg = said_after(s, m.end())
            if (
                seg
                and same_kind_other(seg, str(first.value), "name")
                and compact(seg) != compact(str(last.value))
            ):
                whose = next((o.key for o in facts if o not in (first, last) and says(seg, str(o.value))), "")
                return {first.key: whose, last.key: whose}
    return {}


def fact_kind(f: Fact) -> str:
    """The value's kind (:func:`.speech.value_kind`); a text value that is one token of capitals and
    digits ('ORTHOPEDICS', '+1-415-555-1082') is a code, a number and a unit ('14_inch') a measure,
    an address with an '@' an email."""
    kind = value_kind(f.value, f.words)
    v = str(f.value).strip()
    if kind == "text" and _TOKEN.fullmatch(v):
        return "code"
    if kind == "text" and re.fullmatch(r"\d+[ _-]?[a-z]+", v):
        return "measure"
    if kind == "text" and EMAIL.fullmatch(v):
        return "email"  # read back with one part off ('.com' for '.org'), another address
    return kind


def _any_named_value(seg: str, f: Fact, facts: list[Fact]) -> bool:
    """The value said is that of another of the caller's facts the same words name ('start date'
    for the PTO and the leave start date): not a misreading. Another person's fact ('dependent last
    name') is not named by the caller's own field's words: its value there is the misreading."""
    words = field_words(f)
    mine = set(f.words) & PERSON_WORDS
    return any(o is not f and field_words(o)[-len(words) :] == words and set(o.words) & PERSON_WORDS <= mine
               and says(seg, str(o.value)) for o in facts)  # fmt: skip
