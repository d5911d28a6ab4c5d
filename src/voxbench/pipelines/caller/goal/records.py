"""Fields of listed records said per record ('original_travel_details': [{origin SEA, destination
BOS, ...}, {origin BOS, ...}]).

A field asked of a caller with several records has one value per record; said as single facts
each got the same label ('My original origin is S E A. The original origin is B O S.', live on
EVA airline 1.1.4), which no listener can place. So, stated once for every listed record:

* the fields of one record are said together, each record told apart by its route ('From S E A
  to B O S.', 'For S E A to B O S, the departure time is 8:10 AM.'), else by its place in the
  list ('For the second one, ...'); no two values of a reply carry the same label;
* an end of a route asked (the origin) brings the other end of the same record (the
  destination) when the turn names it too ('Could you provide the origin? Destination.', where
  the fragment was left unread): fields asked together are said together.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from voxbench.pipelines.caller.goal.facts import Fact, FactBook, key_words
from voxbench.pipelines.caller.goal.lang import phrases
from voxbench.pipelines.caller.goal.phrases import Phrasing

_ENDS = [tuple(p.split()) for p in phrases("record", "route_ends")]
"""A route's two ends as a listed record's field names ('origin', 'destination')."""
_ORDINALS = phrases("record", "ordinals")


def record_of(key: str) -> str:
    """The listed record a field belongs to ('original_travel_details.1.origin' ->
    'original_travel_details.1'); '' for a fact that is no field of a listed record."""
    parts = key.split(".")
    at = next((i for i, p in enumerate(parts) if p.isdigit()), None)
    return "" if at is None or at == len(parts) - 1 else ".".join(parts[: at + 1])


def _leaf(f: Fact) -> str:
    return f.key.rsplit(".", 1)[-1]


def route_mates(book: FactBook, keys: list[str], turn: str) -> list[str]:
    """The other end of each route end asked, of the same record, when the agent's ``turn`` names
    it ('Could you provide the origin? Destination.') and does not say its value ('Got it,
    destination LAX. Please provide the origin.'): asked together, said together."""
    said = set(re.findall(r"[a-z0-9]+", turn.lower()))
    out: list[str] = []
    for k in keys:
        rec, leaf = record_of(k), k.rsplit(".", 1)[-1]
        for ends in _ENDS if rec else []:
            mate = book.get(f"{rec}.{ends[1 - ends.index(leaf)]}") if leaf in ends else None
            if mate is None or mate.key in keys or mate.key in out or not set(key_words(_leaf(mate))) <= said:
                continue
            if not any(re.sub(r"[^a-z0-9]", "", v.lower()) in said for v in mate.values()):
                out.append(mate.key)
    return out


def by_record(facts: list[Fact]) -> dict[str, list[Fact]]:
    """The facts of listed records grouped by record, when a field of the same name comes from
    two records or more (its label would be said twice); empty otherwise."""
    groups: dict[str, list[Fact]] = {}
    for f in facts:
        if rec := record_of(f.key):
            groups.setdefault(rec, []).append(f)
    leaves = [(rec.rsplit(".", 1)[0], _leaf(f)) for rec, fs in groups.items() for f in fs]
    return groups if len(groups) > 1 and len(set(leaves)) < len(leaves) else {}


def _route(book: FactBook, rec: str) -> tuple[Fact, Fact] | None:
    for a, b in _ENDS:
        o, d = book.get(f"{rec}.{a}"), book.get(f"{rec}.{b}")
        if o is not None and d is not None:
            return o, d
    return None


def record_lines(
    book: FactBook,
    phr: Phrasing,
    facts: list[Fact],
    said: Callable[[Fact], str],
    label: Callable[[Fact], str],
) -> tuple[list[str], list[Fact]]:
    """Each record's fields as one sentence, told apart by route or place; the facts it says.
    ``said`` is a value as the caller says it, ``label`` a fact's label."""
    groups = by_record(facts)
    out: list[str] = []
    for n, (rec, fs) in enumerate(groups.items()):
        route = _route(book, rec)
        rest = [f for f in fs if route is None or f not in route]
        clauses = ", and ".join(f"the {label(f)} is {said(f)}" for f in rest)
        if route is not None and any(f in route for f in fs):
            o, d = (said(f) for f in route)
            out.append(phr.say("record_route", origin=o, Origin=o[:1].upper() + o[1:], destination=d,
                               rest=f", {clauses}" if clauses else ""))  # fmt: skip
            continue
        if route is not None:
            name = " to ".join(said(f) for f in route)
        else:
            name = f"the {_ORDINALS[n]} one" if n < len(_ORDINALS) else f"number {n + 1}"
        out.append(phr.say("record_for", name=name, rest=clauses))
    return out, [f for fs in groups.values() for f in fs]
