"""An alternative the agent offers is taken only where the caller's tree takes it.

"I could check another floor for you." meets no must-have a rule can check, and a caller with no
other word on it says yes. Where its tree says to decline such an offer ("Do not ask for other
floors, other buildings, or alternative workspace options ...; if asked, decline alternatives and
restate that you only want FL1", "If the agent suggests flying from or to a different airport,
decline and insist on AUS to LAX only"), the caller declines it and restates what it wants.

An offer is of an alternative when it names 'another', 'a different', 'other' ... thing
(``alternatives.other``); the tree declines it when one of its sentences has a clause that says to
decline (``alternatives.decline``) and nothing to accept (``alternatives.accept``), and the sentence
names an alternative of the same thing ('other floors' for 'another floor'), or alternatives in
general ('decline alternatives', ``alternatives.generic``). The words are data (``goal/lang``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from voxbench.pipelines.caller.goal.conditions import unconditioned
from voxbench.pipelines.caller.goal.cues import DENIAL
from voxbench.pipelines.caller.goal.drafts import Draft
from voxbench.pipelines.caller.goal.facts import stem
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.phrases import as_need
from voxbench.pipelines.caller.goal.rules import CONFIRM_OFFER
from voxbench.pipelines.caller.goal.state import CallState
from voxbench.spoken import sentences_of

_OTHER = re.compile(
    rf"\b(?:{alt('alternatives', 'other')})\s+(?:[a-z]+\s+){{0,2}}?(?P<noun>[a-z]+s?)\b", re.I
)
_DECLINE = re.compile(rf"\b(?:{alt('alternatives', 'decline')})\b", re.I)
_ACCEPT = re.compile(rf"\b(?:{alt('alternatives', 'accept')})\b", re.I)
_GENERIC = frozenset(stem(w) for w in phrases("alternatives", "generic"))


_NOT_THINGS = frozenset(phrases("alternatives", "not_things"))
_NAMED = re.compile(rf"\b(?:{alt('alternatives', 'named')})\b", re.I)
_OBJECT = 30
"""Characters after a decline word its object is in ('decline alternatives', 'do not ask for other
floors'); what comes later ('reject them and ask ... to look for any other return options') is
another act."""


def _things(text: str) -> set[str]:
    """The things named as alternatives ('another floor', 'other buildings', 'alternatives'); not
    'other than X'."""
    out = {stem(n) for m in _OTHER.finditer(text) if (n := m["noun"].lower()) not in _NOT_THINGS}
    out |= {stem(g) for g in _NAMED.findall(text)}
    return out


def declined_things(lines: list[str]) -> set[str]:
    """The alternatives the tree's ``lines`` say to decline: in a clause that says to decline and
    nothing to accept, those named before the decline word (its condition: 'If the agent suggests
    a different airport, decline') or as its object (see the module docstring)."""
    out: set[str] = set()
    for line in lines:
        for s in sentences_of(line):
            for c in re.split(r"[;:]|,\s*(?=if\b)", s):
                if _ACCEPT.search(c):
                    continue
                for m in _DECLINE.finditer(c):
                    out |= _things(c[: m.start()]) | _things(c[m.end() : m.end() + _OBJECT])
    return out


def decline_alternative(s: CallState, text: str, d: Draft, restate: Callable[[], str]) -> None:
    """A yes drafted to an offer of an alternative the tree declines (``text``: the agent's turn)
    made the tree's no, with the request in hand restated (``restate``)."""
    if d.rule != CONFIRM_OFFER:
        return
    offered = _things(text)
    if not offered:
        return
    tree = s.scenario.user_goal.decision_tree
    declined = declined_things([*tree.negotiation_behavior, *tree.edge_cases])
    if not (offered & declined or (declined & _GENERIC and offered)):
        return
    d.parts, d.facts = [s.phr.say("no_thanks"), restate()], []
    d.kind, d.rule, d.choice = "refuse", "alternative_tree_declines", "no"


def ask_fallback(s: CallState, text: str, d: Draft) -> None:
    """A yes drafted to an offer made with a refusal of a request the goal backs up ('No desks are
    open on floor 2. I can place you on the desk waitlist. Would you like me to do that?' to a
    caller who takes floor 3 if floor 2 is full: :mod:`.contingent`): an offer that does not name
    that fallback is not taken; the fallback is asked for instead."""
    if d.rule != CONFIRM_OFFER:
        return
    t = s.tracker
    sents = sentences_of(text)
    refusal = " ".join(x for x in sents if DENIAL.search(unconditioned(x)))
    refused = {i for i in range(len(t.intents)) if refusal and not t.fallback[i] and t.says(i, refusal)}
    fb = t.fallback_for(refused) if refused else None
    if fb is None or t.fallback_named(" ".join(x for x in sents if x not in refusal)) == fb:
        return  # the fallback offered (named outside the refusal: 'B L D three, floor two' names no floor 3)
    need = as_need(s.plain[fb])
    d.parts, d.facts = [s.phr.say("no_thanks"), f"{need[:1].upper()}{need[1:]}."], []
    d.kind, d.rule, d.choice = "refuse", "offer_not_fallback", "no"
