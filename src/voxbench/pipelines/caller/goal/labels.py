"""A fact's key said in words, and nouns agreeing with a count: the labels the goal caller's
sentences (:mod:`.say`) are built on, kept apart from the sentence building."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from voxbench.pipelines.caller.goal.facts import DROP_WORDS, Fact
from voxbench.pipelines.caller.goal.lang import phrases
from voxbench.pipelines.caller.goal.speech import GENERAL_ACRONYMS, label

_SAYS_NOTHING = DROP_WORDS - {"new", "preferred", "requested", "desired", "of", "for", "at", "in", "on", "to"}
"""Key words a label leaves out ('phone_number_if_asked': 'if', 'asked'; 'usd'); the words that
say what the caller wants stay ('new return date')."""


STATE_WORDS = {"original", "current", "new", "old", "previous", "desired", "preferred", "requested"}
"""A group's word that a field inside it keeps ('original_travel_details.0.departure_time':
'original departure time')."""


def fact_label(f: Fact, acronyms: AbstractSet[str] = GENERAL_ACRONYMS) -> str:
    """A fact's key in words (:func:`.speech.label`). A named part of a fact comes first
    ('completion_codes.TB_TEST' -> 'T B test completion code'); a field of a listed item is
    said by its own name, with the group's state word ('original_travel_details.0.departure_time'
    -> 'original departure time')."""
    parts = f.key.split(".")
    top, leaf = parts[0], parts[-1]
    words = label(top, _SAYS_NOTHING, acronyms).split()
    if len(parts) > 2 and not leaf.isdigit():
        state = [w for w in words[:1] if w in STATE_WORDS]
        own = label(leaf, _SAYS_NOTHING, acronyms).split()
        words = state + [w for w in own if w not in state]
    elif len(parts) == 2 and not leaf.isdigit() and not leaf.endswith("choice") and words:
        last = words[-1][:-1] if plural(words[-1]) and not isinstance(f.value, list) else words[-1]
        words = label(leaf, _SAYS_NOTHING, acronyms).split() + words[:-1] + [last]
    return " ".join(words) or label(f.key, (), acronyms) or "answer"


_ROLES = frozenset(phrases("own_label", "roles"))
_ID_HEADS = frozenset(phrases("own_label", "identifier_heads"))


def as_self(words: list[str]) -> list[str]:
    """A label of the caller's own field said as a person says it of themself, the role word the
    key names them by left out: 'passenger first name' -> 'first name' ('My first name is Jason.',
    not 'My passenger first name is Jason.': a passenger the caller has). A role word before an
    identifier head alone stays: 'employee ID', 'member number' are the identifier's name."""
    low = [w.lower() for w in words]
    if len(low) >= 2 and low[0] in _ROLES and not (len(low) == 2 and low[1] in _ID_HEADS):
        return words[1:]
    return words


_UNOWNED = frozenset(phrases("speech", "unowned_heads"))
_THINGS = frozenset(phrases("speech", "thing_heads"))
_THING_META = frozenset(phrases("speech", "thing_meta"))


def owned(words: list[str]) -> bool:
    """Whether a person says a label as theirs ('my employee ID', 'my start date'). Not when its
    head is a thing the caller uses or asks about rather than has ('application', 'target system',
    'equipment type': the head, or the word before a meta word last; ``speech.thing_heads``), nor
    a bare noun that needs a qualifier to be anyone's ('date', 'fee': ``speech.unowned_heads``):
    'The application is Confluence.', not 'My application is Confluence.'."""
    low = [w.lower() for w in words]
    if len(low) == 1 and low[0] in _UNOWNED:
        return False
    head = low[-2] if len(low) >= 2 and low[-1] in _THING_META else low[-1] if low else ""
    return head not in _THINGS


def plural(word: str) -> bool:
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ics"))


def agree(word: str, n: int) -> str:
    """A noun in the number of ``n`` ('days' -> 'day' for 1, 'attendee' -> 'attendees' for 6)."""
    if n == 1 and plural(word):
        return word[:-3] + "y" if word.endswith("ies") else word[:-1]
    if n != 1 and not plural(word):
        return word[:-1] + "ies" if re.search(r"[^aeiou]y$", word) else word + "s"
    return word


def agree_phrase(words: list[str], n: int) -> str:
    """The head of a counted phrase agrees: a plural word if it has one ('coworkers affected'),
    else its last ('attendee' -> 'attendees')."""
    head = next((i for i, w in enumerate(words) if plural(w)), len(words) - 1)
    return " ".join(agree(w, n) if i == head else w for i, w in enumerate(words))


def is_count(value: object) -> bool:
    return not isinstance(value, bool) and bool(re.fullmatch(r"\d{1,3}", str(value).strip()))
