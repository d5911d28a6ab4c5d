"""A request for two things in one sentence, told apart at the word that joins them ('What is the
P T O type, and what is the preferred date?'; 'Could you give me the details of the onboarding
items you need, and the date?').

Each part is read on its own: one part's words do not name a fact together with the other's (the
'P T O' of the first and the 'date' of the second name no P T O date), and a part that asks what
the caller needs (an open question, ``cues.open_q``) and names none of its facts is answered with
its request while the other part gets its facts: a multi-part request gets every part the caller has an answer for (live,
medical_hr: the date alone).
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.cues import OPEN_Q
from voxbench.pipelines.caller.goal.lang import alt

_JOINS, _STARTS = alt("asks", "part_joins"), alt("asks", "part_starts")
PARTS = re.compile(rf",\s*(?:{_JOINS})\s+|\s+(?:{_JOINS})\s+(?=(?:{_STARTS})\b)", re.I)
"""Where a request's parts are joined: a comma and a joining word, or a joining word before a
word that starts a request of its own ('and what', 'and the')."""


_CHOICE = re.compile(r"\bor\b|:", re.I)
"""A part that lists choices ('what size do you need: 24 or 27 inch?') asks which, not what it needs."""


def parts_of(sentence: str) -> list[str]:
    """The parts of a request sentence (the sentence itself when it has one)."""
    return [p.strip() for p in PARTS.split(sentence) if p.strip()] or [sentence]


def open_parts(sentence: str) -> list[str]:
    """The parts of a request of two parts or more that are open questions about the caller's
    needs, when another part is not ('the details of the items you need, and the date?')."""
    parts = parts_of(sentence)
    opened = [p for p in parts if OPEN_Q.search(p) and not _CHOICE.search(p)]
    return opened if len(parts) > 1 and len(opened) < len(parts) else []
