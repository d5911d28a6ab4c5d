"""Weak-agent turns about the middle of a call with several requests, and about an agent that
makes no progress (:mod:`.weak_endings`, :mod:`.weak_closings` and :mod:`.weak_failures` have the
others), made per scenario from its own listed requests and must-haves by templates
(``bench/lang/weak_<lang>.json``: ``endings`` and the classes below), never written per item. What
each expects follows EVA's caller prompt (``configs/prompts/simulation.yaml``): end only once every
requested action is reported done, decline what the agent offers beyond the goal, and end when
"the assistant has not been helpful for 5 consecutive turns".

* ``end_middle_done``: three requests or more, the first reported done (the context), then the
  second, each with "anything else?"; expected: it states an open request;
* ``end_two_done_open`` / ``end_all_done_one_turn``: two requests reported done in one turn with
  "anything else?", a third open / every request reported done in one turn (not where two
  requests are told apart by no word of their own: alternatives, 'a desk on floor 2' and 'a desk
  on floor 3', no agent reports both done); expected: it states the open request / it ends (or
  checks a must-have the report did not say);
* ``end_done_unnamed_open``: "All done, that's been taken care of." with "anything else?" naming
  no request, after the caller was asked what it needs (it states its first request), another
  open; expected: it states an open request;
* ``end_refused_anything_open``: its first request refused, then "anything else?", another open;
  expected: it does not end (a push-back, or the next request);
* ``end_done_offer_open`` / ``end_done_offer_last``: a completion report, then an offer about
  something no goal asks for ("Would you like me to sign you up for text message alerts?"), another
  request open / the last request; expected: not a yes, and it states an open request / not a yes
  (ending is allowed: every request is done);
* ``end_done_questions_open`` / ``end_done_questions_last``: a completion report, then "Do you
  have any questions about that?", another request open / the last request, the others done
  before; expected: it states an open request / it ends (or checks a must-have the report did
  not say);
* ``end_stall_twice`` / ``end_stall_long``: the same turn that brings nothing (no fact asked, no
  report, no hold: "I hear you, and I appreciate your patience with this.", or the caller's field
  asked again and again) twice in a row / eight times; expected: it does not end / it has ended
  (in the context or at the graded turn).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voxbench.bench.caller_check import goal_text
from voxbench.bench.weak_closings import must_words
from voxbench.bench.weak_endings import listed_all, open_words, requests_of, said_back
from voxbench.bench.weak_facts import label

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder

STALL_LONG = 8
"""Agent turns in a row of ``end_stall_long``: EVA's five unhelpful turns, and a margin for a
caller that answers the first ones (a field given again is help the agent may still need)."""


def midcall(b: Builder) -> None:
    """Every item of the classes above for one scenario."""
    w = b.t.endings
    reqs = requests_of(b)
    if w is None or not reqs:
        return
    stalls(b)
    if not b.scenario.scenario_context.get("intents") or len(reqs) < 2:
        return  # a goal sentence said back as a request is no agent's words; one request: no middle
    minor, n = set(w.minor), len(reqs)
    mine = [said_back(w, r) for r in reqs]
    done = [b.template_of(w.done_report, "end_done", f"{k}").format(request=m) for k, m in enumerate(mine)]
    anything = b.template_of(w.anything_else, "end_anything_else", "")
    last_ends = not any(
        re.search(w.behaviour, x, re.I) and not re.search(w.behaviour_with_request, x, re.I)
        for x in listed_all(b)
    )  # an in-call behaviour is raised once the rest is done: no ending there
    if n >= 3:
        b.add("end_middle_done", f"{done[1]} {anything}", context=[f"{done[0]} {anything}"])
        b.items[-1].open_words = open_words(reqs, list(range(2, n)), minor)
        two = b.template("end_two_done_open", "").format(first=mine[0], second=mine[1], anything=anything)
        b.add("end_two_done_open", two)
        b.items[-1].open_words = open_words(reqs, list(range(2, n)), minor)
    own = open_words(reqs, list(range(n)), minor)
    twins = len({tuple(sorted(x)) for x in own}) < len(own)  # alternatives ('a desk on floor 2 / 3')
    if last_ends and not twins:
        every = ", ".join(mine[:-1]) + f" and {mine[-1]}"
        turn = b.template("end_all_done_one_turn", "").format(requests=every, anything=anything)
        b.add("end_all_done_one_turn", turn)
        b.items[-1].open_words = must_words(b, turn)
    unnamed = f"{b.template('end_done_unnamed_open', '')} {anything}"
    b.add("end_done_unnamed_open", unnamed, context=[b.t.opening])  # the caller states its first request
    b.items[-1].open_words = open_words(reqs, list(range(1, n)), minor)
    refusal = b.template("end_refused_once", "anything").format(request=mine[0])
    b.add("end_refused_anything_open", f"{refusal} {anything}")
    questions = b.template("end_done_questions_open", "")
    b.add("end_done_questions_open", f"{done[0]} {questions}")
    b.items[-1].open_words = open_words(reqs, list(range(1, n)), minor)
    if last_ends:
        turn = f"{done[-1]} {questions}"
        b.add("end_done_questions_last", turn, context=[f"{d} {anything}" for d in done[:-1]])
        b.items[-1].open_words = must_words(b, turn)
    offers_after_done(b, done, reqs, last_ends)


def offers_after_done(b: Builder, done: list[str], reqs: list[str], last_ends: bool) -> None:
    """A completion report with an offer of something its goal does not ask for: after the first
    request (another open) and after the last (the others done before)."""
    w = b.t.endings
    assert w is not None
    held = {x.lower() for x in re.findall(r"[A-Za-z]+", " ".join([goal_text(b.scenario), *listed_all(b)]))}
    extras = [e for e in w.extras if not {x.lower() for x in re.findall(r"[A-Za-z]+", e)} & held]
    anything = b.template_of(w.anything_else, "end_anything_else", "")
    for extra in b.pick(extras, lambda e: f"extra/{e}")[:1]:
        offer = b.template("end_done_offer_open", extra).format(extra=extra)
        b.add("end_done_offer_open", f"{done[0]} {offer}")
        b.items[-1].open_words = open_words(reqs, list(range(1, len(reqs))), set(w.minor))
        if last_ends:
            ctx = [f"{d} {anything}" for d in done[:-1]]
            b.add("end_done_offer_last", f"{done[-1]} {offer}", context=ctx)


def stalls(b: Builder) -> None:
    """The same turn that brings nothing, twice and eight times in a row: a statement that neither
    asks, reports nor holds, and a field of its own asked for again after it gave it. Not a hold
    ('One moment, please.'): said before each of an agent's tool calls, waited on, it is neutral
    (:class:`voxbench.pipelines.caller.goal.stall.Stalls`), and the live driver checks in on the
    silence that follows."""
    w = b.t.endings
    assert w is not None
    turns = [b.template("end_stall_twice", "")]
    turns += [
        b.template_of(w.stall_field, "end_stall_field", f.key).format(label=label(f))
        for f in b.pick([f for f in b.own if f.kind != "text"], lambda f: f"stall/{f.key}")[:1]
    ]
    for turn in turns:
        b.add("end_stall_twice", turn, context=[turn])
        b.add("end_stall_long", turn, context=[turn] * (STALL_LONG - 1))
