"""A record read back that is not the caller's: 'You have a flight from New York to Los Angeles on
May 11' when the caller's own flight (its facts, its goal's text) is Phoenix to Denver on May 13.

The field-named read-back (:func:`.readback.misread`) needs a field's words ('your origin is X');
a record described by its places and date names none. A sentence about the caller's own record
('your reservation ...', 'you have a flight ...') whose places (of the kind the caller holds: codes
against codes, names against names) include none of the caller's, or whose date is none of the
caller's dates, is another record: the caller says so and says its own, instead of a yes. A new
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
from voxbench.spoken.words import MONTH_NAMES

_MONTH = "|".join(MONTH_NAMES)
_DATE = re.compile(rf"\b({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", re.I)
_ON_DATE = re.compile(rf"\s*,?\s*(?:on\s+)?(?:\w+day,?\s+)?({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", re.I)
_PLACE = r"(?:[A-Z]{3}\b|[A-Z][a-z.'-]+(?:\s+[A-Z][a-z.'-]+){0,3})"
_ROUTE = re.compile(rf"\bfrom\s+(?:the\s+)?({_PLACE})\s+to\s+(?:the\s+)?({_PLACE})")
_OWN = re.compile(rf"\b(?:{alt('record', 'own_lead')})\s+(?:\w+\s+){{0,2}}?({alt('record', 'record_words')})\b", re.I)
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
                places.append((group, v))
        route, goal_date = _ROUTE.search(goal_text), _DATE.search(goal_text)
        goal_ends = list(route.groups()) if route else []
        goal_days = [_month_day(goal_date)] if goal_date else []
        # said: its record's own facts (the first place's group), else the goal's route and date
        groups = [g for g, _ in places]
        group = next((g for g in groups if groups.count(g) >= 2), None)  # its origin and destination
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
    return [n.lower() for n in MONTH_NAMES].index(m.group(1).lower()) % 12 + 1, int(m.group(2))


def _is_code(p: str) -> bool:
    return bool(re.fullmatch(r"[A-Z]{3}", p))


def _same(a: str, b: str) -> bool:
    ca, cb = compact(a), compact(b)
    return bool(ca and cb) and (ca == cb or ca in cb or cb in ca)


def other_record(text: str, own: OwnRecord) -> str:
    """The record word ('flight') of a sentence that reads back the caller's own record with places
    or a date that are not its own; '' when none does."""
    if not own.said:
        return ""
    for s in sentences_of(text):
        m = _OWN.search(s)
        route = _ROUTE.search(s, m.start()) if m else None
        if m is None or _SKIP.search(s[: route.start()] + s[route.end() :] if route else s):  # not 'New York'
            continue
        read = list(route.groups()) if route else []
        comparable = [p for p in read if any(_is_code(p) == _is_code(o) for o in own.ends)]
        places_other = bool(comparable) and not any(_same(p, o) for p in read for o in own.places)
        d = _ON_DATE.match(s, route.end() if route else m.end())  # the record's date: 'from A to B on D'
        date_other = d is not None and own.day and _month_day(d) not in own.dates
        if places_other or date_other:
            return m.group(1).lower()
    return ""
