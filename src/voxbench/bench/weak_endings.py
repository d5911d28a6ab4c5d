"""Weak-agent turns about the end of a call: what a caller with more than one request meets, made
per scenario from its own requests (the listed intents, else the goal sentence as one) by templates
(``bench/lang/weak_<lang>.json``, ``endings`` and the ``end_*`` classes), never written per item.

The reference turns leave too few ending cases to learn from (dev: 2 premature and 3 missed of 95
scenarios), and no reference agent says goodbye while a request is open. The classes:

* ``end_next_after_done``: its first request reported done, then "Is there anything else I can
  help you with?" with another open; expected: it states an open request, does not end;
* ``end_all_done``: each request reported done in turn (the context; each report asks "anything
  else?"), the last one graded; expected: it ends;
* ``end_done_no_question``: its first request reported done, no question, another open; expected:
  it does not end (waits, thanks, or states the next);
* ``end_agent_bye_open`` / ``end_agent_bye_again``: the agent says goodbye with a request open;
  expected: it raises the request once (EVA's caller prompt: "confirm with the agent that there
  are no outstanding actions" before ending) / the same goodbye again: it ends;
* ``end_transfer_now``: "I'm transferring you to a live agent now."; expected: it ends (EVA's
  prompt: once the transfer is initiated do not stay on the call; one the escalation rule forbids:
  hang up);
* ``end_refused_once`` / ``end_refused_again``: its first request refused; expected: no ending (a
  follow-up, a push-back, or the next request) / where its tree says to ask one follow-up and
  then accept (the bench's ``one_follow_up`` reading of the tree), the same refusal again: it
  accepts: states another open request (or the fallback its goal holds for the one refused:
  :mod:`.weak_fallback`), else ends;
* ``end_done_other``: a completion of something it did not ask for ("Your parking permit has been
  renewed."), then "anything else?", every request open; expected: it states an open request.

An item's ``open_words`` are the content words of each request still open (its own words, those
no other request has, when it has some); a reply *states an open request* when it says a third of
one request's words (one at least), by the bench's matcher words (:func:`.matcher.same_word`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from voxbench.bench.caller_check import goal_text
from voxbench.bench.matcher import same_word, words_of
from voxbench.bench.reference import BYE, reply_polarity
from voxbench.bench.weak_fallback import fallback_pairs, fallback_words, listed_all

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder, WeakItem

ACTS = ("next_request", "ends", "not_end", "raise_open", "accept", "ends_or_checks", "declines", "declines_any",
        "transfer_ok", "no_transfer", "declines_no", "declines_next", "ends_by", "confirms_ends",
        "confirms_open", "corrects_open", "gives_up")  # fmt: skip
"""The ending acts; ``declines`` to ``transfer_ok`` are :mod:`.weak_closings`', ``no_transfer``
and ``declines_no`` (a no, no ending) :mod:`.weak_failures`', ``declines_next`` (not a yes, an
open request stated) and ``ends_by`` (ended in the context or at the graded turn)
:mod:`.weak_midcall`'s, ``confirms_ends`` (a yes, then *ends or checks*), ``confirms_open`` (a
yes, no ending) and ``corrects_open`` (a no, no ending) :mod:`.weak_donelist`'s (their module
docstrings); ``gives_up`` (ended, no yes) :mod:`.weak_misheard`'s ``misread_same_end``."""


class EndingWords(BaseModel):
    """The endings' word lists (``endings`` in ``bench/lang/weak_<lang>.json``)."""

    person_swap: dict[str, str]
    """First-person words of a request said back by the agent ('my' -> 'your')."""
    behaviour: str
    """An intent that asks the agent to do or not do something in the call, not a request."""
    behaviour_with_request: str
    """A behaviour intent that also asks for a thing ('Skip troubleshooting and get a ticket created'): a request."""
    backup: str
    """An intent that is a fallback of another ('a desk on floor 3 instead'), said only if offered."""
    minor: list[str]
    """Words no request is told apart by ('get', 'request', 'need')."""
    agent_lead: str
    """A request's lead naming the agent ('Get the agent to skip ...'), not said back by the agent."""
    one_follow_up: str
    push_count: str = ""
    """A tree line counting the caller's push-backs before it accepts ('pushing back firmly 3
    times', 'after three pushbacks'); group ``n``: the count (:mod:`.weak_treeend`)."""
    attempts_count: str = ""
    """A failure condition counting attempts or requests ('after two clear attempts'); group ``n``."""
    then_end: str = ""
    """A failure condition that ends the call ('say goodbye and end the call')."""
    follow_up_line: str = ""
    """A tree line naming a follow-up question ('Ask one follow-up question about why ...')."""
    fails_transfer_at_once: str = ""
    """A failure condition that ends the call when the agent refuses a transfer or says one is
    impossible, with no count of requests first (``end_transfer_fails``, :mod:`.weak_failures`)."""
    """A tree line saying to ask one follow-up (or push back once) and then accept."""
    other_topics: list[str] = Field(default_factory=list)
    """Things a caller may have on file that no request of its asks for ('parking permit')."""
    done_report: list[str]
    """A completion report of one request ('{request}': the request in the second person)."""
    anything_else: list[str]
    """"Is there anything else I can help you with?" and its kin."""
    step_report: list[str] = Field(default_factory=list)
    """A step of a request reported done, the request itself not ('I've verified your identity.'):
    a read-back after it comes before the action (``end_readback_step``, :mod:`.weak_donelist`)."""
    that: str = "do that"
    """What a refusal of a goal sentence (no listed intents) refuses."""
    part_done_max_words: int = 30
    """A must-have longer than this is not said back as a report (:func:`.weak_closings.part_done`)."""
    must_swap: dict[str, str] = Field(default_factory=dict)
    """A must-have's 'must X' said as a report ('must be' -> 'is'); any other verb takes an 's'."""
    alternatives: list[str] = Field(default_factory=list)
    """Things an agent offers instead of a refused request that no goal asks for."""
    stall_field: list[str] = Field(default_factory=list)
    """One of the caller's fields asked for, said again and again by ``end_stall_*`` (:mod:`.weak_midcall`)."""
    extras: list[str] = Field(default_factory=list)
    """Things an agent offers to do beside a request it reported done that no goal asks for
    ('sign you up for text message alerts', :mod:`.weak_midcall`)."""
    agent_says: str = "$^"
    """A must-have's lead naming the agent ('The agent explicitly confirms that'), left out when the
    agent reports it."""
    forbids_transfer: str = "$^"
    """An escalation rule that forbids a live-agent transfer."""
    mentions_transfer: str = "$^"
    """An escalation rule that speaks of a transfer (and does not forbid one: it allows it)."""
    told_accept: str = "$^"
    """A tree line saying to accept being told something and end the call ('If told to visit HR in
    person or call back later, accept that and end the call'); group ``told``: what is told."""
    asks_transfer: str = "$^"
    """An escalation rule that says to ask for a live-agent transfer ('ask to be transferred to a
    live agent', 'request a transfer'), where it does not forbid one (:mod:`.weak_failures`)."""
    call_transfer: str = "$^"
    """A reply that asks for or accepts a transfer of the call ('transfer me', 'a live agent'),
    not one that names a transfer of a record ('transfer my DEA registration')."""
    fails_unprocessable: str = "$^"
    """A failure condition that ends the call when the agent says the request cannot be processed
    and there are no alternatives (:mod:`.weak_failures`)."""
    told_filler: str = "$^"
    """The end of a ``told`` that is no part of what the agent says ('for any part of this request')."""


def second_person(text: str, swap: dict[str, str]) -> str:
    """A request as the agent says it back ('Remove my access' -> 'remove your access')."""
    out = re.sub(
        r"[A-Za-z0-9'-]+", lambda m: swap.get(m.group(0).lower(), m.group(0)), text.strip().rstrip(".")
    )
    return out[:1].lower() + out[1:] if out[:2] != out[:2].upper() else out


def said_back(w: EndingWords, request: str) -> str:
    """A request as the agent says it back, its lead-in dropped ('your request to swap your shift')."""
    return second_person(re.sub(w.agent_lead, "", request, flags=re.I), w.person_swap)


def requests_of(b: Builder) -> list[str]:
    """The scenario's requests: its listed intents but in-call behaviours and fallbacks (marked in
    their own words, or held by the goal under an unmet condition: :mod:`.weak_fallback`), else its
    goal sentence."""
    w = b.t.endings
    assert w is not None
    listed = listed_all(b)

    def behaviour(x: str) -> bool:
        return bool(re.search(w.behaviour, x, re.I)) and not re.search(w.behaviour_with_request, x, re.I)

    held = {f for f, _ in fallback_pairs(b.scenario.user_goal.high_level_user_goal, listed, b.t.fallback,
                                         set(w.minor))} if b.t.fallback and len(listed) > 1 else set()  # fmt: skip
    reqs = [x for i, x in enumerate(listed) if x and not behaviour(x) and not re.search(w.backup, x, re.I)
            and i not in held]  # fmt: skip
    return reqs or ([] if listed else [b.scenario.user_goal.high_level_user_goal])


def held_words(b: Builder) -> set[str]:
    """The words of the scenario's goal, listed intents and fact keys: a thing none of them names is
    outside its goal."""
    return set(words_of(" ".join([goal_text(b.scenario), *listed_all(b), *(f.key for f in b.facts)])))


def content(text: str, minor: set[str]) -> list[str]:
    return list(dict.fromkeys(x for x in words_of(text) if len(x) >= 4 and x.isalpha() and x not in minor))


def open_words(reqs: list[str], open_: list[int], minor: set[str]) -> list[list[str]]:
    """For each open request: its words no other request has, else all its content words."""
    out = []
    for i in open_:
        own = content(reqs[i], minor)
        others = {x for j, r in enumerate(reqs) if j != i for x in content(r, minor)}
        mine = [x for x in own if not any(same_word(x, o) or same_word(o, x) for o in others)]
        out.append(mine or own)
    return [ws for ws in out if ws]


def states_open(reply: str, item: WeakItem) -> bool:
    """The reply says a third (one at least) of one open request's words."""
    got = words_of(reply)
    for ws in item.open_words:
        hit = sum(any(same_word(g, w) or same_word(w, g) for g in got) for w in ws)
        if hit >= max(1, -(-len(ws) // 3)):
            return True
    return False


def problem(item: WeakItem, reply: str, ends_call: bool, ended_before: bool) -> str:
    """Why the reply is not the ending act the class expects ('' when it is)."""
    if item.act == "ends_by":
        return "" if ended_before or ends_call else "did not end"
    if ended_before:
        return "ended in the context, before the graded turn"
    hung = ends_call or bool(BYE.search(reply))
    act = item.act
    if act == "gives_up":  # a value read back wrong once too often: ended, never confirmed
        if reply_polarity(reply) == "yes":
            return "a yes to a value read back wrong"
        return "" if ends_call else "did not end"
    if act == "corrects_open":  # one of its values read back wrong: put right, the call kept open
        if reply_polarity(reply) != "no":
            return "not a no to a value read back wrong"
        return "ended on a value read back wrong" if hung else ""
    if act in ("confirms_ends", "confirms_open"):  # its values read back right: a yes first
        if reply_polarity(reply) != "yes":
            return "not a yes to its values read back right"
        if act == "confirms_open":
            return "ended with a request open" if hung else ""
        act = "ends_or_checks"
    if act == "accept":
        act = "next_request" if item.open_words else "ends"
    if act == "ends":
        return "" if ends_call else "did not end"
    if act == "ends_or_checks":  # or asks whether a must-have the report did not say is met
        checks = not hung and "?" in reply and states_open(reply, item)
        return "" if ends_call or checks else "did not end"
    pol = reply_polarity(reply)
    if act == "declines_any":  # ending is allowed: the agent has signalled it cannot proceed
        return "a yes" if pol == "yes" else ""
    if act == "no_transfer":  # a transfer refused: neither accepted nor asked for again
        from voxbench.bench.weak_facts import table  # weak_facts reads this module's tables

        w = table().endings
        asked = bool(w and re.search(w.call_transfer, reply, re.I))
        return (
            "a yes to a transfer refused" if pol == "yes" else "asked for a transfer refused" if asked else ""
        )
    if act == "transfer_ok" and pol == "no":
        return "a no to a transfer its rule allows"
    if act == "declines" and pol == "yes":
        return "a yes to an offer it must decline"
    if act == "declines_next" and pol == "yes":
        return "a yes to an offer outside its goal"
    if act == "declines_no" and pol != "no":
        return f"not a no to an offer it must decline ({pol or 'no polarity'})"
    if hung:
        return "ended with a request open"
    if act in ("not_end", "declines", "transfer_ok", "declines_no"):
        return ""
    return "" if states_open(reply, item) else "did not state an open request"


def endings(b: Builder) -> None:
    """Every ending item of one scenario (see the module docstring)."""
    w = b.t.endings
    if w is None:
        return
    reqs = requests_of(b)
    if not reqs:
        return
    minor = set(w.minor)
    mine = [said_back(w, r) for r in reqs]
    tpl = b.template
    done = [b.template_of(w.done_report, "end_done", f"{n}").format(request=m) for n, m in enumerate(mine)]
    anything = b.template_of(w.anything_else, "end_anything_else", "")
    bye, transfer = tpl("end_agent_bye_open", ""), tpl("end_transfer_now", "")
    listed = bool(b.scenario.scenario_context.get("intents"))  # a goal sentence is refused as 'that'
    refusal = tpl("end_refused_once", "").format(request=mine[0] if listed else w.that)
    b.add("end_refused_once", refusal)
    if len(reqs) >= 2:
        b.add("end_next_after_done", f"{done[0]} {anything}")
        b.items[-1].open_words = open_words(reqs, list(range(1, len(reqs))), minor)
        b.add("end_done_no_question", done[0])
        b.add("end_all_done", f"{done[-1]} {anything}", context=[f"{d} {anything}" for d in done[:-1]])
    context = [f"{done[0]} {anything}"] if len(reqs) >= 2 else []
    left = open_words(reqs, list(range(len(context), len(reqs))), minor)
    b.add("end_agent_bye_open", bye, context=context)
    b.items[-1].open_words = left
    b.add("end_agent_bye_again", bye, context=[*context, bye])
    b.add("end_transfer_now", transfer, context=context)
    refused_again(b, reqs, mine, listed)
    held = held_words(b)
    topics = [t for t in w.other_topics if not set(words_of(t)) & held]
    for t in b.pick(topics, lambda t: f"other/{t}")[:1]:
        b.add("end_done_other", f"{tpl('end_done_other', t).format(topic=t)} {anything}")
        b.items[-1].open_words = open_words(reqs, list(range(len(reqs))), minor)


def refused_again(b: Builder, reqs: list[str], mine: list[str], listed: bool) -> None:
    """The same refusal twice, of the request a tree line says to ask one follow-up about (the
    request whose words the line says most; the only one if it names none) and then accept. Not
    where the escalation rule asks for a transfer once refused: there the caller asks for it
    before it accepts ('ask to be transferred ...; if still not transferred, follow the failure
    condition'), graded by ``end_refused_transfer_wanted`` (:mod:`.weak_failures`)."""
    w = b.t.endings
    assert w is not None
    tree = b.scenario.user_goal.decision_tree
    lines = [*tree.negotiation_behavior, tree.failure_condition or "", tree.escalation_behavior or ""]
    line = next((x for x in lines if re.search(w.one_follow_up, x, re.I)), None)
    esc = tree.escalation_behavior or ""
    if line is None or (
        re.search(w.asks_transfer, esc, re.I) and not re.search(w.forbids_transfer, esc, re.I)
    ):
        return  # a rule asking for a transfer once refused: the transfer comes first (end_refused_transfer_wanted)
    minor = set(w.minor)
    said = words_of(line)
    own = open_words(reqs, list(range(len(reqs))), minor)
    score = (
        [sum(any(same_word(g, x) for g in said) for x in ws) for ws in own] if len(own) == len(reqs) else []
    )
    if len(reqs) > 1 and (not score or max(score) == 0):
        return
    i = score.index(max(score)) if len(reqs) > 1 else 0
    refusal = b.template("end_refused_once", reqs[i]).format(request=mine[i] if listed else w.that)
    b.add("end_refused_again", refusal, context=[refusal])
    b.items[-1].open_words = open_words(reqs, [j for j in range(len(reqs)) if j != i], minor)
    b.items[-1].open_words += fallback_words(b, reqs[i])  # its fallback, asked for once it is refused
