"""Weak-agent offers said as statements, not questions (:mod:`.weak_turns`), from each scenario's
own listed requests:

* ``offer_stated_one``: one of its requests offered with no question mark ("If you'd like, I can
  {request} for you.", "I could {request}."); expected: it takes it (a yes, or the request said),
  not a no, no hang-up (act ``takes``);
* ``offer_stated_choice``: the same request and a thing no goal of its asks for
  (``endings.alternatives``), one of them to be chosen ("If you'd like, I can either {request}, or
  set up a {other} instead."); expected: the request said and the other thing not, no hang-up
  (act ``chooses``);
* ``offer_stated_fact`` (the control): one of its facts stated right by "I can see ..." ("I can see
  your {label} is {value} in the system."), which offers nothing; expected: not a no, no words that
  take an offer (``offer_taken``: 'go ahead', 'please do'), no hang-up (act ``not_offer``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from voxbench.bench.matcher import words_of
from voxbench.bench.reference import BYE, reply_polarity
from voxbench.bench.weak_endings import (
    held_words,
    open_words,
    requests_of,
    said_back,
    states_open,
)
from voxbench.bench.weak_facts import label, said

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder, WeakItem

ACTS = ("takes", "chooses", "not_offer")


def offers(b: Builder) -> None:
    """The three items of one scenario with listed requests (see the module docstring)."""
    w = b.t.endings
    reqs = requests_of(b) if w is not None and b.scenario.scenario_context.get("intents") else []
    if w is None or not reqs:
        return
    minor = set(w.minor)
    i = b.pick(list(range(len(reqs))), lambda n: f"offer/{reqs[n]}")[0]
    mine = said_back(w, reqs[i])
    b.add("offer_stated_one", b.template("offer_stated_one", mine).format(request=mine))
    b.items[-1].open_words = open_words(reqs, [i], minor)
    held = held_words(b)
    others = [t for t in w.alternatives if not set(words_of(t)) & held]
    for other in b.pick(others, lambda t: f"offer/{t}")[:1]:
        b.add(
            "offer_stated_choice", b.template("offer_stated_choice", mine).format(request=mine, other=other)
        )
        b.items[-1].open_words = open_words(reqs, [i], minor)
        b.items[-1].not_offered = [other]
    for f in b.pick([f for f in b.own if f.kind != "text"], lambda f: f"offer/{f.key}")[:1]:
        turn = b.template("offer_stated_fact", f.key).format(label=label(f), value=said(f.value))
        b.add("offer_stated_fact", turn)


def problem(item: WeakItem, reply: str, ends_call: bool, taken: list[str]) -> str:
    """Why the reply is not the act the class expects ('' when it is); ``taken``: words that take
    an offer."""
    if ends_call or BYE.search(reply):
        return "hung up"
    pol = reply_polarity(reply)
    if pol == "no":
        return "a no"
    if item.act == "takes":
        return "" if pol == "yes" or states_open(reply, item) else "neither a yes nor the request said"
    if item.act == "chooses":
        other = [x for o in item.not_offered for x in words_of(o)]
        if other and set(other) <= set(words_of(reply)):
            return "chose the thing its goal does not ask for"
        return "" if states_open(reply, item) else "did not name the request it came for"
    low = reply.lower()
    took = [t for t in taken if t in low]
    return f"took a statement of fact as an offer ({took[0]!r})" if took else ""
