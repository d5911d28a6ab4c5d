"""Weak-agent turns at the tree's own end conditions: a tree line that says after how many
refusals the caller gives up, and the refusals that meet it and the ones that do not yet.

Two shapes, read by the bench's own patterns (``bench/lang/weak_<lang>.json``, ``endings``):

* a count of the caller's push-backs ('after pushing back firmly 3 times, if you are clearly
  denied, accept the outcome', 'after three pushbacks', 'one pushback'; ``push_count``): the
  caller pushes back after each of the first N refusals of the request the line names and
  accepts the N+1-th (the N+2-th where the tree also says to ask a follow-up question,
  ``follow_up_line``: that comes first). ``end_pushed_not_met``: the N-th refusal graded (N-1 before it); expected:
  no ending, no acceptance (``not_end``: it pushes back); ``end_pushed_met``: the N+1-th (N before
  it); expected: it accepts: states another open request (or the fallback its goal holds for the
  one refused), else ends (``accept``). N = 1 is ``end_refused_again`` (:mod:`.weak_endings`),
  left to it;
* a failure condition counting the agent's attempts or the caller's requests ('If the agent
  cannot provide any ... after two clear attempts, say goodbye and end the call';
  ``attempts_count`` with ``then_end``): the N-th refusal meets it. ``end_attempts_not_met``:
  the N-1-th refusal graded; expected: no ending; ``end_attempts_met``: the N-th; expected: it
  accepts (``accept``). Counts of 2 or more only (one is any refusal).

The refusals are the ``end_refused_once`` templates, a different one each time where there are
several (the same words again would be a stall, :mod:`.weak_midcall`), of the request the line
names by most of its own words (the only one where there is one; none named: no item); for a
push-back count, among every listed intent (an in-call behaviour, 'skip the return step', is
what is refused and pushed on there).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voxbench.bench.matcher import same_word, words_of
from voxbench.bench.weak_endings import listed_all, open_words, requests_of, said_back
from voxbench.bench.weak_fallback import fallback_words

if TYPE_CHECKING:
    from voxbench.bench.weak_turns import Builder


def count_of(text: str, numbers: list[str]) -> int:
    """'3' / 'three' / 'once' / 'twice' as a number (0: none)."""
    t = text.lower()
    if t.isdigit():
        return int(t)
    extra = {"once": 1, "twice": 2}  # the words push_count captures besides numbers
    return extra.get(t, numbers.index(t) + 1 if t in numbers else 0)


def _named(b: Builder, reqs: list[str], line: str) -> int | None:
    """The request the line names by most of its own words (the only one: it)."""
    w = b.t.endings
    assert w is not None
    if len(reqs) == 1:
        return 0 if reqs[0] else None
    own = open_words(reqs, list(range(len(reqs))), set(w.minor))
    if len(own) != len(reqs):
        return None
    said = words_of(line)
    score = [sum(any(same_word(g, x) for g in said) for x in ws) for ws in own]
    return score.index(max(score)) if max(score) > 0 else None


def _refusals(b: Builder, cls: str, request: str, n: int) -> list[str]:
    templates = b.t.classes["end_refused_once"].templates
    first = templates.index(b.template("end_refused_once", request))
    return [templates[(first + k) % len(templates)] for k in range(n)]


def tree_endings(b: Builder) -> None:
    """Every item of the classes above for one scenario."""
    w = b.t.endings
    if w is None or not w.push_count:
        return
    reqs = requests_of(b)
    if not reqs:
        return
    tree = b.scenario.user_goal.decision_tree
    lines = [*tree.must_have_criteria, *tree.nice_to_have_criteria, *tree.negotiation_behavior,
             *tree.edge_cases]  # fmt: skip
    listed = bool(b.scenario.scenario_context.get("intents"))
    numbers = b.t.number_words
    # a tree that says to ask a follow-up question once the push-backs are spent: that comes first
    follow = int(any(re.search(w.follow_up_line, x, re.I) for x in lines)) if w.follow_up_line else 0
    for line in lines:
        m = re.search(w.push_count, line, re.I)
        n = count_of(m.group("n"), numbers) if m else 0
        if n >= 2:  # the refused one among every listed intent: an in-call behaviour is refused too
            _items(b, listed_all(b) if listed else reqs, reqs, listed, line, n + 1 + follow, "end_pushed")
            break
    fail = tree.failure_condition or ""
    m = re.search(w.attempts_count, fail, re.I) if w.attempts_count else None
    if m and re.search(w.then_end, fail, re.I):
        n = count_of(m.group("n"), numbers)
        if n >= 2:
            _items(b, reqs, reqs, listed, fail, n, "end_attempts")


def _items(
    b: Builder, named: list[str], reqs: list[str], listed: bool, line: str, met: int, cls: str
) -> None:
    """The refusal that meets the line (the ``met``-th) of the intent of ``named`` the line names,
    and the one before it; the requests of ``reqs`` but that one are the open ones."""
    w = b.t.endings
    assert w is not None
    i = _named(b, [x for x in named if x], line)
    if i is None:
        return
    refused = [x for x in named if x][i]
    said = [t.format(request=said_back(w, refused) if listed else w.that)
            for t in _refusals(b, cls, refused, met)]  # fmt: skip
    others = open_words(reqs, [j for j, r in enumerate(reqs) if r != refused], set(w.minor))
    b.add(f"{cls}_not_met", said[met - 2], context=said[: met - 2])
    b.items[-1].open_words = open_words(reqs, list(range(len(reqs))), set(w.minor))
    b.add(f"{cls}_met", said[met - 1], context=said[: met - 1])
    b.items[-1].open_words = others + (fallback_words(b, refused) if refused in reqs else [])
