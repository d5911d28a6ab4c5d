"""A transfer the agent says it cannot make is no offer of one.

"I'm sorry, I can't transfer you to a live agent.", "Transfers aren't available.", "I'm not able
to connect you with a supervisor.": the words of a transfer under a negation in the same clause
(before them, with no new subject between: 'If you do not want to continue I can transfer you'
offers one; or after them: 'a live agent is not available'), and not inside a condition ('If you'd
rather not wait a live agent can call you back.' offers one). Such a sentence refuses a transfer:
the caller does not accept one, nor ask for one again (:meth:`.followups.FollowUps.give_up`), and
what it does instead is what its tree says to a refusal. A clause that offers one beside it ('I
can't renew that, but I can transfer you.') is still an offer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from voxbench.pipelines.caller.goal.conditions import in_condition
from voxbench.pipelines.caller.goal.ending_lang import pattern

TRANSFER_REFUSED = "transfer_refused"
"""The rule of a turn that refuses a transfer of the call (:func:`refuses_transfer`)."""


def _clauses(sentence: str) -> list[str]:
    return [c for c in pattern("clause_break").split(sentence) if c and c.strip()]


def _negated(clause: str, m: re.Match[str]) -> bool:
    """The match ``m`` of a transfer's words in ``clause`` is under a negation. A negation inside
    a condition reaches no further than the condition ('If you'd rather not wait a live agent can
    call you back.' offers one: :mod:`.conditions`)."""
    if pattern("negated_after").match(clause[m.end() :]):
        return True
    before = clause[: m.start()]
    neg = list(pattern("negation").finditer(before))
    if not neg:
        return False
    cond = in_condition(clause, neg[-1].start())
    if cond is not None and cond[1] <= m.start():
        return False
    between = before[neg[-1].end() :]
    return len(between.split()) <= 12 and not pattern("new_subject").search(between)


def _matches(sentence: str, words: re.Pattern[str]) -> Iterable[tuple[str, re.Match[str]]]:
    for c in _clauses(sentence):
        for m in words.finditer(c):
            yield c, m


def offers_transfer(sentence: str, words: re.Pattern[str]) -> bool:
    """Some match of ``words`` (the transfer-offer cues) in the sentence is not negated."""
    return any(not _negated(c, m) for c, m in _matches(sentence, words))


def refuses_transfer(sentence: str) -> bool:
    """The sentence names a transfer of the call, each time under a negation ('Transfers aren't
    available.'; not 'I can transfer you to a live agent, who isn't in until nine.')."""
    hits = [
        _negated(c, m) and in_condition(c, m.start()) is None
        for c, m in _matches(sentence, pattern("call_transfer"))
    ]
    return bool(hits) and all(hits)


def refused_before(rules: Iterable[Iterable[str]]) -> bool:
    """A turn of the call refused a transfer (``rules``: the rules of each act and of the turn heard
    now): the caller does not ask for one the agent said it cannot make."""
    return any(TRANSFER_REFUSED in r for r in rules)


_TIMES = {"once": 1, "twice": 2, "two": 2, "2": 2, "three": 3, "thrice": 3, "3": 3, "three times": 3}


def transfer_failure(condition: str) -> tuple[bool, int]:
    """How the tree's failure condition ends the call on a transfer the agent does not make:
    (at once on a transfer refused, the caller's transfer requests it counts first). 'If the agent
    will not transfer you after you have requested escalation twice, or if the agent says transfer
    is impossible, say goodbye' -> (True, 2): an alternative that counts no requests ends the call
    on the refusal itself; one that counts them asks that many times before it ends (0: none
    counted, the caller asks once)."""
    at_once, asks = False, 0
    for alt in pattern("failure_alternative").split(condition):
        if not pattern("fails_transfer").search(alt):
            continue
        m = pattern("times_asked").search(alt)
        n = _TIMES.get((m.group("n") or m.group("m") or "").lower(), 0) if m else 0
        at_once = at_once or not n
        asks = max(asks, n)
    return at_once, asks
