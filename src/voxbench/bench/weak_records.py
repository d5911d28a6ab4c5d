"""Weak-agent turns asking a field of a listed record ('original_travel_details': two flights),
templates per class (``bench/lang/weak_<lang>.json``) filled with one scenario's own facts, as
:mod:`.weak_turns` does for the other classes:

* ``record_fields_asked``: a field two records or more hold asked bare ("What is the departure
  time?"); ``record_route_asked``: a route's two ends asked together ("Could you provide the
  origin? Destination."); expected: the value of every record (both ends of each route), each told apart: no two values of the
  reply carry the same label (:func:`twin_labels`, graded for every class), as "The original
  departure time is 8:10 AM. The original departure time is 1:10 PM." does.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voxbench.bench.matcher import GoalFact, facts_said
from voxbench.bench.weak_facts import Leaf, label
from voxbench.spoken import sentences_of

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder

_LABEL = re.compile(r"^(?:(?:my|the|our|your|and|also|so)\s+)*(.+?)\s+(?:is|are|was|were)\s+\S", re.I)
"""A sentence '<label> is <value>': the label, its determiner left out."""


def twin_labels(reply: str, facts: list[GoalFact]) -> list[str]:
    """Labels said for two different facts ('My original origin is S E A. The original origin is
    B O S.'): the listener cannot tell which value is which."""
    seen: dict[str, set[str]] = {}
    out: list[str] = []
    for s in sentences_of(reply):
        m = _LABEL.match(s)
        keys = set(facts_said(s, facts)) if m else set()
        if not m or not keys:
            continue
        lab = m.group(1).lower()
        if lab in seen and not keys & seen[lab] and lab not in out:
            out.append(lab)
        seen.setdefault(lab, set()).update(keys)
    return out


def _records(b: Builder) -> dict[str, list[Leaf]]:
    """The caller's listed-record fields by list ('original_travel_details') -> leaves."""
    out: dict[str, list[Leaf]] = {}
    for f in b.own:
        parts = f.key.split(".")
        if len(parts) >= 3 and parts[-2].isdigit():
            out.setdefault(".".join(parts[:-2]), []).append(f)
    return out


def record_fields(b: Builder) -> None:
    """Per list of records: a field held by two records or more asked bare, and the route's two
    ends asked together (every record's both ends must be said)."""
    ends = b.t.record_places
    for top, fs in _records(b).items():
        by_leaf: dict[str, list[Leaf]] = {}
        for f in fs:
            by_leaf.setdefault(f.key.rsplit(".", 1)[-1], []).append(f)
        shared = [
            ls for leaf, ls in by_leaf.items() if len(ls) > 1 and leaf not in ends and ls[0].kind != "text"
        ]
        for ls in b.pick(shared, lambda ls: f"fields/{ls[0].key}"):
            turn = b.template("record_fields_asked", ls[0].key).format(label=label(ls[0]))
            b.add("record_fields_asked", turn, [f.key for f in ls])
        if all(e in by_leaf for e in ends):
            first, second = (label(by_leaf[e][0]) for e in ends)
            turn = b.template("record_route_asked", top).format(
                first=first, second=second, Second=second.capitalize()
            )
            b.add("record_route_asked", turn, [f.key for e in ends for f in by_leaf[e]])
