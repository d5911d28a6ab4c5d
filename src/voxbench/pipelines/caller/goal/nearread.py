"""A value read back for the caller to confirm, known by its kind: the caller's fact nearest it.

An agent reads values back in any wording: "Confirming: Wexler, member ID HR58241?", "Just to
confirm, March 13?", "t.wexler@mailbox.com is your email, correct?", "so that's L I N A right".
:func:`.readback.misread` needs a field's words before the value, in one order; a read-back often
names no field, or names it after the value. Stated once for a class of turns:

* a turn **reads back** (:func:`reads_back`) when one of its sentences opens with a read-back lead
  ('confirming', 'to confirm', 'so that's', 'you said') or closes with a confirm tag ('is that
  right', 'does that look right') after what it reads back, with or without a question mark (a
  recogniser drops it). A bare 'right' or 'correct' is a tag only set off by a comma, asked ('?'),
  or after a lead: '... the second door on your right.' reads nothing back, nor does 'Yes, that's
  correct.' (it affirms);
* in such a turn, every date, time, amount of money, e-mail address and name it says is read with
  the spoken-values readers (:mod:`voxbench.spoken`) and set against the caller's facts of that
  kind: equal to one of them, it is that fact read back right; else **near** one (one digit, day,
  hour or character off: a mishearing), it is the nearest fact read back wrong, and the caller
  corrects it. A value near none (another amount, a new code) is no read-back of the caller's and
  is left alone. A fact the caller wants changed ('preferred', 'new': ``wanted``) is not read by
  kind alone: a value of its kind is an offer, answered as one;
* where a value is read (:data:`_OWN_KINDS`): a date, time, amount or name only in a sentence
  about its fact or of nothing but values (:func:`_only_about`; a name also where the sentence
  says its field's head word, 'the name on the account is ...'), as others sit near them (a leave
  ends September 25, the check-in is on the 26th; 'Mark from payroll' is one letter from 'Mary').
  A sentence's first word is capitalised whatever it is: a name only when the caller's other name
  follows it. An address is read in any sentence, near only with one part the same and the other
  one edit off ('hr@' on the caller's own domain is another mailbox). Neither a name nor an address
  is read in a sentence naming another person ('your husband', 'Dr.': ``readback.person_words``,
  ``nearread.titles``).

Codes and long numbers said one or two characters off are found by :func:`.readback.readbacks`;
the lead and tag here let a turn without 'correct?' count as checking them too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from difflib import SequenceMatcher

from voxbench.pipelines.caller.goal.facts import Fact, FactBook, stem
from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.readback import fact_kind
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.spoken import ISO_DATE, Date, compact, dates, mentions, money, parse_time_value, times
from voxbench.spoken.edits import one_changed, one_edit
from voxbench.spoken.say import EMAIL, written_email
from voxbench.spoken.words import MONTH_NAMES

_LEAD = re.compile(rf"^(?:(?:{alt('nearread', 'filler')})[,.]?\s+)*(?:{alt('nearread', 'lead')})\b", re.I)
_TAG = re.compile(rf"(?:^|[,\s])(?:{alt('nearread', 'tag')})\s*[?.!]*$", re.I)
_BARE_TAG = re.compile(rf"(?:^|(?P<comma>,)|\s)\s*(?:{alt('nearread', 'bare_tag')})\s*(?P<q>\?)?[.!]*$", re.I)
_OTHER_PERSON = re.compile(
    rf"\b(?:{alt('readback', 'person_words')}|{alt('nearread', 'titles')})(?:'s)?\b", re.I
)
_AFFIRM = re.compile(rf"(?:^|\s)(?:{alt('nearread', 'affirm')})$", re.I)
_SPELLED = re.compile(r"(?<![\w'])[A-Za-z](?:[\s-]+[A-Za-z]\b){2,}")
_CAPITAL = re.compile(r"\b[A-Z][a-z'-]{2,}\b")


def reads_back(sentences: list[str]) -> bool:
    """A turn that asks the caller to confirm what it says: a read-back lead, or a confirm tag
    after what it reads back ('..., is that right', 'L I N A right'; not 'Yes, that is correct.',
    which affirms)."""
    return any(_LEAD.search(s) or _tagged(s) for s in sentences)


def _tagged(sentence: str) -> bool:
    """A confirm tag closes the sentence. A bare 'right' or 'correct' counts only set off by a comma,
    asked ('?'), or after a read-back lead: 'the second door on your right.' reads nothing back."""
    m = _TAG.search(sentence)
    if m is None:
        m = _BARE_TAG.search(sentence)
        if m is None or not (m.group("comma") or m.group("q") or _LEAD.search(sentence)):
            return False
    before = sentence[: m.start()].strip(" ,").lower()
    if not before:  # 'Is that right?' after what it reads back; 'Correct.' alone affirms
        return sentence.rstrip().endswith("?")
    return not _AFFIRM.search(before)


def near_reads(sentences: list[str], book: FactBook) -> dict[str, str]:
    """Facts read back wrong by kind: key -> the value said (see the module doc)."""
    facts = [f for f in book if not f.wanted and isinstance(f.value, str) and fact_kind(f) in _READERS]
    out: dict[str, str] = {}
    for s in sentences:
        named = [f for f in book if any(mentions(s, v) for v in f.values())]
        right = {f.key for f in named}
        other = bool(_OTHER_PERSON.search(s))  # 'your husband ...', 'Dr. Mario Vance': not the caller's
        for kind, (read, close) in _READERS.items():
            if other and kind in _OWN_KINDS:
                continue
            values = read(s, book)
            drop = {stem(w.lower()) for v in values for w in str(v).split()} if kind == "name" else set()
            own = [
                f
                for f in facts
                if fact_kind(f) == kind
                and (kind == "email" or _names_field(s, f, kind) or _only_about(s, f, named, drop))
            ]
            for said in values if own else []:
                if any(close(said, f.value) == 0 for f in own):
                    continue  # one of its own values, said right
                near = sorted(
                    (d, f.key) for f in own if f.key not in right and (d := close(said, f.value)) > 0
                )
                if near and (len(near) == 1 or near[0][0] < near[1][0]):
                    out.setdefault(near[0][1], str(said))
    return out


_OWN_KINDS = ("email", "name")
"""Kinds another person has too: never read in a sentence naming another person (a person word, a
title: 'your husband', 'Dr.'). An address is read in any other sentence (near only one edit from
the caller's, :func:`_email_closeness`); a name, like a date, time or amount, only in a sentence
about its field or of nothing but values (:func:`_only_about`): 'Mark from payroll' and 'Late
check-out' are one letter from 'Mary' and 'Lane'."""
_PLAIN = {stem(w) for w in phrases("nearread", "plain")} | {
    stem(w) for w in phrases("nearread", "value_words")
}


def _names_field(sentence: str, f: Fact, kind: str) -> bool:
    """A name read in a sentence that says its field's head word ('the name on the account is ...')."""
    return kind == "name" and bool(f.words) and stem(f.words[-1]) in content_words(sentence)


def _only_about(sentence: str, f: Fact, named: list[Fact], drop: set[str]) -> bool:
    """The sentence names nothing but the fact and others it says right ('I have March 13 as your
    birth date', 'booking QX7TLM, travelling July 5, last name Lima'), or nothing but values ('Just
    to confirm, March 13?'): no other thing its value could be of ('your check-in on September 28',
    'the 12:05 option ... arriving at 4:20'). Words meet by their stems, one the start of the other
    ('travelling', 'travel')."""
    said = content_words(sentence) - _PLAIN - set(MONTH_NAMES)
    said -= {w for o in named for v in o.values() for w in content_words(v)}  # 'Lima' said right
    said -= drop  # the names it says, read as values
    own = {stem(w) for o in [f, *named] for w in o.words}
    return all(
        any(a.startswith(b) or b.startswith(a) for b in own if min(len(a), len(b)) >= 4) or a in own
        for a in said
    )


_FAR = -1
"""Not near: another value, no mishearing of the caller's."""


def _date_closeness(said: object, value: str) -> int:
    """A date one day, one digit of its day, or one month off (the year, when said, one digit off)."""
    m = ISO_DATE.match(value)
    if m is None or not isinstance(said, Date):
        return _FAR
    y, mo, d = (int(g) for g in m.groups())
    sy, smo, sd = said.year, said.month, said.day
    year_off = sy is not None and sy != y
    if (smo, sd) == (mo, d):
        return 0 if not year_off else (1 if one_changed(str(sy), str(y)) else _FAR)
    if year_off:
        return _FAR
    if smo == mo and (abs(sd - d) == 1 or one_changed(f"{sd:02d}", f"{d:02d}")):
        return abs(sd - d)
    return 31 if sd == d and abs(smo - mo) == 1 else _FAR


def _time_closeness(said: object, value: str) -> int:
    """A time one hour off, or with one digit of its minutes off (on a twelve-hour dial)."""
    held = parse_time_value(value)
    if held is None or not isinstance(said, tuple):
        return _FAR
    (sh, sm), (h, m) = said, held
    if (sh % 12, sm) == (h % 12, m):
        return 0
    if sm == m and (sh - h) % 12 in (1, 11):
        return 60
    return abs(sm - m) if sh % 12 == h % 12 and one_changed(f"{sm:02d}", f"{m:02d}") else _FAR


def _money_closeness(said: object, value: str) -> int:
    """An amount with one digit off, cents included ('$347.50' for '$342.50')."""
    held = money(value)
    if not held or not isinstance(said, float):
        return _FAR
    a, b = f"{said:.2f}".replace(".", ""), f"{held[0]:.2f}".replace(".", "")
    return 0 if a == b else (1 if one_changed(a, b) else _FAR)


def _email_closeness(said: object, value: str) -> int:
    """An address with one part the same and the other near: one edit off, most of its characters,
    or the domain with another ending ('.com' for '.org'). Another mailbox on the caller's domain
    ('hr@' for 'mchen@') is another address, not a mishearing."""
    a, b = written_email(str(said)), value.lower()
    if a == b:
        return 0
    (la, _, da), (lb, _, db) = a.partition("@"), b.partition("@")
    if la == lb:
        return 1 if _part_near(da, db) or da.rsplit(".", 1)[0] == db.rsplit(".", 1)[0] else _FAR
    return 1 if da == db and _part_near(la, lb) else _FAR


def _part_near(a: str, b: str) -> bool:
    return one_edit(a, b) or SequenceMatcher(None, a, b).ratio() >= 0.8


def _name_closeness(said: object, value: str) -> int:
    """A name of four letters or more with one letter off, its first letter kept ('Wexner'); its
    letters alone compared ('M E I L I N G' is 'Mei-Ling' spelled)."""
    a, b = compact(str(said)), compact(value)
    if a == b:
        return 0
    return 1 if " " not in value.strip() and len(b) >= 4 and a[:1] == b[:1] and one_edit(a, b) else _FAR


def _names_said(s: str, book: FactBook) -> list[object]:
    """Capitalised words and letters spelled one by one ('W E X N E R'), joined. A sentence's first
    word is capitalised whatever it is ('Mark from payroll ...'): a name only when the caller's other
    name follows it ('Marz Hall')."""
    held = {compact(str(f.value)) for f in book if fact_kind(f) == "name" and isinstance(f.value, str)}
    out: list[object] = []
    for m in _CAPITAL.finditer(s):
        first = not s[: m.start()].strip(" \"'([")
        after = s[m.end() :].split()
        if not first or (after and compact(after[0]) in held):
            out.append(m.group(0))
    return out + [re.sub(r"[\s-]+", "", m.group(0)) for m in _SPELLED.finditer(s)]


_Reader = Callable[[str, FactBook], list[object]]
_READERS: dict[str, tuple[_Reader, Callable[[object, str], int]]] = {
    "date": (lambda s, _: list(dates(s)), _date_closeness),
    "time": (lambda s, _: list(times(s)), _time_closeness),
    "money": (lambda s, _: list(money(s)), _money_closeness),
    "email": (lambda s, _: [m.group(0) for m in EMAIL.finditer(s)], _email_closeness),
    "name": (_names_said, _name_closeness),
}
"""Per kind: the values of that kind a sentence says, and how near one is to a value held (0:
the same; a positive distance: near, a mishearing; :data:`_FAR`: another value)."""


def mark_near_reads(sentences: list[str], heard: Heard, book: FactBook, off: list[str]) -> None:
    """In a turn that reads back (:func:`reads_back`), the facts it says near but not right (:func:`near_reads`, and ``off``: the
    codes and long numbers :func:`.readback.readbacks` found one or two characters off): read back
    wrong, so corrected; neither asked ('your phone is 415-555-0193?' names the field it reads
    back) nor read back right (a turn that asked only them asks nothing)."""
    if not reads_back(sentences):
        return
    near = [*near_reads(sentences, book), *off]
    found = [k for k in dict.fromkeys(near) if k not in heard.readback_wrong + heard.readback_ok]
    if not found:
        return
    heard.readback_wrong += found
    heard.asked = [k for k in heard.asked if k not in found]
    heard.rules += [f"nearread:{k}" for k in found]
    if not heard.asked and "request" in heard.kinds:
        heard.kinds.remove("request")
