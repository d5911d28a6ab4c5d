"""Weak-agent turns offering an alternative the caller's tree says to decline (:mod:`.weak_turns`),
from each scenario's own decision tree:

* ``alternative_declined``: a tree step "If the agent suggests/offers/asks ... a different (another,
  other) <thing> ..., decline (say no, refuse, reject)", read here by the bench's own pattern
  (``alternative_declined`` in ``bench/lang/weak_<lang>.json``), never the caller's; the agent turn
  offers that thing, as a question or as a statement ("I could check a different airport for
  you."); expected (act ``declines``, :func:`.weak_endings.problem`): not a yes, no hang-up.

Only the condition form is read: the thing named in the condition the decline answers; a step
that declines one thing and asks for another ('reject them and ask to look for any other return
options') names no thing to decline here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pydantic import BaseModel

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder


class AlternativeWords(BaseModel):
    """How a tree step declining an alternative is read (``alternative_declined``)."""

    step: str
    """A step with group ``noun``: the thing of which an alternative is declined."""
    not_things: list[str]
    """Words after 'other' that name no thing ('other than')."""


def declined(b: Builder, w: AlternativeWords) -> list[str]:
    """The things its tree says to decline an alternative of, each once, singular."""
    tree = b.scenario.user_goal.decision_tree
    out: list[str] = []
    for line in [*tree.negotiation_behavior, *tree.edge_cases]:
        for m in re.finditer(w.step, line, re.I):
            noun = m.group("noun").lower()
            noun = noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun
            if noun not in w.not_things and noun not in out:
                out.append(noun)
    return out


def alternatives_declined(b: Builder) -> None:
    """The class's items of one scenario (see the module docstring)."""
    w = b.t.alternative_declined
    if w is None:
        return
    for noun in b.pick(declined(b, w), lambda x: f"alt/{x}"):
        for t in b.pick(b.t.classes["alternative_declined"].templates, lambda t, n=noun: f"{n}/{t}")[:2]:
            b.add("alternative_declined", t.format(thing=noun))
