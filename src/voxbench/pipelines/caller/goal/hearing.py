"""How often the agent failed to hear each of the caller's facts, and the form the caller says a
fact in from that: said, then said 'as I said' (:class:`.stall.Repeats`), then spelled.

A failed hearing of a fact is an agent turn that reads it back with another value ('I have your
last name as All Cuffo.') or asks for it again, after the caller gave it, and does not read it
back right. A person who has been misheard twice spells the value: 'It's Okafor, O K A F O R.'
(live ``make run`` bb.2: the local agent's recogniser heard 'Okafor' as 'All Cuffo' four times,
and the caller said 'As I said, Okafor.' each time, then hung up). From the second failed
hearing of a fact on, its value in the caller's line is followed by its letters and digits one
by one, as :func:`voxbench.spoken.codes.spell_chars` spells a code; a code said spelled already
(:func:`voxbench.spoken.say_value`) is said again one character at a time, each apart. Only
names and codes are spelled (:func:`spellable`): a date, a time, an amount, an email or a flag
spelled character by character is no form a person uses. A read-back that gets a fact right
clears its count. A line said once too often (the
:class:`.stall.Repeats` loop) is said once more when it would be the first spelled, as a person
spells before giving up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from voxbench.pipelines.caller.goal.facts import FactBook
from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.lang import phrases
from voxbench.pipelines.caller.goal.phrases import Phrasing
from voxbench.spoken.codes import spell_chars
from voxbench.spoken.dates import ISO_DATE

_WORD_VALUE = re.compile(r"[A-Za-z][A-Za-z' -]*")
"""A value of letters only (a name, a word): its letters follow it in the sentence."""
_NAME_OR_CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9' -]*")
SPELL_AFTER = 2
"""Failed hearings of a fact after which the caller spells it."""
SPELLED_MISHEARD = "spelled_misheard"
"""The rule on the trail of a line that spells a fact misheard twice."""


def spelled_form(value: str, said: str) -> str:
    """A value one character at a time: a name's letters after it ('Okafor' -> 'O K A F O R'); a
    value said spelled already (a code: 'Q X seven T four M') one character at a time, each apart
    ('Q, X, seven, T, four, M'), as EVA's simulated users are told to ('spell it out ... one
    character at a time'); '' for a value with no letter or digit."""
    spaced = spell_chars(value)
    if spaced and _words(said) == _words(spaced):
        return ", ".join(spaced.split())
    return spaced


def spellable(value: object) -> bool:
    """A name or a code (letters, digits, spaces, hyphens; a number of four digits or more, such
    as a phone's last four): not a date, a time, an amount, an email, a flag or a short number."""
    if (
        not isinstance(value, str)
        or not _NAME_OR_CODE.fullmatch(value.strip())
        or ISO_DATE.match(value.strip())
    ):
        return False
    return any(c.isalpha() for c in value) or sum(c.isdigit() for c in value) >= 4


def times_said(n: int) -> str:
    """How a person counts its tellings, by the real count ('twice now' after two, 'a few times
    now' after four or more; ``phrases.hearing.times_said``): never 'a few times' after two."""
    said = phrases("hearing", "times_said")
    return said[max(0, min(n, len(said)) - 1)]


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


@dataclass
class Hearings:
    """Per fact: the agent's failed hearings of it, and whether the caller has said it spelled."""

    misheard: dict[str, int] = field(default_factory=dict)
    spelled: set[str] = field(default_factory=set)
    turn: int = -1
    """The agent turn last counted (each turn counts once, whatever acts answer it)."""
    agent_said: list[str] = field(default_factory=list)
    """The agent's turns as words (' w1 w2 ... '): a value it said itself, whole, needs no spelling."""

    def hear(self, turn: int, heard: Heard, given: set[str], text: str) -> None:
        """Count the failed hearings of agent turn ``turn`` (``text``: what it said): facts given
        before that it reads back wrong or asks for again, not read back right in the same turn."""
        if turn == self.turn:
            return
        self.turn = turn
        self.agent_said.append(f" {' '.join(_words(text))} ")
        for k in dict.fromkeys([*heard.readback_wrong, *heard.asked]):
            if k in given and k not in heard.readback_ok:
                self.misheard[k] = self.misheard.get(k, 0) + 1
        for k in heard.readback_ok:  # heard right at last: a later ask (a next request) starts over
            self.misheard.pop(k, None)

    def to_spell(self, keys: list[str], book: FactBook, text: str, said: dict[str, str]) -> list[str]:
        """Of ``keys`` (the facts a line says; ``said``: key -> the value as said), those to say
        spelled: misheard twice or more, whose spelled form the line does not say already, and
        not a value the agent has said itself ('The flight is confirmed.'): asked again for the
        status, a person says 'confirmed' again, never 'C O N F I R M E D'."""
        out = []
        for k in keys:
            f = book.get(k)
            if f is None or self.misheard.get(k, 0) < SPELL_AFTER or not spellable(f.value):
                continue
            if self.agent_said_whole(str(f.value)):
                continue
            form = spelled_form(str(f.value), said.get(k, str(f.value)))
            if form and form.lower() not in text.lower():
                out.append(k)
        return out

    def agent_said_whole(self, value: str) -> bool:
        """Whether one agent turn said ``value``, its words in a row ('Mai -Ling' and 'Mei-Leng'
        say neither 'Mei Ling' nor any value of both their words)."""
        said = f" {' '.join(_words(value))} "
        return said.strip() != "" and any(said in t for t in self.agent_said)

    def spell(self, text: str, keys: list[str], book: FactBook, said: dict[str, str], phr: Phrasing) -> str:
        """The line with each fact to spell spelled: a value said spelled already said again one
        character at a time in its place ('Q, X, seven, T, four, M'); a name followed by its
        letters ('My last name is Okafor, O K A F O R.'), or, when it is not found as said in the
        line, or a value of letters and digits or said in other words ('FL3': 'Floor 3'), a
        sentence spelling it after the line ('That's C O R P N E T five G.')."""
        for k in keys:  # those :meth:`to_spell` picked
            f = book.get(k)
            assert f is not None
            value = said.get(k, str(f.value))
            form = spelled_form(str(f.value), value)
            self.spelled.add(k)
            m = re.search(rf"\b{re.escape(value)}\b", text, re.I) if value else None
            if m is not None and "," in form and _words(value) == _words(form):  # spelled already: slower
                text = f"{text[: m.start()]}{form}{text[m.end() :]}"
            elif m is not None and _WORD_VALUE.fullmatch(str(f.value).strip()):
                text = f"{text[: m.end()]}, {form}{text[m.end() :]}"
            else:  # letters and digits ('CorpNet5G'), or said in words ('FL3': 'floor 3'): a sentence
                text = f"{text.rstrip()} {phr.say('spelled_value', letters=form)}".strip()
        return text
