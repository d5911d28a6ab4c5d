"""Weak-agent turns where a caller may end before EVA's rules let it (issue 29: premature endings),
made per scenario from its own requests and decision tree by templates (``bench/lang/weak_<lang>.json``,
the ``prem_*`` classes); :mod:`.weak_refpremature` says the same turns in EVA's reference agents' words.

EVA's caller ends on its failure case or its success case (``configs/prompts/simulation.yaml``). A
transfer its escalation rule forbids is declined, and the call ends "per your failure condition"
once the agent "cannot proceed": with another request open that the agent has neither done nor
refused, the agent has not said it cannot proceed with that one. "Anything else?" is answered no
only "after you have achieved your must-have criteria", and "if it is unclear if the agent has
actually finished all actions, ask the agent for confirmation". Each class puts the caller where
one of its ending rules could end the call although those conditions do not hold:

* ``prem_transfer_again_open``: where the escalation rule forbids a transfer, its first request
  refused with a live-agent transfer offered (the context: it declines), then the same offer again,
  another request open; expected: not a yes, no ending (``declines``: a push-back its tree still
  holds, or an open request), not goodbye (the ``declined_transfer_end`` rule);
* ``prem_refused_next_unnamed``: where a tree line says to ask one follow-up and then accept, two
  requests or more: the request that line names refused twice (the context: the follow-up, then
  the caller moves on to the next), then a refusal naming nothing ("I'm sorry, I can't do that
  either."): it refuses the request the caller has just stated, which has had none of its tree's
  answers; expected: no ending (a push-back, a follow-up or the next request: ``not_end``), not the
  failure condition the first request's refusal spent (the ``failure_condition_end`` rule);
* ``prem_check_unanswered``: two must-haves or more, one reported met with "anything else?" (the
  context: it asks about the others before it ends), then the check only said to be under way
  and "anything else?" ("Let me check on that for you. Is there anything else ...?"): an action
  said as to come is no outcome (EVA: "I'm processing that" is not completion); expected: it asks
  about an untold must-have again (a third of its own words, ``next_request``), not "No, that's
  everything." (the ``nothing_else_end`` rule).

An item's ``open_words`` are the words of what is still open (:func:`.weak_endings.open_words`,
:func:`.weak_closings.must_words`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from voxbench.bench.matcher import same_word, words_of
from voxbench.bench.weak_closings import part_done_turn
from voxbench.bench.weak_endings import open_words, requests_of, said_back

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder


class Setting(NamedTuple):
    """The context of a class for one scenario and the words of what stays open after it."""

    context: list[str]
    open_words: list[list[str]]


def transfer_again(b: Builder, offer: str = "") -> Setting | None:
    """``prem_transfer_again_open``'s context (``offer``: the offer's words, else the template's
    refusal of its first request with the offer), where the escalation rule forbids a transfer and
    another request stays open; None elsewhere."""
    w = b.t.endings
    reqs = requests_of(b) if w is not None else []
    if w is None or len(reqs) < 2 or not b.scenario.scenario_context.get("intents"):
        return None
    if not re.search(w.forbids_transfer, b.scenario.user_goal.decision_tree.escalation_behavior or "", re.I):
        return None
    offer = offer or b.template("end_transfer_forbidden", "").format(request=said_back(w, reqs[0]))
    return Setting([offer], open_words(reqs, list(range(1, len(reqs))), set(w.minor)))


def refused_then_next(b: Builder) -> Setting | None:
    """``prem_refused_next_unnamed``'s context: the request a 'one follow-up, then accept' tree line
    names most refused twice (the caller then moves on), two requests or more; None elsewhere."""
    w = b.t.endings
    reqs = requests_of(b) if w is not None else []
    if w is None or len(reqs) < 2 or not b.scenario.scenario_context.get("intents"):
        return None
    tree = b.scenario.user_goal.decision_tree
    esc = tree.escalation_behavior or ""
    if re.search(w.asks_transfer, esc, re.I) and not re.search(w.forbids_transfer, esc, re.I):
        return None  # a rule asking for a transfer once refused: the transfer ask comes first
    lines = [*tree.negotiation_behavior, tree.failure_condition or "", esc]
    line = next((x for x in lines if re.search(w.one_follow_up, x, re.I)), None)
    if line is None:
        return None
    minor, said = set(w.minor), words_of(line)
    own = open_words(reqs, list(range(len(reqs))), minor)
    if len(own) != len(reqs):
        return None
    score = [sum(any(same_word(g, x) for g in said) for x in ws) for ws in own]
    if max(score) == 0:
        return None
    i = score.index(max(score))
    refusal = b.template("end_refused_once", reqs[i]).format(request=said_back(w, reqs[i]))
    rest = [j for j in range(len(reqs)) if j != i]
    return Setting([refusal, refusal], open_words(reqs, rest, minor))


def check_unanswered(b: Builder) -> Setting | None:
    """``prem_check_unanswered``'s context: one must-have of two or more reported met with
    "anything else?" (:func:`.weak_closings.part_done_turn`); None where the goal has fewer."""
    reqs = requests_of(b)
    said = part_done_turn(b, reqs) if reqs else None
    return Setting([said[0]], said[1]) if said is not None else None


def premature(b: Builder) -> None:
    """Every item of the classes above for one scenario."""
    w = b.t.endings
    if w is None:
        return
    if (s := transfer_again(b)) is not None:
        b.add("prem_transfer_again_open", s.context[-1], context=s.context)
        b.items[-1].open_words = s.open_words
    if (s := refused_then_next(b)) is not None:
        b.add("prem_refused_next_unnamed", b.template("prem_refused_next_unnamed", ""), context=s.context)
        b.items[-1].open_words = s.open_words
    if (s := check_unanswered(b)) is not None:
        anything = b.template_of(w.anything_else, "prem_check_unanswered", "")
        turn = b.template("prem_check_unanswered", "").format(anything=anything)
        b.add("prem_check_unanswered", turn, context=s.context)
        b.items[-1].open_words = s.open_words
