"""What the follow-ups (:mod:`.followups`) read in the agent's question, and in the caller's own
line they re-lead: patterns compiled once, their words from ``lang/<language>.json`` (``followups``)."""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.lang import alt, phrases


def _a(name: str) -> str:
    return alt("followups", name)


MORE_OFFERED = re.compile(
    rf"^(?!(?:{_a('more_not_wh')})\b)(?:.*\b(?:{_a('more_offer')})\b|.*\b(?:{_a('more_about')})\b)",
    re.I,
)
"""An offer to tell more ('Would you like to know more about it?')."""

ID_FIELD = re.compile(rf"\b(?!(?:{_a('id_not_qualifier')})\b)([a-z]+) ({_a('id_field')})\b", re.I)
"""A request for an identifier by its name ('your flight number', 'the ticket ID')."""

YES_NO_Q = re.compile(
    rf"^(?:[\w' -]+,\s+)?({alt('questions', 'auxiliary')})\s+({alt('questions', 'subject')})\b", re.I
)
"""A yes/no question (auxiliary first) about the caller's situation, which no fact answers. Not
'would'/'will' (``questions.wish_aux``): 'Would you like ...?' asks what it wants (:data:`WANTS_Q`)."""

WANTS_Q = re.compile(rf"\b({_a('wants_q')})\b", re.I)
"""A question about what the caller wants ('What date or time would you like to change it to?')."""


WHAT_ELSE = re.compile(rf"\s*(?:{_a('what_else')})\b", re.I)
"""'What else can I help you with?' is no yes/no question: the open request is said without 'Yes,'."""

LIST_INVITED = re.compile(rf"(?:{_a('list_invited')})", re.I)
"""An "anything else?" that asks for the whole list ('What other requests do you have?', 'Tell me
everything you need.'): every open check is asked at once; any other is answered one at a time."""

ONE_MORE = re.compile(rf"\b({_a('one_more')})\b", re.I)
"""An open question about one more thing ('What is the second thing?'): one request, not all."""

YES_THEN_WORD = re.compile(rf"^(?:{_a('yes_lead')})[,.]\s*(\w)")
SAID_LEAD = re.compile(rf"^(?:{_a('said_lead')})[,.]\s*")
"""The caller's own 'Yes,' / 'Actually,' that leads a line, taken off or re-led where it does not fit."""

HELD_ID_TAILS = tuple(phrases("followups", "held_id_tails"))
"""The last key word of an identifier the caller holds ('confirmation_number')."""
NOT_ID_WORDS = frozenset(phrases("followups", "not_id_words"))
"""Key words of a number that identifies no record ('phone')."""


def invites_list(heard: Heard) -> bool:
    """Whether the agent's question asks for the whole list of what the caller still needs
    (:data:`LIST_INVITED`): the open must-haves asked at once (:meth:`.agenda.Agenda.ask`)."""
    return bool(LIST_INVITED.search(heard.question))


def must_haves(asked: str) -> str:
    """What a check of must-haves is about, for :class:`.stall.Repeats`: the question itself, so
    the next must-have asked is new content and the same one asked again is a repeat."""
    return f"must-haves: {asked}"
