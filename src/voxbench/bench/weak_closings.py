"""More weak-agent turns about the end of a call (:mod:`.weak_endings` has the first ones): what a
real agent says around its last report, made per scenario from its own listed requests, its
must-haves and its escalation rule, by templates (``bench/lang/weak_<lang>.json``: ``endings`` and
the classes below), never written per item. What each expects follows EVA's caller prompt
(``configs/prompts/simulation.yaml``): end only once every requested action is reported done ("not
just the agent saying they will do it"), "if it is unclear ..., ask the agent for confirmation",
say no and end to "anything else?" once the must-haves are met, decline a transfer the escalation
rule forbids and end on the next turn, never end in the turn that agrees to a transfer.

* ``end_other_order`` / ``end_other_order_all``: the requests reported done in the reverse of the
  listed order, each with "anything else?": the first report (the last request) graded, another
  open; expected: it states an open request / the last report graded; expected: it ends;
* ``end_last_no_question``: the last request reported done with no question (the others done with
  "anything else?" before); expected: it ends (the success case is met);
* ``end_done_bye`` / ``end_done_bye_open``: a report and a goodbye in one turn, the last request /
  the first one, another open; expected: it ends / it raises an open request, does not end;
* ``end_that_all`` / ``end_that_all_open``: a report, then "Will that be all for today?" (a yes
  means nothing is left), the last request / the first, another open; expected: it ends / it
  states an open request;
* ``end_hold_last`` / ``end_will_do_last``: after the last request was stated, a hold ("One
  moment while I process that.") / the action announced, not reported ("I'll go ahead and
  {request} now."); expected: it does not end;
* ``end_part_done``: one must-have of a goal with two or more reported met ("I've taken care of
  that: your return flight remains unchanged on June 12."), then "anything else?", the others
  untold; expected: it states an open must-have (a third of its own words) or an open request;
* ``end_refused_alt``: its first request refused with an alternative outside its goal offered
  ("..., but I can put in a general inquiry ticket instead. Would you like that?"); expected: not
  a yes, does not end;
* ``end_transfer_forbidden`` / ``end_transfer_forbidden_again``: "I can't help with that. Would
  you like me to transfer you to a live agent?" where the escalation rule forbids a transfer
  (``endings.forbids_transfer``) / the same offer again; expected: not a yes, does not end / not
  a yes (ending is allowed: the agent has signalled it cannot proceed);
* ``end_transfer_allowed``: the same offer where the rule allows one; expected: not a no, does not
  end (the caller's agreement is approval to proceed, not the end).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voxbench.bench.caller_check import goal_text
from voxbench.bench.weak_endings import (
    EndingWords,
    content,
    listed_all,
    open_words,
    requests_of,
    said_back,
    second_person,
)

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder


def closings(b: Builder) -> None:
    """Every item of the classes above for one scenario."""
    w = b.t.endings
    reqs = requests_of(b)
    if w is None or not reqs:
        return
    part_done(b, reqs)
    if not b.scenario.scenario_context.get("intents"):
        return  # a goal sentence said back as a request is no agent's words
    minor = set(w.minor)
    mine = [said_back(w, r) for r in reqs]
    done = [b.template_of(w.done_report, "end_done", f"{n}").format(request=m) for n, m in enumerate(mine)]
    anything = b.template_of(w.anything_else, "end_anything_else", "")
    ctx = [f"{d} {anything}" for d in done[:-1]]  # every request but the last reported done
    n = len(reqs)
    # the caller's in-call behaviour ('skip the calendar invite') is raised once the rest is done
    last_ends = not any(behaviour_intent(x, w) for x in listed_all(b))
    if n >= 2:
        back = [f"{d} {anything}" for d in reversed(done)]
        b.add("end_other_order", back[0])
        b.items[-1].open_words = open_words(reqs, list(range(n - 1)), minor)
        if last_ends:
            b.add("end_other_order_all", back[-1], context=back[:-1])
            b.items[-1].open_words = must_words(b, back[-1])
        bye = b.template("end_done_bye_open", "")
        b.add("end_done_bye_open", f"{done[0]} {bye}")
        b.items[-1].open_words = open_words(reqs, list(range(1, n)), minor)
        all_ = b.template("end_that_all_open", "")
        b.add("end_that_all_open", f"{done[0]} {all_}")
        b.items[-1].open_words = open_words(reqs, list(range(1, n)), minor)
    if last_ends:
        for cls, turn in (("end_last_no_question", done[-1]),
                          ("end_that_all", f"{done[-1]} {b.template('end_that_all', '')}")):  # fmt: skip
            b.add(cls, turn, context=ctx)
            b.items[-1].open_words = must_words(b, turn)
    b.add("end_done_bye", f"{done[-1]} {b.template('end_done_bye', '')}", context=ctx)
    b.add("end_hold_last", b.template("end_hold_last", ""), context=ctx)
    b.add("end_will_do_last", b.template("end_will_do_last", "").format(request=mine[-1]), context=ctx)
    refusals(b, mine[0])


def behaviour_intent(intent: str, w: EndingWords) -> bool:
    return bool(re.search(w.behaviour, intent, re.I)) and not re.search(
        w.behaviour_with_request, intent, re.I
    )


def _musts(b: Builder) -> list[str]:
    """The goal's must-haves as plain statements: asides in brackets and 'the agent confirms'
    leads left out."""
    w = b.t.endings
    assert w is not None
    out = []
    for m in b.scenario.user_goal.decision_tree.must_have_criteria:
        m = re.sub(r"\s*\([^)]*\)|\b(?:i\.e|e\.g)\.,?\s*", " ", m)
        out.append(re.sub(w.agent_says, "", " ".join(m.split()), flags=re.I).strip().rstrip("."))
    return [m for m in out if m]


def must_words(b: Builder, report: str) -> list[list[str]]:
    """Each must-have's words that the report does not say (a check before ending names them)."""
    w = b.t.endings
    assert w is not None
    minor = set(w.minor) | set(content(report, set()))
    musts = _musts(b)
    return open_words(musts, list(range(len(musts))), minor)


def part_done(b: Builder, reqs: list[str]) -> None:
    """One must-have reported met as a statement in the second person, the others left untold."""
    said = part_done_turn(b, reqs)
    if said is not None:
        b.add("end_part_done", said[0])
        b.items[-1].open_words = said[1]


def part_done_turn(b: Builder, reqs: list[str]) -> tuple[str, list[list[str]]] | None:
    """``end_part_done``'s turn (one must-have of two or more reported met, then "anything else?")
    and the words of what stays open: the other must-haves, and the requests when listed; None
    where the goal has fewer than two must-haves short enough to say back."""
    w = b.t.endings
    assert w is not None
    musts = [m for m in _musts(b) if len(m.split()) <= w.part_done_max_words]
    if len(musts) < 2:
        return None
    k = b.pick(list(range(len(musts))), lambda i: f"must/{i}")[0]
    said = second_person(re.sub(r"\bmust (\w+)", lambda m: w.must_swap.get(m.group(1).lower(), f"{m.group(1)}s"),
                                musts[k]), w.person_swap)  # fmt: skip
    turn = b.template("end_part_done", "").format(
        done=said, anything=b.template_of(w.anything_else, "end_anything_else", "")
    )
    minor = set(w.minor) | set(content(said, set()))
    others = [m for i, m in enumerate(musts) if i != k]
    listed = open_words(reqs, list(range(len(reqs))), minor) if listed_all(b) else []
    return turn, open_words(others, list(range(len(others))), minor) + listed


def refusals(b: Builder, first: str) -> None:
    """Its first request refused with an alternative outside its goal offered, and with a transfer
    offered where the escalation rule forbids or allows one."""
    w = b.t.endings
    assert w is not None
    held = {x.lower() for x in re.findall(r"[A-Za-z]+", " ".join([goal_text(b.scenario), *listed_all(b)]))}
    alts = [a for a in w.alternatives if not {x.lower() for x in a.split()} & held]
    for alt in b.pick(alts, lambda a: f"alt/{a}")[:1]:
        b.add("end_refused_alt", b.template("end_refused_alt", alt).format(request=first, alternative=alt))
    offer = b.template("end_transfer_forbidden", "").format(request=first)
    rule = b.scenario.user_goal.decision_tree.escalation_behavior or ""
    if re.search(w.forbids_transfer, rule, re.I):
        b.add("end_transfer_forbidden", offer)
        b.add("end_transfer_forbidden_again", offer, context=[offer])
    elif re.search(w.mentions_transfer, rule, re.I):
        b.add("end_transfer_allowed", offer)
