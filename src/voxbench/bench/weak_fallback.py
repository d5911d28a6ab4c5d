"""Weak-agent turns for a goal with a fallback (:mod:`.weak_turns`): one listed request the goal
takes only if another cannot be had ('You want a desk on floor 1 of East Campus, but if none are
available there, you are willing to be placed on the waitlist'; 'take floor 3 if floor 2 is
full'), read by the bench's own patterns (``fallback`` in ``bench/lang/weak_<lang>.json``), never
the caller's:

* ``fallback_unstated``: "How can I help you today?"; expected (act ``states_only``): it states
  an open request and says none of the fallback's own words (a person asks for the desk, and
  brings up the waitlist when the desk cannot be had), no hang-up;
* ``fallback_offered``: after the request it backs up is refused (context), the fallback offered
  as a yes/no question ("Would you like to {fallback} instead?"); expected: it takes it (act
  ``takes``: a yes, or the fallback said), not a no, no hang-up;
* ``fallback_choice``: the same refusal, then the fallback and a thing no goal of its asks for
  (``endings.alternatives``) offered, one to be chosen; expected: the fallback said, the other
  thing not (act ``chooses``).

The fallback is the listed request whose own words (content words and numbers no other request
has) the held clause says most, and says more often than the rest of the goal does (else the goal
asks for it too: 'you want a desk on floor 2, and if no window desks are available, you will take
a non-window desk'), leaving out the clauses that say another request's own words ('a monitor arm
delivered to floor 3' is the monitor arm's); the request it backs up, the other one sharing most
words with it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pydantic import BaseModel

from voxbench.bench.matcher import words_of
from voxbench.bench.reference import BYE

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder, WeakItem

ACTS = ("states_only",)


class FallbackWords(BaseModel):
    """How a goal's fallback is read (``fallback`` in ``bench/lang/weak_<lang>.json``)."""

    held: list[str]
    """Clauses of a goal that hold a thing under an unmet condition; group ``what``: the thing."""
    unmet: str
    """A condition that something cannot be had ('none are available', 'floor 2 is full')."""
    refusal: list[str]
    """A refusal of the request backed up ('{request}': the request in the second person)."""
    open_question: list[str]
    """An open question asking what the caller needs."""
    mark: str = "$^"
    """A word that marks a request as a fallback in its own text ('instead'): not said back."""


def _own(reqs: list[str], i: int, minor: set[str]) -> list[str]:
    """Request ``i``'s content words (four letters or more) and numbers that no other request has."""

    def words(t: str) -> list[str]:
        return [x for x in words_of(t) if (x.isdigit() or (len(x) >= 4 and x.isalpha())) and x not in minor]

    others = {x for j, r in enumerate(reqs) if j != i for x in words(r)}
    return [x for x in dict.fromkeys(words(reqs[i])) if x not in others]


def fallback_pairs(goal: str, reqs: list[str], w: FallbackWords, minor: set[str]) -> list[tuple[int, int]]:
    """(fallback, the request it backs up) of each listed request a held clause of the goal names
    (module docstring); the first request is never a fallback."""
    out: list[tuple[int, int]] = []
    own = [set(_own(reqs, i, minor)) for i in range(len(reqs))]
    held = [
        m for p in w.held for m in re.finditer(p, goal, re.I) if re.search(w.unmet, m.group("cond"), re.I)
    ]
    outside = goal
    for m in held:
        outside = outside.replace(m.group(0), " ")
    for m in held:
        said = words_of(m.group("what"))
        hits = [len(o & set(said)) for o in own]
        best = max(hits, default=0)
        if not best or hits.count(best) > 1 or hits.index(best) == 0:
            continue
        j = hits.index(best)
        clauses = [c for c in re.split(r"[,;:.]", outside) if not any(own[i] & set(words_of(c)) for i in
                   range(len(reqs)) if i != j)]  # fmt: skip
        if sum(x in own[j] for c in clauses for x in words_of(c)) >= sum(x in own[j] for x in said):
            continue  # named as much outside the held clause: a request of its own
        shared = [(len(set(words_of(reqs[j])) & set(words_of(r))), -i) for i, r in enumerate(reqs) if i != j]
        base = -max(shared)[1]
        if j not in [f for f, _ in out]:
            out.append((j, base))
    return out


def listed_all(b: Builder) -> list[str]:
    """The scenario's listed intents, in order (its ``scenario_context.intents``)."""
    return [str(i.get("intent", "")) for i in (b.scenario.scenario_context.get("intents") or [])]


def fallback_words(b: Builder, request: str) -> list[list[str]]:
    """The own words of the fallback the goal holds for ``request`` (one of its listed intents):
    what a caller asks for once that request is refused; [] when it has none."""
    w, e = b.t.fallback, b.t.endings
    listed = listed_all(b)
    if w is None or e is None or request not in listed:
        return []
    minor = set(e.minor)
    listed = [re.sub(w.mark, "", x, flags=re.I).strip() for x in listed]
    pairs = fallback_pairs(b.scenario.user_goal.high_level_user_goal, listed, w, minor)
    base = re.sub(w.mark, "", request, flags=re.I).strip()
    return [own for f, k in pairs if listed[k] == base and (own := _own(listed, f, minor))]


def fallbacks(b: Builder) -> None:
    """The items of one scenario whose goal holds a fallback (see the module docstring)."""
    from voxbench.bench.weak_endings import open_words, second_person

    w, e = b.t.fallback, b.t.endings
    listed = listed_all(b)
    if w is None or e is None or len(listed) < 2:
        return
    minor = set(e.minor)
    listed = [re.sub(w.mark, "", x, flags=re.I).strip() for x in listed]
    pairs = fallback_pairs(b.scenario.user_goal.high_level_user_goal, listed, w, minor)
    for fb, base in b.pick(pairs, lambda p: f"fallback/{listed[p[0]]}")[:1]:
        held = [f for f, _ in pairs]
        rest = [i for i in range(len(listed)) if i not in held]
        b.add("fallback_unstated", b.template_of(w.open_question, "fallback_unstated", listed[fb]))
        b.items[-1].open_words = open_words(listed, rest, minor)
        b.items[-1].not_offered = [" ".join(_own(listed, fb, minor))]
        mine = [second_person(x, e.person_swap) for x in (listed[base], listed[fb])]
        refusal = b.template_of(w.refusal, "fallback_refused", listed[base]).format(request=mine[0])
        context = [b.template_of(w.open_question, "fallback_context", listed[fb]), refusal]
        offer = b.template("fallback_offered", listed[fb]).format(fallback=mine[1])
        b.add("fallback_offered", offer, context=context)
        b.items[-1].open_words = [_own(listed, fb, minor)]
        others = [t for t in e.alternatives if not set(words_of(t)) & set(words_of(" ".join(listed)))]
        for other in b.pick(others, lambda t: f"fallback/{t}")[:1]:
            turn = b.template("fallback_choice", listed[fb]).format(fallback=mine[1], other=other)
            b.add("fallback_choice", turn, context=context)
            b.items[-1].open_words = [_own(listed, fb, minor)]
            b.items[-1].not_offered = [other]


def problem(item: WeakItem, reply: str, ends_call: bool) -> str:
    """Why the reply is not ``states_only`` ('' when it is): an open request said, none of the
    fallback's own words (``item.not_offered``), no hang-up."""
    from voxbench.bench.weak_endings import states_open

    if ends_call or BYE.search(reply):
        return "hung up"
    got = set(words_of(reply))
    said = [x for o in item.not_offered for x in o.split() if x in got]
    if said:
        return "stated its fallback as a request: " + ", ".join(said)
    return "" if states_open(reply, item) else "did not state its request"
