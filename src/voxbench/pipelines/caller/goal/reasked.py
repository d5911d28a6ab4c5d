"""Facts a turn says the values of, and those it asks for again all the same: the one home of
the rules for a value the agent said.

A value the agent says is no request for it ('forget the network called CorpNet':
:func:`not_said_by_agent`), unless it is one of the choices offered or the agent asks for that
field again by name in a request of its own (:func:`asked_again`). Read back with a second fact
and asked again together ('I have 3902 for the phone number and Jason for the first name. Can
you repeat your phone number and first name?'), the caller gave the name alone (weak class
``readback_both_asked``): :func:`said_and_asked_again` takes back each fact a request saying
'again' asks, a re-ask of the shape seen live in ``make run`` ('Could you give me your
confirmation number and last name again?' answered 'It's Whitfield.').
"""

from __future__ import annotations

import re
from functools import lru_cache

from voxbench.pipelines.caller.goal.asks import asked_facts
from voxbench.pipelines.caller.goal.facts import SYNONYMS, Fact, FactBook, stem
from voxbench.pipelines.caller.goal.lang import alt
from voxbench.pipelines.caller.goal.rules import CONTEXT
from voxbench.pipelines.caller.goal.turn import Turn
from voxbench.spoken import mentions


def _a(name: str) -> str:
    return alt("requested", name)


# A request for a value, not a step to try ('What is the error code?', 'Please tell me ...').
ASKS_VALUE = re.compile(rf"^({_a('value_wh_lead')})\b|\b({_a('value_verb')})\b", re.I)
_LINK = alt("requested", "label_link")
"""What joins a field name said last word first ('type of pto', 'date of birth')."""
_CHOICE_CUE = re.compile(rf"\b({_a('choice_cue')})\b", re.I)
_ASKS_AGAIN = re.compile(rf"\b(?:{_a('asks_again')})\b", re.I)
"""A request for a value said again, or by the asker's getting it ('Can I get your code and last
name again?', 'Can you repeat your code and last name?')."""

_REASKED = re.compile(
    rf"\b(?:{alt('reask', 'verbs')})\b.*\b(?:{alt('reask', 'again')})\b|\b(?:{alt('reask', 'repeat_your')})\b",
    re.I,
)
"""A request for values given before: a giving verb and 'again', or 'repeat your'."""


def said_and_asked_again(
    t: Turn, book: FactBook, asked: dict[str, str], kept: dict[str, str]
) -> dict[str, str]:
    """Facts whose values the turn says, asked again by name in a request saying so ('I have 3902
    and Jason. Can you repeat your phone number and first name?'): each is asked, though its key
    has a word the request leaves out ('Phone number (if requested for contact)'). 'Again' of no request for a value ('an aisle
    seat again?') and 'slowly' or 'read' (one value read over) are not enough."""
    if len(kept) == len(asked):
        return kept
    again = {
        k
        for s in t.requests
        if _REASKED.search(s)
        for k, r in asked_facts(s, book)
        if not r.startswith(CONTEXT)
    }
    return {k: r for k, r in asked.items() if k in kept or k in again}


def not_said_by_agent(t: Turn, book: FactBook, asked: dict[str, str]) -> dict[str, str]:
    """A fact whose value the agent just said is not asked for ("forget the network called
    CorpNet"), unless it said it as one of the choices ("The category can be your own
    condition, a family member's serious illness, or bonding") or asks for it again by name in a
    request of its own (:func:`asked_again`). A value said only inside a field's name ('pto' in
    'What is the pto type?') is not said (:func:`beside_labels`)."""
    choices = [x for x in t.sents if _CHOICE_CUE.search(x)]
    return {
        k: r
        for k, r in asked.items()
        if r == "which_of_its_own"
        or not (
            (f := book.get(k))
            and f.matchable
            and says_value(t.text, book, f)
            and not any(mentions(c, v) for c in choices for v in f.values())
        )
        or asked_again(t, book, k)  # read only for a value the turn says
    }


def says_value(text: str, book: FactBook, f: Fact) -> bool:
    """Whether ``text`` says one of the fact's values outside every field name it says
    (:func:`beside_labels`, read only when the value is said at all)."""
    values = [v for v in f.values() if mentions(text, v)]
    if not values:
        return False
    stated = beside_labels(text, book)
    return any(mentions(stated, v) for v in values)


def beside_labels(text: str, book: FactBook) -> str:
    """``text`` with each field name of two words or more that it says blanked out ('What is the
    pto type?' -> 'What is the ?'): a value that is a word of a field's name (a PTO type 'pto',
    a contact method 'phone' beside a 'phone number') is said by a turn only outside that name;
    naming the field asks for it. A one-word name ('email') is as often the value itself ('by
    email'), so it is kept."""
    names = {tuple(n) for f in book for n in (f.words, tuple(f.key_phrase.split())) if len(n) >= 2}
    found = _field_names(tuple(sorted(names, key=lambda n: (-len(" ".join(n)), n))))
    return found.sub(" ", text) if found is not None else text


@lru_cache(maxsize=64)
def _field_names(names: tuple[tuple[str, ...], ...]) -> re.Pattern[str] | None:
    """The field names as said, one pattern (a book's names, longest first, so a longer name is
    blanked whole): its key's words in order, each word or what an agent says for it ('pto type',
    'paid time off type'), or its last word first ('type of pto', 'date of birth')."""
    forms = []
    for words in names:
        said = [_said_as(w) for w in words]
        forms.append(r"\W+".join(said))
        forms.append(rf"{said[-1]}\W+(?:{_LINK})\W+" + r"\W+".join(said[:-1]))
    return re.compile(rf"\b(?:{'|'.join(forms)})s?\b", re.I) if forms else None


def _said_as(word: str) -> str:
    """A key word, or a word or phrase an agent says for it (``synonyms``), as a regex."""
    said = (r"\W+".join(map(re.escape, a.split())) for a in (word, *SYNONYMS.get(word, ())))
    return f"(?:{'|'.join(said)})"


def asked_again(t: Turn, book: FactBook, key: str) -> bool:
    """The agent stated the value, then asks for the field again ('I'll check the free desks on
    floor three. Please provide the floor code.'): a request sentence that does not say the value,
    asks for one (a giving verb or a wh-question), names the fact by all its key words, and names
    no other fact the more specific ('the departure date' is not the desired new departure date's)."""
    f = book.get(key)
    if f is None or not _field_words(f) or isinstance(f.value, list | dict):  # a list said is options
        return False
    for s in t.requests:
        asks = ASKS_VALUE.search(s) or _ASKS_AGAIN.search(s)
        if not asks or says_value(s, book, f):
            continue
        said = [stem(w) for w in re.findall(r"[a-z0-9]+", s.lower())]  # words as said: 'first', not '1'
        named = [g for g in book if (w := _field_words(g)) and all(stem(x) in said for x in w)]
        if _as_phrase(_field_words(f), said) and not any(
            set(_field_words(f)) < set(_field_words(g)) for g in named
        ):
            return True
    return False


def _as_phrase(words: tuple[str, ...], said: list[str]) -> bool:
    """The field's words said as its name, in order, at most one word between two ('date of
    birth'), not scattered ('the completion code for that task' does not name the task code)."""
    stems = [stem(w) for w in words]
    for i, w in enumerate(said):
        if w != stems[0]:
            continue
        at, ok = i, True
        for x in stems[1:]:
            nxt = next((j for j in range(at + 1, min(at + 3, len(said))) if said[j] == x), None)
            if nxt is None:
                ok = False
                break
            at = nxt
        if ok:
            return True
    return False


def _field_words(f: Fact) -> tuple[str, ...]:
    """A fact's key words but those of the listed record it is in ('original_travel_details.0.origin':
    'origin'), which a request for the field leaves out."""
    return tuple(w for w in f.words if w not in f.record_words)
