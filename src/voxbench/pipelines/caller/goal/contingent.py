"""Which of the caller's listed requests its goal makes a fallback: what to accept if another is
not met, not a request of its own.

EVA lists a goal's outcomes as intents ('Get a desk on floor 1 of East Campus', 'Get placed on the
waitlist for a desk on floor 1 of East Campus'); its goal text says which is wanted and which is
taken only when the first cannot be had ('..., but if none are available there, you are willing to
be placed on the waitlist', 'try for a desk on floor 2 but take floor 3 if floor 2 is full'). A
person states the request and brings up the fallback when its condition arises; a caller listing
both asks for the waitlist along with the desk. The goal marks a fallback by a clause that holds
it under an unmet condition: the clause a condition of unavailability ('if none are available',
'if floor 2 is full': :func:`.conditions.condition_spans` and ``phrases.contingent.unmet``) opens
or closes, when it says the caller will take or accept the thing (``phrases.contingent.accept``:
'you are willing to be placed on', 'take floor 3'), or the clause after 'otherwise'. A request is a fallback when such a clause names it
and no plain clause of the goal does; each clause names the one request whose words it covers
best (:func:`_best`), so 'a monitor arm delivered to floor 3' names the monitor arm, not the desk
on floor 3. The first request is never one: a fallback backs up another.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.conditions import condition_spans
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.lang import alt
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.spoken import sentences_of, tokens

_UNMET = re.compile(rf"\b(?:{alt('contingent', 'unmet')})\b|n't\b", re.I)
"""A condition that something is not to be had ('none are available', 'floor 2 is full')."""
_OTHERWISE = re.compile(rf"\b(?:{alt('contingent', 'otherwise')})\b,?", re.I)
"""A lead whose clause is what to do when the one before is not met ('otherwise, ...')."""
_ACCEPT = re.compile(rf"\b(?:{alt('contingent', 'accept')})\b", re.I)
"""What a goal says of a thing it will take in place of another ('willing to', 'take', 'accept')."""


def _words(text: str) -> set[str]:
    """Content words and numbers ('floor 3': the number tells two desks apart)."""
    return content_words(text) | {t for t in tokens(text) if t.isdigit()}


def _clause_after(sentence: str, start: int) -> tuple[str, int]:
    """The clause from ``start`` to the next clause break (the break that opens it skipped)."""
    rest = sentence[start:]
    lead = re.match(r"[\s,;:]*", rest)
    skip = lead.end() if lead else 0
    brk = pattern("clause_break").search(rest, skip)
    end = brk.start() if brk else len(rest)
    return rest[skip:end], start + end


def _split(sentence: str) -> tuple[list[str], list[str]]:
    """A sentence's clauses held under an unmet condition, and its plain clauses (conditions out)."""
    held: list[tuple[int, int]] = []
    cut: list[tuple[int, int]] = []
    for a, b in condition_spans(sentence):
        cut.append((a, b))
        if not _UNMET.search(sentence[a:b]):
            continue
        breaks = list(pattern("clause_break").finditer(sentence, 0, a))
        start = breaks[-1].end() if breaks else 0
        if not _words(sentence[start:a]):  # 'if none are available there, you are willing to ...'
            start, a = b, _clause_after(sentence, b)[1]  # the clause after, else the one before
        if _ACCEPT.search(sentence[start:a]):  # 'take floor 3 if floor 2 is full'
            held.append((start, a))
    for m in _OTHERWISE.finditer(sentence):
        _, end = _clause_after(sentence, m.end())
        held.append((m.end(), end))
    plain, last = [], 0
    for a, b in sorted(held + cut):
        plain.append(sentence[last:a])
        last = max(last, b)
    plain.append(sentence[last:])
    clauses = [c for p in plain for c in pattern("clause_break").split(p) if c and _words(c)]
    return [sentence[a:b] for a, b in held], clauses


def _best(clause: str, words: list[set[str]]) -> int | None:
    """The request whose words the clause covers best (share of its words said), if any; a tie
    names none."""
    said = _words(clause)
    share = [len(w & said) / len(w) if w else 0.0 for w in words]
    top = max(share, default=0.0)
    hits = [i for i, s in enumerate(share) if s == top]
    return hits[0] if top > 0 and len(hits) == 1 else None


def contingent(intents: list[str], goal: str) -> list[bool]:
    """For each listed request, whether the goal text makes it a fallback (module docstring)."""
    words = [_words(i) for i in intents]
    held: set[int] = set()
    plain: set[int] = set()
    for sentence in sentences_of(goal):
        under, clauses = _split(sentence)
        held |= {i for c in under if (i := _best(c, words)) is not None}
        plain |= {i for c in clauses if (i := _best(c, words)) is not None}
    return [j > 0 and j in held and j not in plain for j in range(len(intents))]
