"""The failure condition's count of attempts: the refusal that meets it is accepted.

EVA's failure conditions often count what the caller tries before it gives up ('If the agent
cannot provide any rebooking option ... after two clear search attempts (the initial search and
one additional search you request), say goodbye and end the call'; 'after two clear requests';
'after 3 attempts'). Each refusal of the request under way spends one attempt; the N-th meets the
count, and the tree's answers to a refusal (its scripted lines, push-backs, follow-up question, a
transfer ask) are spent with it: the caller does what the tree says on failure, as at any refusal
whose answers are spent (its next open request, its fallback, else goodbye). A caller that said
its scripted line, a generic follow-up or a transfer ask there asked a third time what the tree
tries twice. The count is read only where the condition ends the call ('say goodbye', 'end the
call'), and not where it counts transfer requests (those are :mod:`.transfers`'); counts under
two are left to the push-backs (one is any refusal).
"""

from __future__ import annotations

from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.tree import count_said


def attempts_cap(failure: str) -> int:
    """The refusals of one request after which the failure condition holds (0: it counts none).
    An alternative that counts the caller's transfer requests ('if the agent cannot complete the
    transfer after two clear requests') counts those, not refusals (:func:`.transfers.transfer_failure`)."""
    at = 0
    for alt in pattern("failure_alternative").split(failure):
        at = failure.index(alt, at)
        m = None if pattern("fails_transfer").search(alt) else pattern("attempts_count").search(alt)
        if m is not None and pattern("then_end").search(failure[at + m.end() :]):
            n = count_said(m.group("n"))
            return n if n >= 2 else 0
    return 0
