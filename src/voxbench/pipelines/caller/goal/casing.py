"""Which words the caller writes in small letters after a lead-in, read from its scenario's own text.

A value said alone opens its sentence with a capital ('Employee medical condition.', 'Floor
2.'); said again after a lead-in ('Like I mentioned, ...') the capital stays only on a proper
word. Whether a word is proper is the scenario's to say, not a word list's: a word it writes in
small letters and never with a capital after another word ('employee_medical_condition', 'a desk
on floor 2') is a common word; a word it writes with a capital mid-sentence ('at Headquarters'),
a word of a value written in capitals throughout ('East Campus', 'Main Cabin') and a word of a
name fact ('Park', 'Rose') keep their capital, and so do month names: the scenario writes its
dates as digits, so its small 'may' (a verb) says nothing of the 'May' a date is said with. A word
the scenario never writes is left as it is.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.facts import FactBook
from voxbench.pipelines.caller.goal.speech import value_kind
from voxbench.spoken.data import leaves
from voxbench.spoken.words import MONTH_NAMES

_WORD = re.compile(r"[A-Za-z][a-z']*")
_MID_CAPITAL = re.compile(r"(?<=[A-Za-z0-9,] )[A-Z][a-z][\w']*")
"""A capitalised word after another word: no sentence starts there."""


def small_words(scenario_data: object, book: FactBook) -> frozenset[str]:
    """The words (lower case) the scenario writes only in small letters (module docstring):
    ``scenario_data`` is the scenario as data (its JSON dump), ``book`` the caller's facts."""
    texts = [re.sub(r"[_-]+", " ", t) for t in leaves(scenario_data) if isinstance(t, str)]
    small = {w for t in texts for w in _WORD.findall(t) if w[:1].islower()}
    proper = {w.lower() for t in texts for w in _MID_CAPITAL.findall(t)} | set(MONTH_NAMES)
    for f in book:
        said = [v for v in f.values() if v.strip()]
        if value_kind(f.value, f.words) == "name" or any(_title_case(v) for v in said):
            proper |= {w.lower() for v in said for w in _WORD.findall(v)}
    return frozenset(small - proper)


def _title_case(value: str) -> bool:
    """'East Campus', 'Headquarters': every word a capital (small linking words aside)."""
    words = _WORD.findall(value)
    return bool(words) and words[0][:1].isupper() and all(w[:1].isupper() or len(w) <= 3 for w in words)
