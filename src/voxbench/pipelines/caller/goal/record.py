"""A record read back that is not the caller's: 'You have a flight from New York to Los Angeles on
May 11' when the caller's own flight (its facts, its goal's text) is Phoenix to Denver on May 13.

The field-named read-back (:func:`.readback.misread`) needs a field's words ('your origin is X');
a record described by its places and date names none. A sentence about the caller's own record
('your reservation ...', 'you have a flight ...', or 'It's for a flight ...' after 'I found your
reservation.') one of whose places (of the kind the caller holds: codes against codes, names
against names) is none of the caller's, or whose date is none of the caller's dates, is another
record, though its other parts are right ('SEA to DEN on August 14' to a caller flying SEA to BOS
that day): the caller says so and says its own, instead of a yes. A new
option ('I found a flight ...', 'there is a flight ...') or a changed record ('your new flight')
is not the caller's record and never fires.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from voxbench.pipelines.caller.goal.facts import FactBook
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.spoken import compact, sentences_of
from voxbench.spoken.words import MONTH_NAMES, MONTHS

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))  # 'August', 'Aug', 'Sept'
_DATE = re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", re.I)
_ON_DATE = re.compile(
    rf"\s*,?\s*(?:(?:{alt('record', 'on')})\s+)?(?:\w+day,?\s+)?({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b",
    re.I,
)
_PLACE = r"(?:[A-Z]{3}\b|[A-Z][a-z.'-]+(?:\s+[A-Z][a-z.'-]+){0,3})"
_ROUTE = re.compile(
    rf"\b(?:{alt('record', 'from')})\s+(?:(?:{alt('record', 'the')})\s+)?({_PLACE})"
    rf"\s+(?:{alt('record', 'to')})\s+(?:(?:{alt('record', 'the')})\s+)?({_PLACE})"
)
_OWN = re.compile(
    rf"\b(?:{alt('record', 'own_lead')})\s+(?:\w+\s+){{0,2}}?({alt('record', 'record_words')})\b", re.I
)
_IT = re.compile(
    rf"^(?:{alt('record', 'it_lead')})\s+(?:\w+\s+){{0,2}}?({alt('record', 'record_words')})\b", re.I
)
"""'It's for a flight ...' after 'I found your reservation.': the record the turn named as the caller's."""
_ROUTE_VALUE = re.compile(rf"\s+(?:{alt('record', 'to')})\s+")
_SKIP = re.compile(rf"\b(?:{alt('record', 'not_own')})\b", re.I)
_PLACE_WORDS = set(phrases("record", "place_words"))


@dataclass(frozen=True)
class OwnRecord:
    """The caller's own places and dates (facts and goal text) and how it says its record."""

    places: tuple[str, ...]
    dates: tuple[tuple[int, int], ...]
    said: str
    ends: tuple[str, ...] = ()
    """Its record's route, if it knows it (two places of one group of facts, or the goal's 'from A to B')."""
    day: bool = False
    """Whether it knows its record's date (a date of that group, or the goal's date)."""

    @classmethod
    def of(cls, book: FactBook, goal_text: str) -> OwnRecord:
        places: list[tuple[str, str]] = []  # (group, value)
        dates: list[tuple[str, tuple[int, int]]] = []
        for f in book:
            v, group = str(f.value).strip(), f.key.rsplit(".", 1)[0] if "." in f.key else ""
            if isinstance(f.value, list | dict | bool) or not v:
                continue
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
                d = date.fromisoformat(v)
                dates.append((group, (d.month, d.day)))
            elif (m := _DATE.fullmatch(v)) is not None:
                dates.append((group, _month_day(m)))
            elif set(f.words) & _PLACE_WORDS and len(v.split()) <= 4 and not any(c.isdigit() for c in v):
                places += [(group, p) for p in _ROUTE_VALUE.split(v)]  # a route, 'SEA to BOS': its two places
        route, goal_date = _ROUTE.search(goal_text), _DATE.search(goal_text)
        goal_ends = list(route.groups()) if route else []
        goal_days = [_month_day(goal_date)] if goal_date else []
        # said: its record's own facts (the first place's group), else the goal's route and date
        groups = [g for g, _ in places]
        # its origin and destination: a listed record's ('original_travel_details.0'), else the top level's
        group = next(
            (g for g in sorted(set(groups), key=lambda g: (not g, groups.index(g))) if groups.count(g) >= 2),
            None,
        )
        ends = [v for g, v in places if g == group][:2] if group is not None else []
        ends = ends or goal_ends
        day = next((md for g, md in dates if group is not None and g == group), None)
        day = day or next(iter(goal_days), None)
        said = " ".join(
            [f"from {ends[0]} to {ends[1]}" if ends else "",
             f"on {MONTH_NAMES[day[0] - 1].capitalize()} {day[1]}" if day else ""]
        ).strip()  # fmt: skip
        every = [v for _, v in places] + goal_ends
        days = [md for _, md in dates] + goal_days
        return cls(tuple(every), tuple(dict.fromkeys(days)), said, tuple(ends), day is not None)


def _month_day(m: re.Match[str]) -> tuple[int, int]:
    return MONTHS[m.group(1).lower()], int(m.group(2))


def _is_code(p: str) -> bool:
    return bool(re.fullmatch(r"[A-Z]{3}", p))


def _same(a: str, b: str) -> bool:
    ca, cb = compact(a), compact(b)
    return bool(ca and cb) and (ca == cb or ca in cb or cb in ca)


def other_record(text: str, own: OwnRecord) -> str:
    """The record word ('flight') of a sentence that reads back the caller's own record ('your
    flight ...', or 'It's for a flight ...' after a sentence naming its record) with a place or a
    date that is not its own; '' when none does. Each part is checked alone: one wrong place or a
    wrong date among right ones is another record. A place is compared only in the form the
    caller's record uses (codes against codes, names against names): a city read back against an
    airport code cannot be told apart by the caller and counts neither way."""
    if not own.said:
        return ""
    named = False  # a sentence before named the caller's own record
    for s in sentences_of(text):
        m = _OWN.search(s) or (_IT.match(s) if named else None)
        named = named or m is not None
        route = _ROUTE.search(s, m.start()) if m else None
        if m is None or _SKIP.search(s[: route.start()] + s[route.end() :] if route else s):  # not 'New York'
            continue
        read = list(route.groups()) if route else []
        places_other = any(_comparable(p, own) and not any(_same(p, o) for o in own.places) for p in read)
        d = _ON_DATE.match(s, route.end() if route else m.end())  # the record's date: 'from A to B on D'
        date_other = d is not None and own.day and _month_day(d) not in own.dates
        if places_other or date_other:
            return m.group(1).lower()
    return ""


def _comparable(place: str, own: OwnRecord) -> bool:
    """A place said in the form of the caller's record's own places (a code, or a name)."""
    return any(_is_code(place) == _is_code(o) for o in own.ends)
