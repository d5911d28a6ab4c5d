"""Of the facts a request was matched to, those it names only in part where another is named by
more of its words.

"What is your document type code?" says every word of ``document_type_code``, and 'document' of
``document_number`` (its 'number' read as a synonym of 'code'); "Can you give me your desired
return date?" every word of ``desired_return_date`` and 'return' of ``route_return``; "your
original departure time" three words of ``original_departure_time_reference`` and two of
``requested_new_departure_time``. The agent named one field; the words that also fit another are
the same words. A fact the request does not name whole, whose words said in each part of the
request that says any ('your document number', :func:`.parts.parts_of`) are fewer than, and all
among, another asked fact's words said there, is not asked.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.facts import SYNONYMS, FactBook, stem
from voxbench.pipelines.caller.goal.parts import parts_of
from voxbench.pipelines.caller.goal.turn import Turn


def _named(part: str, raw: dict[str, tuple[str, ...]]) -> dict[str, set[str]]:
    """Each asked fact's words (stemmed) a part says: literally, or by a phrase for one ('paid time
    off': 'pto'), or by a one-word synonym ('departure': 'outbound') that is no literal word of
    another fact asked ('code' in 'document type code' is that fact's, not 'number' of
    ``document_number``)."""
    text = f" {' '.join(re.findall(r'[a-z0-9]+', part.lower()))} "
    said = {stem(w) for w in text.split()}
    out: dict[str, set[str]] = {}
    for k, ws in raw.items():
        others = {stem(w) for o, v in raw.items() if o != k for w in v}
        out[k] = {stem(w) for w in ws if stem(w) in said or any(
            f" {a} " in text and (" " in a or stem(a) not in others) for a in SYNONYMS.get(w, ()))}  # fmt: skip
    return out


def fullest(t: Turn, book: FactBook, asked: dict[str, str]) -> dict[str, str]:
    """``asked`` without the facts another names more fully (see the module docstring)."""
    if len(asked) < 2:
        return asked
    raw = {k: f.words for k in asked if (f := book.get(k)) is not None and f.words}
    words = {k: {stem(w) for w in ws} for k, ws in raw.items()}
    if not any(words[a] & words[b] for a in words for b in words if a < b):
        return asked  # no two share a word: none can name another's words only
    covered: set[str] = set()
    alone: set[str] = set()  # named in some part by words no other fact there covers: asked
    for part in (p for s in t.requests + t.questions for p in parts_of(s)):
        named = _named(part, raw)
        for k, n in named.items():
            if n and n != words[k] and any(n < m for o, m in named.items() if o != k):
                covered.add(k)
            elif n:
                alone.add(k)
    return {k: r for k, r in asked.items() if k not in covered - alone}
