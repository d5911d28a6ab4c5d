"""Weak-agent turns that refuse what a tree names one follow-up question for, and offer something
else in the same turn (:mod:`.weak_turns`), from each scenario's own decision tree:

* ``tree_ask_offered``: a tree step "If the agent says <X>, ask exactly one follow-up question:
  [ask] whether <Y>" (or the question quoted, in any quote style: :mod:`voxbench.spoken.quotes`), read here by the bench's own patterns
  (``tree_asked`` in ``bench/lang/weak_<lang>.json``), never by the caller's; the agent turn is
  <X> said as a refusal, then an alternative no goal of the caller's asks for offered, as a
  question or as a statement ("I'm sorry, the shift cannot be swapped because it is within 24
  hours. Would you like me to submit a general inquiry ticket instead?"); expected (act
  ``asks_tree``): the tree's question, two thirds of its content words, not a yes to the offer,
  no hang-up (a no to the offer beside the question is the caller's to say).

A step is used only where its condition reads as the agent's own statement of a refusal: a
negation in it, and no words about the caller's or the agent's moves ('respond', 'pushback',
'the agent'), which a template cannot say for the agent.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pydantic import BaseModel

from voxbench.bench.matcher import words_of
from voxbench.bench.reference import BYE, reply_polarity
from voxbench.spoken.quotes import double_quoted

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder, WeakItem

ACTS = ("asks_tree",)


class TreeAskedWords(BaseModel):
    """The patterns a tree step naming its follow-up question is read by (``tree_asked``)."""

    step: str
    """A step: group ``cond`` (the condition after its lead), ``clause`` (after 'whether' / 'if')
    or ``quoted`` (the question in quotes)."""
    negation: str
    """A condition that states a refusal or an absence has one of these."""
    not_agent: str
    """A condition with these words is about moves a template cannot say for the agent."""
    function_words: list[str]
    """Words the caller's question may say otherwise ('they' -> 'you') or that carry no content."""
    agent_swap: dict[str, str]
    """The agent named in the third person in a condition, as it says it ('they cannot' -> 'I cannot')."""


def tree_steps(b: Builder, w: TreeAskedWords) -> list[tuple[str, str]]:
    """(the refusal as the agent says it, the tree's question) for each step of the tree that
    names one follow-up question on a refusal (see the module docstring)."""
    tree = b.scenario.user_goal.decision_tree
    out: list[tuple[str, str]] = []
    for line in [*tree.negotiation_behavior, *tree.edge_cases]:
        for s in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9])", double_quoted(line)):
            m = re.search(w.step, s, re.I)
            if m is None:
                continue
            cond = m.group("cond").strip(" ,;:")
            asked = (m.group("quoted") or m.group("clause") or "").strip(" .;")
            if not asked or not re.search(w.negation, cond, re.I) or re.search(w.not_agent, cond, re.I):
                continue
            said = re.sub(r"[A-Za-z']+", lambda x: w.agent_swap.get(x.group(0).lower(), x.group(0)), cond)
            out.append((said[:1].lower() + said[1:] if said[:2] != "I " else said, asked))
    return out


def tree_asked(b: Builder) -> None:
    """The class's items of one scenario (see the module docstring)."""
    w, e = b.t.tree_asked, b.t.endings
    if w is None or e is None or not e.alternatives:
        return
    minor = set(e.minor) | set(w.function_words)
    for refusal, asked in b.pick(tree_steps(b, w), lambda x: x[1]):
        words = [x for x in words_of(asked) if len(x) >= 4 and x.isalpha() and x not in minor]
        if not words:  # nothing to tell the tree's question by: any reply but a yes would pass
            continue
        other = b.template_of(e.alternatives, "tree_ask_offered", asked)
        for t in b.pick(b.t.classes["tree_ask_offered"].templates, lambda t, a=asked: f"{a}/{t}")[:2]:
            b.add("tree_ask_offered", t.format(refusal=refusal, alternative=other))
            b.items[-1].words = words
            b.items[-1].not_offered = [other]


def problem(item: WeakItem, reply: str, ends_call: bool) -> str:
    """Why the reply is not the act expected ('' when it is); its words are checked by the grader."""
    if ends_call or BYE.search(reply):
        return "hung up"
    return "a yes to the offer before the tree's question" if reply_polarity(reply) == "yes" else ""
