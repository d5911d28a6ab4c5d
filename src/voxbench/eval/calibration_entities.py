"""EVA's lenient rule for matching a human-labelled entity to a judge's (validation README):
which entity of the judge's is which of the human's, so their "correctly transcribed" verdicts
can be compared one to one."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Any


def _norm_entity(s: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", "", str(s).lower())).strip()


def entities_match(a: Any, b: Any) -> bool:
    """Normalised (lower-case, no punctuation, compressed spaces) containment either way, or
    SequenceMatcher ratio > 0.6."""
    x, y = _norm_entity(a), _norm_entity(b)
    if not x or not y:
        return False
    return x in y or y in x or SequenceMatcher(None, x, y).ratio() > 0.6


def match_entities(human: list[dict[str, Any]], judge: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Greedy one-to-one matching of entity values, best similarity first."""
    cands = []
    for i, h in enumerate(human):
        for k, j in enumerate(judge):
            if entities_match(h.get("value"), j.get("value")):
                r = SequenceMatcher(None, _norm_entity(h.get("value")), _norm_entity(j.get("value"))).ratio()
                cands.append((-r, i, k))
    used_h: set[int] = set()
    used_j: set[int] = set()
    out = []
    for _, i, k in sorted(cands):
        if i not in used_h and k not in used_j:
            used_h.add(i)
            used_j.add(k)
            out.append((i, k))
    return out
