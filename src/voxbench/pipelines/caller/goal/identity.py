"""Two requests that name no fact of the caller's by its key, answered with the facts they ask for.

* **Its identity** ("Can you verify your identity?", "I need to verify your identity first."):
  the agent asks for the facts it identifies a caller by. The caller holds no fact called
  'identity'; a person gives what identifies them: its record's identifier (a key that ends in an
  id word or names a confirmation: ``employee_id``, ``confirmation_number``), a factor an agent
  checks it against (``phone_last_four``, ``date_of_birth``), and its name (EVA's agents ask first
  for exactly such facts: confirmation number and last name, employee ID and the phone's last four,
  employee ID and date of birth). Another person's facts ('colleague_employee_id') are never its
  own identity.
* **A whole field when it holds a part of it** ("What is your phone number?" holding
  ``phone_last_four``): the key names the part (``parts``: 'last four'); the rest of the key names
  the field ('phone'). Asked for the field, and not for the part itself, the caller says what it
  has and that it is the part ("I only have the last four digits: 7 7 6 1.").

The words are data (``goal/lang/<lang>.json``, ``phrases.identity``); the reading is here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voxbench.pipelines.caller.goal.facts import Fact, FactBook, key_tokens
from voxbench.pipelines.caller.goal.lang import alt, phrases

if TYPE_CHECKING:
    from voxbench.pipelines.caller.goal.say import FactSayer

_ASKED = re.compile(rf"\b(?:{alt('identity', 'asked')})\b", re.I)
_ID_LAST = set(phrases("identity", "id_last"))
_ID_ANY = set(phrases("identity", "id_any"))
_FACTORS = [p.split() for p in phrases("identity", "factors")]
_PERSONS = set(phrases("readback", "person_words"))
_PARTS = [p.split() for p in phrases("identity", "parts")]


_DONE = re.compile(rf"\b(?:{alt('identity', 'done_lead')})\s+(?:\w+\s+)?$", re.I)
"""A verification said as done before it ('I was able to verify your identity.'): no request."""


def identity_asked(question: str) -> bool:
    """Whether the agent's turn asks the caller to verify (confirm, prove) its identity, not says
    it has been ('I was able to verify your identity.')."""
    return any(
        not _DONE.search(re.split(r"[.!?]\s", question[: m.start()])[-1]) for m in _ASKED.finditer(question)
    )


def _has(words: list[str], phrase: list[str]) -> bool:
    n = len(phrase)
    return any(words[i : i + n] == phrase for i in range(len(words) - n + 1))


def identity_keys(book: FactBook) -> list[str]:
    """The caller's identifying facts, in the order said: its first identifier, its first factor,
    its name (first and last, said as one); another person's facts and a thing it wants are none."""
    own = [f for f in book if "." not in f.key and not f.wanted and not set(key_tokens(f.key)) & _PERSONS]
    ids = [f for f in own if (ws := key_tokens(f.key)) and (ws[-1] in _ID_LAST or set(ws) & _ID_ANY)]
    factors = [f for f in own if any(_has(key_tokens(f.key), p) for p in _FACTORS)]
    names = [f for f in own if f.words and f.words[-1] == "name" and {"first", "last"} & set(f.words)]
    names = [f for part in ("first", "last") for f in names if part in f.words][:2]
    return [f.key for f in (ids[:1] + factors[:1] + names)]


def identity_answer(question: str, book: FactBook, say: FactSayer) -> tuple[str, list[str]] | None:
    """(its identifying facts said, their keys) when ``question`` asks for its identity; None else."""
    keys = identity_keys(book) if identity_asked(question) else []
    return (say.answer(keys), keys) if keys else None


def held_part(question: str, book: FactBook) -> tuple[Fact, str] | None:
    """(the fact, its part's words) when ``question`` asks for a field whole and the caller holds
    only a part of it named by its key ('phone_last_four' to 'What is your phone number?')."""
    asked = set(re.findall(r"[a-z]+", question.lower()))
    for f in book:
        ws = key_tokens(f.key)
        part = next((p for p in _PARTS if _has(ws, p)), None)
        rest = [w for w in ws if part and w not in part and w not in ("if", "asked")]
        if part and rest and set(rest) <= asked and not set(part) <= asked:
            return f, " ".join(part)
    return None
