"""Weak-agent turns about the failure side of a call's end (:mod:`.weak_endings` and
:mod:`.weak_closings` have the others), made per scenario from its own requests and decision tree
by templates (``bench/lang/weak_<lang>.json``), never written per item. What each expects follows
EVA's caller prompt (``configs/prompts/simulation.yaml``, "Failure Case") and the tree's own lines:

* ``end_agent_error``: "I'm sorry, I encountered an error processing your request." (EVA's prompt,
  every domain: end the conversation when the assistant says something along those lines);
  expected: it ends;
* ``end_told_accept``: its first request refused and the caller told what a tree line says to
  accept and end on ("If told to visit IT security in person or call back later, accept that and
  end the call": "..., You'll need to visit IT security in person."), one item per thing told;
  expected: it ends (no follow-up question first: the tree says accept);
* ``end_told_if``: the same refusal with the thing told as a condition to come back on ("If you
  find the missing details, call back later and I can continue from there."): an invitation, not
  the outcome to accept; expected: it does not end (a follow-up question may come first);
* ``end_refused_transfer_wanted``: its first request refused twice, where the escalation rule says
  to ask for a live-agent transfer (and forbids none: "If the agent insists ..., ask to be
  transferred to a live agent"); expected: it does not end (it asks for the transfer, or its
  tree's next answer to the refusal): EVA's reference callers ask ("I want to speak with a
  supervisor or live agent now.");
* ``end_call_back_open``: its first request reported done, then "If anything else comes up, you
  can call back later." where a tree line says to accept being told to call back, another request
  open: a courtesy, no refusal; expected: it states an open request, does not end;
* ``end_last_confirmed``: the last request reported in other words of completion ("Your request to
  X is confirmed.", "... has been submitted. You'll receive a confirmation email shortly."), no
  question, the others done before; expected: it ends, or checks a must-have the report did not
  say (as ``end_last_no_question``);
* ``end_will_be_last``: after the last request was stated, its action said as to come, in the
  passive or the progressive ("Your request to X will be processed shortly.", "I'm submitting your
  request to X now."); expected: it does not end (EVA: "I'm processing that" is not completion);
* ``end_transfer_refused``: its first request refused, then a transfer refused ("I'm sorry, I
  can't transfer you to a live agent.", "Transfers aren't available."), whatever its escalation
  rule; expected: not a yes, and no transfer asked for or accepted (a push-back, its open request
  or goodbye, as its tree says);
* ``end_no_alternative`` / ``end_no_alternative_offer``: where the failure condition ends the call
  when "the request cannot be processed and there are no alternatives", its last open request
  refused with no alternative, nothing asked ("... cannot be processed, and there are no
  alternatives available.") / refused with an alternative offered or a question asked; expected:
  it ends / it does not end;
* ``end_transfer_fails``: where the failure condition ends the call on a transfer the agent
  refuses ('or if the agent says transfer is impossible, say goodbye'), its first request and a
  transfer refused in one turn, one item per template; expected: it ends;
* ``end_offer_if_not``: a transfer offered under a negative condition, with or without the comma
  a recogniser drops ("If you'd rather not wait for me to X a live agent can call you back.", "...
  if you don't want to wait."): an offer, not a transfer refused, one item per template;
  expected: a no where the escalation rule forbids a transfer (EVA: "If the agent offers to
  transfer you to a live agent, you must decline"), not a no where it names one; no ending.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voxbench.bench.weak_closings import must_words
from voxbench.bench.weak_endings import listed_all, open_words, requests_of, said_back

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder


def told_things(b: Builder) -> list[str]:
    """What the tree says to accept being told and end the call on ('visit IT security in person',
    'call back later'), each once, in the agent's words' order: the infinitive after 'told to'."""
    w = b.t.endings
    assert w is not None
    tree = b.scenario.user_goal.decision_tree
    lines = [
        *tree.negotiation_behavior,
        *tree.edge_cases,
        tree.escalation_behavior or "",
        tree.failure_condition or "",
    ]
    out: list[str] = []
    for line in lines:
        for m in re.finditer(w.told_accept, line, re.I):
            told = re.sub(w.told_filler, "", m.group("told"), flags=re.I).strip(" ,")
            for x in re.split(r",? or ", told):
                if x and x.lower() not in (o.lower() for o in out):
                    out.append(x)
    return out


def failures(b: Builder) -> None:
    """Every item of the classes above for one scenario."""
    w = b.t.endings
    reqs = requests_of(b)
    if w is None or not reqs:
        return
    listed = bool(b.scenario.scenario_context.get("intents"))
    mine = [said_back(w, r) for r in reqs]
    first = mine[0] if listed else w.that
    b.add("end_agent_error", b.template("end_agent_error", "").format(request=first))
    told = told_things(b)
    for x in b.pick(told, lambda x: f"told/{x}"):
        b.add("end_told_accept", b.template("end_told_accept", x).format(request=first, told=x))
    for x in b.pick(told, lambda x: f"if/{x}")[:1]:
        b.add("end_told_if", b.template("end_told_if", x).format(request=first, told=x))
    rule = b.scenario.user_goal.decision_tree.escalation_behavior or ""
    if re.search(w.asks_transfer, rule, re.I) and not re.search(w.forbids_transfer, rule, re.I):
        refusal = b.template("end_refused_once", "transfer").format(request=first)
        b.add("end_refused_transfer_wanted", refusal, context=[refusal])
    transfer_refused(b, first)
    offer_if_not(b, first)
    no_alternative(b, mine, listed)
    if not listed:
        return
    done = [b.template_of(w.done_report, "end_done", f"{n}").format(request=m) for n, m in enumerate(mine)]
    anything = b.template_of(w.anything_else, "end_anything_else", "")
    if len(reqs) >= 2 and told:
        b.add("end_call_back_open", f"{done[0]} {b.template('end_call_back_open', '')}")
        b.items[-1].open_words = open_words(reqs, list(range(1, len(reqs))), set(w.minor))
    ctx = [f"{d} {anything}" for d in done[:-1]]
    b.add("end_will_be_last", b.template("end_will_be_last", "").format(request=mine[-1]), context=ctx)
    behaviour = [
        x
        for x in listed_all(b)
        if re.search(w.behaviour, x, re.I) and not re.search(w.behaviour_with_request, x, re.I)
    ]
    if not behaviour:  # an in-call behaviour is raised once the rest is done: no ending there
        turn = b.template("end_last_confirmed", "").format(request=mine[-1])
        b.add("end_last_confirmed", turn, context=ctx)
        b.items[-1].open_words = must_words(b, turn)


def transfer_refused(b: Builder, first: str) -> None:
    """``end_transfer_refused``: a transfer refused after its first request was; and
    ``end_transfer_fails`` where the failure condition ends the call on that."""
    refusal = b.template("end_refused_once", "refused_transfer").format(request=first)
    b.add(
        "end_transfer_refused",
        b.template("end_transfer_refused", "").format(request=first),
        context=[refusal],
    )
    w = b.t.endings
    failure = b.scenario.user_goal.decision_tree.failure_condition or ""
    if w is not None and w.fails_transfer_at_once and re.search(w.fails_transfer_at_once, failure, re.I):
        for t in b.t.classes["end_transfer_fails"].templates:
            b.add("end_transfer_fails", t.format(request=first))


def offer_if_not(b: Builder, first: str) -> None:
    """``end_offer_if_not``: a transfer offered under a negative condition, one item per template,
    where the escalation rule forbids a transfer (expected: a no) or names one (not a no)."""
    w = b.t.endings
    assert w is not None
    rule = b.scenario.user_goal.decision_tree.escalation_behavior or ""
    forbids = bool(re.search(w.forbids_transfer, rule, re.I))
    if not forbids and not re.search(w.mentions_transfer, rule, re.I):
        return
    for t in b.t.classes["end_offer_if_not"].templates:
        b.add("end_offer_if_not", t.format(request=first))
        b.items[-1].act = "declines_no" if forbids else "transfer_ok"


def no_alternative(b: Builder, mine: list[str], listed: bool) -> None:
    """``end_no_alternative`` / ``end_no_alternative_offer``, where the failure condition has it:
    the last request refused (the others reported done before)."""
    w = b.t.endings
    assert w is not None
    if not re.search(w.fails_unprocessable, b.scenario.user_goal.decision_tree.failure_condition or "", re.I):
        return
    last = mine[-1] if listed else w.that
    anything = b.template_of(w.anything_else, "end_anything_else", "")
    done = [b.template_of(w.done_report, "end_done", f"{n}").format(request=m) for n, m in enumerate(mine)]
    ctx = [f"{d} {anything}" for d in done[:-1]] if listed else []
    alternative = b.template_of(w.alternatives, "end_no_alternative_offer", "") if w.alternatives else ""
    for cls in ("end_no_alternative", "end_no_alternative_offer"):
        b.add(cls, b.template(cls, "").format(request=last, alternative=alternative), context=ctx)
