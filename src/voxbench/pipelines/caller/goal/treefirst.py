"""The tree's own question before any answer to an offer made with a refusal.

A tree often names the one question to ask when a request is refused ("If the agent says floor 2
has no availability, ask exactly one follow-up question: whether anything else is open in
Headquarters", :mod:`.treeasks`). An agent that refuses often offers something in the same turn
("... I can put you on the waitlist. Would you like that?", "... Would you like me to submit a
general inquiry ticket instead?"). The tree's caller asks its question first, whatever the offer:

The question is the one the tree names for that refusal (:meth:`.pushback.PushBacks.tree_question`),
or its next scripted line when that is the quoted follow-up question its step names.

* an offer it would take (a yes, an option chosen, or one of its own requests offered: the
  waitlist it would settle for): the question alone; the offer is answered when the agent has
  answered the question (it comes again, or the caller states the request);
* an offer outside its goal, which it declines: the decline and the question together ("No,
  thank you. Is there any exception for this shift?"), so the question is not lost to the no.

A read-back is no offer: it is confirmed first ('I heard G O 362 6181. Is that right?'). A refusal
is a statement: a question with a negation in it ('is your account locked, or has your password
expired and you cannot reset it?') refuses nothing, and its options are answered.
"""

from __future__ import annotations

from voxbench.pipelines.caller.goal.acting import ActLog
from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.classify import Heard
from voxbench.pipelines.caller.goal.drafts import Draft
from voxbench.pipelines.caller.goal.pushback import refuses
from voxbench.pipelines.caller.goal.rules import CONFIRM_READBACK, OFFER_OUTSIDE_GOAL
from voxbench.pipelines.caller.goal.state import CallState

_TAKES = ("confirm", "choose")
"""Draft kinds that take an offer: the tree's question is asked instead, alone."""
_DECLINES = (OFFER_OUTSIDE_GOAL,)
"""Draft rules that decline an offer outside the goal: the decline and the question together."""


def tree_first(s: CallState, log: ActLog, text: str, heard: Heard, d: Draft | None) -> CallerAct | None:
    """The tree's question for the refusal in ``text`` when the turn also offers something
    (``d``: the caller's draft answer to the offer; None: one of its own requests offered, which
    it would take); None when the turn refuses nothing, the tree names no question for this
    refusal or has asked it, or the draft is neither an offer taken nor one declined."""
    if not heard.has("denial") or not refuses(text):
        return None
    declines = d is not None and d.kind == "refuse" and d.rule in _DECLINES
    if d is not None and not declines and (d.kind not in _TAKES or d.rule == CONFIRM_READBACK):
        return None
    own = s.push.tree_question(text)
    said = (own, "tree_follow_up_question") if own is not None else s.push.scripted_follow_up(text)
    if said is None:
        return None
    line = f"{' '.join(d.parts)} {said[0]}" if d is not None and declines else said[0]
    rule = f"{said[1]}_after_no" if declines else said[1]
    return log.act("pushback", line, rule, heard, choice="no" if declines else "")
