"""Three forms an agent's turn takes when a small agent's speech reaches the caller through speech
recognition, each read by its form and by what it says of the caller's own facts (words in
``goal/lang/<lang>.json``, ``phrases.forms``), never by a listed sentence:

* **a read-back said as a statement** (its question mark lost): the turn's last sentence, nothing
  asked in the turn, in the second person ('So your employee ID is E M P one two three.', 'So
  you'd like to move your flight to May 5.'), that states one of the caller's values (right or
  wrong): the agent waits for a yes or a correction, as for "..., right?". A report in the same
  form states none of its values ('You're all set.', 'Your ticket has been created.'), and a turn
  that reports something done ('All set. ... Your confirmation number remains A Z three U M
  nine.') or says more before it than a short lead ('Got it.', 'I found your reservation.') is a
  summary: both stay reports;
* **a request cut off** before or inside its object ('Can you give me your.', 'Please provide the
  conf.'): a request, the turn's last sentence, asking no fact the caller holds or lacks, that ends
  on a determiner or a verb of giving, or on a token that is no word of the caller's facts or the
  agent's turns but the first letters of one ('conf' of 'confirmation', 'DE' of 'DEA'): a person
  asks what is needed;
* **"do you have a/any X?"** where X is a preference or a field ('Do you have a floor
  preference?'): the caller's facts X names are said after a yes; with none, a no (unless the
  goal's own text answers, :mod:`.yesno`).
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.asks import asked_facts
from voxbench.pipelines.caller.goal.cues import COMPLETED, DONE_VERB, NOT_DONE, WH
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.facts import HEADS, Fact, FactBook, stem
from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.holds import HOLD
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.readback import (
    fact_kind,
    field_words,
    misread,
    phrase_pattern,
    readbacks,
    said_after,
)
from voxbench.pipelines.caller.goal.speech import says
from voxbench.pipelines.caller.goal.stated import misstated
from voxbench.pipelines.caller.goal.turn import Turn
from voxbench.spoken import compact, dates, mentions, times

_SAID_DONE = pattern("named_done")
"""A sentence saying a thing is done, confirmed or submitted, whatever its subject: a report, not
a read-back for the caller to confirm (:meth:`.ending.Endings.named_done` reads which request)."""


def _a(name: str) -> str:
    return alt("forms", name)


_LEAD = rf"^(?:(?:{_a('check_lead')})[,.!]?\s+)*"
_CHECK = re.compile(rf"{_LEAD}(?:{_a('check_subject')}|{_a('check_want')})\b", re.I)
_LEAD_WORDS = 5
"""The longest sentence before a read-back said as a statement ('I found your reservation.')."""
_CLAUSES = re.compile(rf",\s|\b(?:{_a('and')})\b|;", re.I)
_DONE = re.compile(rf"\b{DONE_VERB}\b", re.I)
_WANT = re.compile(rf"{_LEAD}(?:{_a('check_want')})\b", re.I)
_CUT_END = re.compile(rf"\b(?:{_a('cut_determiner')})\s*[.!,?]*$", re.I)
_CUT_VERB = re.compile(rf"\b(?:{_a('cut_verb')})(?:\s+(?:{_a('me')}))?\s*[.!,?]*$", re.I)
"""'Can you give me.': a verb of giving with no object; not in a wh-question ('What would you like to share?')."""
_CUT_WORD = re.compile(rf"\b(?:{_a('cut_determiner')})\s+(?P<w>[A-Za-z]+)\s*[.!,?]*$", re.I)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z']*")
_CODE = re.compile(r"\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9-]{3,}\b")
"""A code written as one token of letters and digits ('POL-2028-ZOYN9Q', 'GJPZ-57Y')."""
_HAVE_Q = re.compile(
    rf"^(?:\w+[,.!]?\s+)*?(?:{_a('have_lead')})\s+(?:{_a('article')})\s+(?P<x>[^?]+?)\s*\??$", re.I
)
PREFERENCE_WORDS = frozenset(phrases("forms", "preference_words"))
_OR = re.compile(rf"\b(?:{_a('or')})\b", re.I)


def reports_done(sentence: str, book: FactBook) -> bool:
    """A completion phrase (:data:`.cues.COMPLETED`), unless all the sentence does is state one of
    the caller's own values as its field, one clause, no done verb in it: 'Your confirmation number
    is ZK3FFW.' with the caller's own number reads it back, where another number would be a new
    reference ('..., and your confirmation number is ZK3FFW.' closes a summary)."""
    if not COMPLETED.search(sentence) or NOT_DONE.search(sentence):
        return False
    body = re.sub(_LEAD, "", sentence, flags=re.I)  # 'Okay, ' is no clause
    return bool(_DONE.search(sentence) or _CLAUSES.search(body)) or not named_right(sentence, book)


def check_statement(t: Turn, book: FactBook) -> str:
    """The turn's last sentence when it reads the caller's things back in the second person as a
    statement and the turn asks nothing else ('' otherwise; whether it states one of the caller's
    values is :func:`states_own`'s to say)."""
    if (
        t.questions
        or t.requests
        or not t.sents
        or any(reports_done(x, book) or _SAID_DONE.search(x) for x in t.sents)
    ):
        return ""  # a turn that reports something done ('Your PTO request is confirmed.') is a report
    if any(len(x.split()) > _LEAD_WORDS for x in t.sents[:-1]):
        return ""  # the read-back is the turn ('Got it. Your ...'); after news, a summary's last line
    s = t.sents[-1]
    return s if _CHECK.match(s) and not HOLD.match(s) else ""


def _known_words(book: FactBook, texts: list[str]) -> set[str]:
    """Words the turn's last token may be a cut of: the caller's key words and values, and the agent's
    words (this turn's and the one before)."""
    ws = {w.lower() for f in book for w in (*f.words, *re.split(r"[^A-Za-z]+", f.key)) if w}
    ws |= {w.lower() for f in book for v in f.values() for w in _TOKEN.findall(v)}
    ws |= {w.lower() for t in texts for w in _TOKEN.findall(t)}
    return ws


def cut_request(t: Turn, book: FactBook, before: str = "") -> str:
    """The turn's last sentence when it is a request cut off before or inside its object ('' if not)."""
    if not t.sents or t.sents[-1] not in t.requests:
        return ""
    s = t.sents[-1]
    if _CUT_END.search(s) or (_CUT_VERB.search(s) and not WH.match(s)):
        return s
    m = _CUT_WORD.search(s)  # 'the conf': a determiner, then what is left of its noun
    if m is None:
        return ""
    last = m.group("w").lower()
    known = _known_words(book, [before, *t.sents[:-1]]) | {
        w.lower() for w in _TOKEN.findall(s[: m.start("w")])
    }
    if len(last) < 2 or last in known:
        return ""
    return s if any(len(w) > len(last) and w.startswith(last) for w in known) else ""


def have_question(question: str) -> str:
    """X of 'Do you have a/any X?' when X ends on a preference word or a field's head ('floor
    preference', 'preference for the seat', 'confirmation number'); '' otherwise ('a moment')."""
    m = _HAVE_Q.match(question.strip())
    if m is None or _OR.search(m.group("x")):
        return ""
    ws = [w.lower() for w in _TOKEN.findall(m.group("x"))]
    return m.group("x") if set(ws) & PREFERENCE_WORDS or (ws and ws[-1] in HEADS) else ""


def preference_facts(x: str, book: FactBook) -> list[str]:
    """The caller's preferences 'X preference' names: facts it wants or prefers whose other words X
    says ('floor preference': 'desired_floor'; 'date preference': 'preferred_date', not the leave
    dates, nor 'desired_new_departure_date' whose other words it does not say); none when X is no
    preference or names none."""
    said = {stem(w) for w in _TOKEN.findall(x.lower())}
    if not said & {stem(w) for w in PREFERENCE_WORDS}:
        return []

    def rest(f: Fact) -> set[str]:
        return {stem(w) for w in f.words if w not in PREFERENCE_WORDS}

    prefs = [
        f
        for f in book
        if (f.wanted or set(f.words) & PREFERENCE_WORDS) and f.source == "information_required"
    ]
    named = [f.key for f in prefs if rest(f) and rest(f) <= said]
    return named if 1 <= len(named) <= 2 else []


def named_right(sentence: str, book: FactBook) -> list[str]:
    """Facts the sentence names by their field's words and says with their own value, short values
    too ('Your attendee count is 6.', which :func:`.readback.readbacks` leaves to longer values)."""
    out = []
    for f in book:
        if (
            isinstance(f.value, bool)
            or not isinstance(f.value, str | int | float)
            or not (ws := field_words(f))
        ):
            continue
        for m in phrase_pattern(tuple(ws)).finditer(sentence):
            seg = said_after(sentence, m.end())
            if seg and any(
                compact(seg) == compact(v) or says(seg, v) or mentions(seg, v) for v in f.values()
            ):
                out.append(f.key)
                break
    return out


YES_AND_VALUE = "yes_and_value"
"""The rule of a turn answered with a yes and the facts it names ('Yes. Floor three.')."""


def want_named(t: Turn, book: FactBook) -> list[str]:
    """The caller's facts a want said as a statement names by their words but states no value of
    ('So you want the seat.', the recogniser's 'you want to win the seat.'): a person says yes and
    the value; [] for any other turn, or one that states a value (a read-back: yes or a correction)."""
    s = check_statement(t, book)
    if not s or not _WANT.match(s) or states_own(s, book):
        return []
    return [k for k, _ in asked_facts(s, book)]


def wanted_wrong(sentence: str, book: FactBook) -> list[str]:
    """A want said as a statement with a date, time or code that is none of the caller's of its kind ('So
    you'd like to move your flight to May 5.', its new date March 25): the one fact of that kind it
    wants, read back wrong; [] when the sentence says one of its values of the kind, or it wants
    none or several of it."""
    if not _WANT.match(sentence):
        return []
    out = []
    codes = _CODE.findall(sentence)
    for kind, said in (("date", dates(sentence)), ("time", times(sentence)), ("code", codes)):
        held = [f for f in book if fact_kind(f) == kind and isinstance(f.value, str)]
        if not said or any(mentions(sentence, v) for f in held for v in f.values()):
            continue
        wanted = [f for f in held if f.wanted]
        if kind == "code" and len(wanted) > 1:  # several codes wanted: the one of the said code's shape
            wanted = [f for f in wanted if {_shape(c) for c in codes} & {_shape(v) for v in f.values()}]
        out += [wanted[0].key] if len(wanted) == 1 else []
    return out


def _shape(code: str) -> str:
    """A code's shape: letters as 'A', digits as '9' ('GJPZ-57Y' -> 'AAAA-99A')."""
    return re.sub(r"\d", "9", re.sub(r"[A-Za-z]", "A", code.strip()))


def states_own(sentence: str, book: FactBook) -> bool:
    """The sentence states one of the caller's values, right or wrong: said whole or a near miss of
    a code (:func:`.readback.readbacks`), named by its field's words with its value or another
    (:func:`named_right`, :func:`.readback.misread`, :func:`.stated.misstated`), or a want's date or
    time (:func:`wanted_wrong`)."""
    ok, wrong = readbacks(sentence, book)
    return bool(ok or wrong or named_right(sentence, book) or misread(sentence, book)
                or misstated([sentence], book) or wanted_wrong(sentence, book))  # fmt: skip


def statement_check(t: Turn, book: FactBook) -> tuple[str, list[str], list[str]]:
    """(the statement read back, facts it names with their own value, wants it states wrong) of a
    turn that ends on one (:func:`check_statement`, :func:`states_own`); ('', [], []) otherwise."""
    s = check_statement(t, book)
    if not s or not states_own(s, book):
        return "", [], []
    return s, named_right(s, book), wanted_wrong(s, book)


def read_forms(t: Turn, heard: Heard, book: FactBook, before: str, asked: dict[str, str]) -> dict[str, str]:
    """The facts asked once the forms above are read (a preference question asks the caller's
    preference its words name); a cut request and a have-question leave their rule in ``heard``."""
    x = have_question(heard.question)
    prefs = preference_facts(x, book) if x else []
    if prefs and set(asked) != set(prefs):
        asked = {k: "preference_named" for k in prefs if k not in heard.lacking}
    wanted = want_named(t, book)
    if wanted and not asked:  # 'So you want the window seat' heard 'you want to win the seat.'
        asked = {k: "want_named" for k in wanted}
    if (x or wanted) and asked:
        heard.rules.append(YES_AND_VALUE)
    if not asked and not heard.lacking and cut_request(t, book, before):
        heard.rules.append("cut_request")
    return asked
