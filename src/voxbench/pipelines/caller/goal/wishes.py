"""A confirm or verify request for a field the caller holds only as a wish or a limit.

"Please confirm your departure time." asks for a value of the booking as it is. A caller whose
fact for that field is what it wants ('preferred_departure_time_if_asked: 8:15 AM') or a bound it
sets ('latest_acceptable_arrival_time: 4 PM'), not the booking's value, must not say it as that
value ("It's 8:15 AM."): a person says what it knows, as what it is.

* It holds the booking's own value of the field too ('original_travel_details.0.departure_time',
  one of them): that is what is confirmed; the wish is not asked.
* It holds only the wish or the limit: it says it with its label ("My preferred departure time is
  8:15 AM.", "My latest acceptable arrival time is 4 PM."), never bare.

A wish is a fact whose key has a want word (:attr:`.facts.Fact.wanted`) or a limit word
(``wishes.limit_words``: 'latest', 'maximum', 'constraint'); its field is the rest of its words
less the words of a state ('original', 'new'); the booking's value of it is a fact, no wish,
whose words hold the whole field. Only a confirm or verify verb's request reads this way
(:data:`.cues.CONFIRM_ASKS`), and only one that does not name the wish by its own words: 'What
departure time would you like?' and 'Can you confirm your desired new departure date?' ask for it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voxbench.pipelines.caller.goal.cues import CONFIRM_ASKS
from voxbench.pipelines.caller.goal.facts import WANT_WORDS, Fact, FactBook, key_tokens
from voxbench.pipelines.caller.goal.labels import STATE_WORDS
from voxbench.pipelines.caller.goal.lang import phrases
from voxbench.spoken import sentences_of

if TYPE_CHECKING:
    from voxbench.pipelines.caller.goal.classify import Heard
    from voxbench.pipelines.caller.goal.drafts import Draft
    from voxbench.pipelines.caller.goal.say import FactSayer

_LIMITS = frozenset(phrases("wishes", "limit_words"))


def is_wish(f: Fact) -> bool:
    """Whether the fact is what the caller wants or a bound it sets, not a value it has."""
    return f.wanted or bool(set(key_tokens(f.key)) & _LIMITS)


def current_of(f: Fact, book: FactBook) -> Fact | None:
    """The booking's own value of the field the wish ``f`` names (None: none, or more than one)."""
    field = set(f.words) - WANT_WORDS - _LIMITS - STATE_WORDS
    if len(field) < 2:
        return None
    have = [o for o in book if o is not f and not is_wish(o) and field <= set(o.words)]
    return have[0] if len(have) == 1 else None


def wish_named(sentences: list[str], book: FactBook) -> dict[str, str]:
    """A confirm or verify request naming a wish's field whole but none of its wish words ('Please
    confirm your arrival time.' to a caller holding 'latest_acceptable_arrival_time'), which no
    key match finds: the wish, asked (rule ``confirm_wish_field``)."""
    out: dict[str, str] = {}
    for s in sentences:
        m = CONFIRM_ASKS.match(s)
        said = set(re.findall(r"[a-z]+", m.group("field").lower())) if m else set()
        for f in book:
            field = set(f.words) - WANT_WORDS - _LIMITS - STATE_WORDS
            if said and is_wish(f) and len(field) >= 2 and field <= said:
                out[f.key] = "confirm_wish_field"
    return out


def confirm_object(question: str) -> set[str] | None:
    """The words of what a confirm or verify verb's request asks for ('Please confirm your
    departure time.': departure, time); None when the question is no such request."""
    found = [m for s in sentences_of(question) if (m := CONFIRM_ASKS.match(s)) is not None]
    return {w for m in found for w in re.findall(r"[a-z]+", m.group("field").lower())} if found else None


def wishes_confirmed(heard: Heard, d: Draft, book: FactBook, say: FactSayer) -> bool:
    """Read a confirm request's wishes (see the module docstring): a wish with the booking's value
    held is swapped for it in ``heard.asked`` (False: answered as any ask); when every fact asked
    is a wish, the draft says each with its label, and True."""
    said = confirm_object(heard.question) if heard.asked else None
    if said is None:
        return False
    asked, wishes = [], []
    for k in heard.asked:
        f = book.get(k)  # 'confirm your desired new departure date' names the wish: it is asked
        wish = (
            f is not None
            and is_wish(f)
            and not set(key_tokens(f.key)) & (WANT_WORDS | _LIMITS | STATE_WORDS) & said
        )
        now = current_of(f, book) if f is not None and wish else None
        asked.append(now.key if now is not None else k)
        wishes += [k] if wish and now is None else []
    heard.asked = list(dict.fromkeys(asked))
    if not wishes or len(wishes) < len(heard.asked):
        return False
    d.parts.append(say.answer(wishes))  # not as asked: its label said ('My preferred ... is')
    d.facts += wishes
    d.kind, d.rule = "answer", "confirm_wish_as_wish"
    return True
