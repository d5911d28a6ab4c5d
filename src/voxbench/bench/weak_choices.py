"""Weak-agent turns offering options the ways agents phrase them (:mod:`.weak_turns`), from each
scenario's own listed requests: one of its requests (the option its goal wants) and things no goal
of its asks for (``endings.alternatives``), offered together, one to be chosen:

* ``option_or``: "Would you like to {request}, or would you prefer a {other}?";
* ``option_prefer``: "You could {request}, or I can open a {other}. Which would you prefer?";
* ``option_two``: "There are two options: first, ...; second, ...";
* ``option_alternatively``: "I can help you {request}. Alternatively, I can open a {other}."
  (no question asked);
* ``option_ordinal``: "Option one is to {request}, option two is a {other}.";
* ``option_numbered``: a numbered list ("1. ... 2. ...") before "Which one?";
* ``option_three``: "A, B, or C — which works best?", the request one of three;

expected (act ``picks``): the request said, no other thing chosen, never a yes (an either/or
question has no yes for an answer: a first sentence of three words at most that is a yes), not a
no, no hang-up. And:

* ``option_after_refusal``: the request refused, a thing no goal of its asks for offered instead
  ("I can't {request} right now. I could open a {other} for you instead. Would that work?");
  expected (act ``refuses_other``): not a yes, the other thing not chosen, no hang-up.

Which option comes first is the template's (each class has both orders).
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
from voxbench.spoken import sentences_of

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder, WeakItem

ACTS = ("picks", "refuses_other")
_BARE = 3
"""Words of a first sentence that is a bare yes ('Yes, go ahead.'), not the option named."""
CLASSES = ("option_or", "option_prefer", "option_two", "option_alternatively", "option_ordinal",
           "option_numbered", "option_three", "option_after_refusal")  # fmt: skip


def choices(b: Builder) -> None:
    """One item per class of one scenario with listed requests (see the module docstring)."""
    w = b.t.endings
    reqs = requests_of(b) if w is not None and b.scenario.scenario_context.get("intents") else []
    if w is None or not reqs or "option_or" not in b.t.classes:
        return
    minor = set(w.minor)
    held = held_words(b)
    others = b.pick([t for t in w.alternatives if not set(words_of(t)) & held], lambda t: f"choice/{t}")
    if len(others) < 2:
        return
    for cls in CLASSES:
        i = b.pick(list(range(len(reqs))), lambda n, c=cls: f"{c}/{reqs[n]}")[0]
        mine = said_back(w, reqs[i])
        turn = b.template(cls, mine).format(request=mine, Request=mine[:1].upper() + mine[1:],
                                            other=others[0], other2=others[1])  # fmt: skip
        b.add(cls, turn)
        b.items[-1].open_words = open_words(reqs, [i], minor)
        b.items[-1].not_offered = others[:2] if "{other2}" in b.template(cls, mine) else others[:1]


def problem(item: WeakItem, reply: str, ends_call: bool) -> str:
    """Why the reply is not the act the class expects ('' when it is)."""
    if ends_call or BYE.search(reply):
        return "hung up"
    pol = reply_polarity(reply)
    got = set(words_of(reply))
    chose = [o for o in item.not_offered if set(words_of(o)) <= got]
    if chose:
        return f"chose the thing its goal does not ask for ({chose[0]})"
    if item.act == "refuses_other":
        return "a yes to an offer outside its goal" if pol == "yes" else ""
    first = (sentences_of(reply) or [""])[0]
    if reply_polarity(first) == "yes" and len(words_of(first)) <= _BARE:
        return "a yes to a choice"
    if pol == "no":
        return "a no"
    return "" if states_open(reply, item) else "did not name the option its goal wants"
