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
call') in the count's own alternative ('After 3 attempts, ask for a supervisor, or if the agent
refuses to transfer, say goodbye' counts none: the third refusal asks for one), and not where it
counts transfer requests (those are :mod:`.transfers`'); counts under two are left to the
push-backs (one is any refusal).
"""

from __future__ import annotations

from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.tree import count_said


def attempts_cap(failure: str) -> int:
    """The refusals of one request after which the failure condition holds (0: it counts none).
    An alternative that counts the caller's transfer requests ('if the agent cannot complete the
    transfer after two clear requests') counts those, not refusals (:func:`.transfers.transfer_failure`)."""
    for at, end, stop in _alternatives(failure):
        alt = failure[at:end]
        m = None if pattern("fails_transfer").search(alt) else pattern("attempts_count").search(alt)
        if m is not None and pattern("then_end").search(failure[at + m.end() : stop]):
            n = count_said(m.group("n"))
            return n if n >= 2 else 0
    return 0


def _alternatives(failure: str) -> list[tuple[int, int, int]]:
    """Each piece of the failure condition between its 'or's (start, end) with the end of the
    alternative it belongs to: a piece that opens no condition of its own ('..., OR cannot issue a
    meal voucher, say goodbye') goes on the condition before it, and shares its ending; one that
    opens one ('..., or if the agent refuses to transfer, say goodbye') is another alternative."""
    pieces, at = [], 0
    for sep in pattern("failure_alternative").finditer(failure):
        pieces.append((at, sep.start()))
        at = sep.end()
    pieces.append((at, len(failure)))
    opens = [
        i == 0 or bool(pattern("conditional_lead").search(failure[a:b])) for i, (a, b) in enumerate(pieces)
    ]
    out = []
    for i, (a, b) in enumerate(pieces):
        j = next((k for k in range(i + 1, len(pieces)) if opens[k]), None)
        out.append((a, b, pieces[j - 1][1] if j is not None else len(failure)))
    return out
