"""Facts a turn says the values of and asks for again (:func:`said_and_asked_again`).

A value the agent says is no request for it ('forget the network called CorpNet':
:func:`.requested.not_said_by_agent`), unless the agent asks for it again by name. Read back
with a second fact and asked again together ('I have 3902 for the phone number and Jason for the
first name. Can you repeat your phone number and first name?'), the caller gave the name alone
(weak class ``readback_both_asked``): a re-ask of the shape seen live in ``make run`` ('Could you
give me your confirmation number and last name again?' answered 'It's Whitfield.').
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.asks import asked_facts
from voxbench.pipelines.caller.goal.facts import FactBook
from voxbench.pipelines.caller.goal.lang import alt
from voxbench.pipelines.caller.goal.rules import CONTEXT
from voxbench.pipelines.caller.goal.turn import Turn

_REASKED = re.compile(
    rf"\b(?:{alt('reask', 'verbs')})\b.*\b(?:{alt('reask', 'again')})\b|\b(?:{alt('reask', 'repeat_your')})\b",
    re.I,
)
"""A request for values given before: a giving verb and 'again', or 'repeat your'."""


def said_and_asked_again(
    t: Turn, book: FactBook, asked: dict[str, str], kept: dict[str, str]
) -> dict[str, str]:
    """Facts whose values the turn says, asked again by name in a request saying so ('I have 3902
    and Jason. Can you repeat your phone number and first name?'): each is asked, though its key
    has a word the request leaves out ('Phone number (if requested for contact)'). 'Again' of no request for a value ('an aisle
    seat again?') and 'slowly' or 'read' (one value read over) are not enough."""
    if len(kept) == len(asked):
        return kept
    again = {
        k
        for s in t.requests
        if _REASKED.search(s)
        for k, r in asked_facts(s, book)
        if not r.startswith(CONTEXT)
    }
    return {k: r for k, r in asked.items() if k in kept or k in again}
