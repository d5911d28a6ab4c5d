"""Facts the goal caller says without being asked for them, and offers of what it wants.

A person asked what new date it wants, or read back the change it asked for, says the limits
the new booking must meet with it ("March 25. I need to arrive by 4 PM and keep it under $120.");
accepting an offer, it states the ranked preferences the offer touches (seat); offered its own
first choice ("Would you like an aisle seat again?"), it says yes.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.facts import Fact, FactBook, stem
from voxbench.pipelines.caller.goal.lang import alt, alts, phrases
from voxbench.pipelines.caller.goal.options import ANY_AUX
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.spoken import mentions


def _a(name: str) -> str:
    return alt("volunteer", name)


# A fact key that states a limit the caller's change must meet.
LIMIT_KEY = re.compile(rf"(?i)(?<![a-z])({_a('limit_key')})(?![a-z])")
_RANKED_KEY = re.compile(rf"({_a('ranked')})_(?:{_a('choice')})$")
_RANK_WORDS = tuple(phrases("volunteer", "rank_words"))
_WIDER = _a("wider")


# Any auxiliary: an offer is a wish ('Would you like an aisle seat?'), a proposal ('Shall I book
# the aisle seat?') or a question of fact ('Is the aisle seat OK?').
_YES_NO = re.compile(rf"^(?:\w+,\s+)?({ANY_AUX})\s+({alts('questions', 'subject', 'person')})\b", re.I)


def offers_what_it_wants(book: FactBook, question: str) -> bool:
    """A yes/no question offering the value of something the caller wants (its first choice,
    a wanted value)."""
    if not _YES_NO.match(question):
        return False
    return any(
        (f.wanted or f.key.endswith("first_choice"))
        and f.matchable
        and any(mentions(question, v) for v in f.values())
        for f in book
    )


def constraints_for(book: FactBook, given: set[str], keys: list[str]) -> list[str]:
    """The caller's limits on the change it wants ('Maximum total rebooking cost', 'Latest
    acceptable arrival time', ranked seat choices), not said yet: a person asked what new date
    it wants, or read back the change, says what the new booking must meet with it."""
    if not any((f := book.get(k)) is not None and (_is_change(f) or LIMIT_KEY.search(f.key)) for k in keys):
        return []  # asked for the change it wants, or one of its limits ('date_constraint_earliest_departure')
    return [
        f.key
        for f in book
        if f.source == "information_required"
        and f.key not in given
        and f.key not in keys
        and (LIMIT_KEY.search(f.key) or (f.top != f.key and f.key.endswith("_choice")))
    ]


def _is_change(f: Fact) -> bool:
    """A wanted date or time ('desired_return_date'): the change its limits go with. Not any new value
    ('new_facility_code' in a DEA transfer is no reason to state the malpractice limits)."""
    return f.wanted and bool({"date", "time"} & set(f.heads))


def touched_preferences(book: FactBook, given: set[str], text: str) -> list[str]:
    """Ranked preferences (first/second choice) to state when accepting an offer.

    Those whose subject the offer mentions ('seat'), and those not stated yet: accepting a
    booking is when its nice-to-haves matter ("Yes, the 1 PM. Window if available, aisle if not.").
    """
    words = content_words(text)
    out: list[str] = []
    for f in book:
        if _RANKED_KEY.search(f.key):
            subject = [w for w in f.distinctive if w not in _RANK_WORDS]
            if subject and (all(stem(w) in words for w in subject) or f.key not in given):
                out.append(f.key)
    return out


_FALLBACK_WORDS = set(phrases("volunteer", "fallback_words"))


def fallback_for_offer(book: FactBook, given: set[str], question: str) -> str | None:
    """Offered a wider search ('Would you like me to check any floor in Headquarters instead?'), the
    caller names its fallback of that kind ('fallback_floor'): the one place it will take."""
    for f in book:
        if f.key in given or not set(f.words) & _FALLBACK_WORDS or not f.words or not f.matchable:
            continue
        tail = f.words[-1]
        if re.search(rf"\b({_WIDER})\s+(\w+\s+)?{tail}s?\b", question, re.I):
            return f.key
    return None


# -- the part of a booking a change is to, and what stays ------------------------------------------

_LEG_WORDS = {w: leg for leg in ("outbound", "return") for w in phrases("volunteer", f"{leg}_words")}
"""Key words that name one part of a two-part booking (the way out, the way back)."""

_KEEP_WORDS = set(phrases("volunteer", "keep_words"))
"""Key words that say a value must stay as it is ('return_date_must_remain')."""

_ROUTE = re.compile(rf"^\s*[A-Z]{{3}}\s+(?:{_a('route_link')})\s+[A-Z]{{3}}\s*$")


def _leg(f: Fact) -> str | None:
    return next((_LEG_WORDS[w] for w in _key_words(f) if w in _LEG_WORDS), None)


def _key_words(f: Fact) -> list[str]:
    return re.split(r"[^a-z]+", f.key.lower())


def _legs(book: FactBook) -> list[tuple[Fact, Fact]]:
    """The (origin, destination) facts of each listed leg of the booking, in order."""
    out: list[tuple[Fact, Fact]] = []
    for f in book:
        parts = f.key.split(".")
        if len(parts) == 3 and parts[2] == "origin":
            dest = book.get(f"{parts[0]}.{parts[1]}.destination")
            if dest is not None:
                out.append((f, dest))
    return out


def change_parts(book: FactBook, keys: list[str]) -> tuple[list[str], list[str], str | None]:
    """Stating a change it wants to a booking ('target_outbound_date'), a person names the part it
    changes by its route and, when the booking has another part, says that one stays as it is
    ("Change the outbound, ORD to MIA, to June 3. Keep the June 12 return."). Returns the route's
    keys (a route fact, else the leg's origin and destination), the keys of what stays, and the
    part's name when the booking has two; said before or not, since they describe the change
    rather than disclose something new."""
    change = next((f for k in keys if (f := book.get(k)) is not None and _is_change(f)), None)
    if change is None:
        return [], [], None
    leg = _leg(change)
    legs = _legs(book)
    routes = [f for f in book if "." not in f.key and any(_ROUTE.match(v) for v in f.values())]
    own = [f for f in routes if _leg(f) == leg] or [f for f in routes if _leg(f) is None]
    route: list[str] = [own[0].key] if own and (len(own) == 1 or leg is not None) else []
    if not route and legs:
        i = 1 if leg == "return" and len(legs) > 1 else 0
        route = [legs[i][0].key, legs[i][1].key]
    stays = [
        f.key
        for f in book
        if "." not in f.key and f.key not in keys and {"date", "time"} & set(f.heads) and (
            _KEEP_WORDS & set(_key_words(f))
            or (len(legs) > 1 and leg is not None and _leg(f) not in (None, leg) and not f.wanted)
        )
    ]  # fmt: skip
    two = len(legs) > 1 or len(routes) > 1
    return route, stays, leg if two else None
