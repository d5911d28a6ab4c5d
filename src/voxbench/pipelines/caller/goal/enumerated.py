"""An agent's numbered list of asks ('I need the following: 1. Your name 2. Your employee ID 3. Your
visa petition number 4. The name of your dependent ...'), its markers taken out before anything
reads the turn: a list marker is not a value. Live (medical_hr), a recogniser wrote the list as
'... three. Your current H1B visa petition, number four. The name of your dependent five.' and
'... 3, your current H1B visa petition number 4, the name ...', and the caller heard 'petition
number 4' as a wrong read-back and corrected it (weak class ``enumerated_asks``).

The class: a run of at least three ascending small numbers from one (digits or number words, a
dot, bracket, colon or comma after, 'number' before), each followed by a short item (twelve words
at most) naming a field: two thirds of the items hold a word of one of the caller's fields (or
name, number, date, ID, address, code); a list of steps is left as it is. The items are joined by commas, as a list of fields asked in one turn is
written; a 'number' said before a marker stays with the field before it."""

from __future__ import annotations

import itertools
import re

from voxbench.pipelines.caller.goal.facts import FactBook
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.spoken.words import UNITS

_SMALL = {w: v for w, v in UNITS.items() if 1 <= v <= 12}
_NUMBER = phrases("enumerated", "number")[0]
"""The word said before a marker ('petition number 4'), which stays with the field before it."""
_FIELDS = frozenset(phrases("enumerated", "field"))
"""Words that name a field in any domain, besides the caller's own fields' words."""
_MARK = re.compile(
    rf"(?P<lead>[,.;:]?\s*(?P<num>\b(?:{alt('enumerated', 'number')})\s+)?|^)"
    r"\b(?P<n>\d{1,2}|" + "|".join(_SMALL) + r")\b(?![.,]?\d)(?:\s*[.):,-])?(?=\s+[A-Za-z])",
    re.I,
)
_ONE_TWO_THREE = re.compile(
    r".*?".join(rf"\b(?:{n}|{'|'.join(w for w, v in _SMALL.items() if v == n)})\b" for n in (1, 2, 3)),
    re.I | re.S,
)
_WORD = re.compile(r"[A-Za-z]")
_ITEM_WORDS = 12
"""An item longer than this is a sentence (a step, an explanation), not a field named."""


def _value(s: str) -> int:
    return int(s) if s.isdigit() else _SMALL[s.lower()]


def _chain(marks: list[re.Match[str]]) -> list[re.Match[str]]:
    """The longest run 1, 2, 3, ... of markers in order (empty if shorter than three); of a number
    said twice in a row, the second."""
    best: list[re.Match[str]] = []
    for i, m in enumerate(marks):
        if _value(m.group("n")) != 1:
            continue
        run = [m]
        for x in marks[i + 1 :]:
            if _value(x.group("n")) == len(run) + 1:
                run.append(x)
            elif _value(x.group("n")) == len(run) and not _WORD.search(m.string[run[-1].end() : x.start()]):
                run[-1] = x  # 'your phone last four four. Your ...': the second is the marker
        best = max(best, run, key=len)
    return best if len(best) >= 3 else []


def unnumbered(text: str, book: FactBook) -> str:
    """``text`` with an enumerated ask list's markers taken out and its items joined by commas;
    any other text as it was."""
    if not _ONE_TWO_THREE.search(text):  # cheap: no list
        return text
    run = _chain(list(_MARK.finditer(text)))
    if not run:
        return text
    fields = {w for f in book for w in f.words} | _FIELDS
    items = [text[a.end() : b.start()] for a, b in itertools.pairwise(run)]
    last = text[run[-1].end() :]
    end = re.search(r"[.?!](?:\s|$)", last)
    shown = [*items, last[: end.start()] if end else last]
    named = [
        s for s in shown if len(s.split()) <= _ITEM_WORDS and set(re.findall(r"[a-z]+", s.lower())) & fields
    ]
    if len(named) * 3 < len(shown) * 2 or any(len(s.split()) > _ITEM_WORDS for s in items):
        return text
    parts = [
        s.strip(" ,.;:-") + (f" {_NUMBER}" if b.group("num") else "")
        for s, b in zip(items, run[1:], strict=True)
    ]
    head = text[: run[0].start()] + run[0].group("lead").rstrip()
    return f"{head} {', '.join([*parts, last.strip(' ,;:-')])}".strip()
