"""The question marks a speech recogniser drops, restored from word order before anything reads the
turn: many rules tell a question from a statement by its '?', and live the caller reads a
transcript that may have none (``benchmarks/caller_asr_forms.py``, rule ``no_question_marks``)."""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.lang import alt, alts
from voxbench.pipelines.caller.goal.options import ANY_AUX

_LEAD = rf"^(?:(?:{alt('questions', 'lead')})[,]?\s+|[^,:?!]{{1,80}}[,:]\s+){{0,3}}"
"""What may come before the question itself: a linking word ('And', 'Now') or up to three parts
closed by a comma or colon ('For Datadog access, ', 'Thanks, Hannah, ', 'One question first: ')."""
_SUBJECT = alts("questions", "subject", "person")
_AUX = rf"(?:{ANY_AUX}|{alt('questions', 'permission_aux')})"
_INVERTED = re.compile(rf"{_LEAD}{_AUX}\s+(?:{_SUBJECT})\b[^?]*[.!]?$", re.I)
"""A yes/no question: an auxiliary before its subject ('Would you like a window seat.', 'May I
have your last name.')."""
_PRONOUN = rf"(?:{alt('questions', 'pronoun')})"
_LINKED = rf"^(?:(?:{alt('questions', 'lead')})[,]?\s+)?"
_WH_ASKED = re.compile(
    rf"(?:{_LINKED}(?:{alt('questions', 'wh')})|{_LEAD}(?:{alt('questions', 'wh_after_comma')}))"
    rf"(?:'s\b|\s+(?:{alt('marks', 'be')})\b|(?:\s+(?!{_PRONOUN}\b)[\w'-]+){{0,6}}?"
    rf"\s+(?:{ANY_AUX})\s+(?!(?:{alt('marks', 'that')})\s+\w)(?:{_SUBJECT})\b)[^?]*[.!]?$",
    re.I,
)
"""A wh-question: the question word, then its verb ('What is your ID.', 'What's the date.') or a
noun phrase and an auxiliary before its subject ('What new return date would you like.'); a
pronoun between them makes it a clause that names a thing ('What we can do is have you restart.',
'What this means is that ...'). After a comma only 'what' and 'how' ask: ', which is' and ', where
you' go on a statement."""
_TAGGED = re.compile(rf",\s*(?:{alt('questions', 'tag')})[.!]?$|^(?:{alt('questions', 'elliptic')})\b", re.I)
"""A statement with a question tag ('You'd like to move it to May 8, correct.'), or a question
said without its verb ('Anything else I can help with.')."""
_SPLIT = re.compile(r"((?<=[.?!])\s+|\n+)")


def asked(sentence: str) -> str:
    """The sentence with its question mark back if its word order or its tag asks."""
    if sentence.endswith("?") or not (
        _INVERTED.match(sentence) or _WH_ASKED.match(sentence) or _TAGGED.search(sentence)
    ):
        return sentence
    return sentence.rstrip(".!") + "?"


_DOTTED = re.compile(r"\b([A-Z](?:\.[A-Z])+)\.(?=(\s+[A-Z]|\s*$)?)")
"""Capitals written with dots ('I.D.', 'U.S.'): one word whose last dot ends the sentence only
before a capital or the end of the turn ('Please give me the shift I.D. for the shift ...' was cut
in two at 'I.D.', rule ``id_dotted``)."""


def _undotted(m: re.Match[str]) -> str:
    return m.group(1).replace(".", "") + ("." if m.group(2) is not None else "")


def restored(text: str) -> str:
    """``text`` with dotted capitals joined and each question's mark restored; what lies between
    sentences kept as it was."""
    parts = _SPLIT.split(_DOTTED.sub(_undotted, text))
    return "".join(p if i % 2 else asked(p) for i, p in enumerate(parts))
