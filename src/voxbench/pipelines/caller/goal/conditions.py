"""Where a conditional clause of a sentence ends: a negation inside it is the condition's own.

"If you'd rather not wait, a live agent can call you back.", "If you don't have the code I can
look you up by name.": the negation says what the caller may not want or have, and the clause
after the condition offers something. Read as a refusal (or as a transfer refused), the offer is
lost: the caller pushes back on what was never refused, or takes a transfer it may accept for one
it must not ask for. A condition runs from its lead ('if', 'unless', 'in case') to the first
clause break (a comma, 'but', ...) or, said without a comma, to where the main clause's subject
and modal begin ('... not wait a live agent can ...'), else to the sentence's end ('I can book
room 301 if you don't need the whiteboard.'). The subject that opens the condition itself ('If
the system can't find it') is the condition's, not the main clause's.
"""

from __future__ import annotations

from voxbench.pipelines.caller.goal.cues import DENIAL
from voxbench.pipelines.caller.goal.ending_lang import pattern


def condition_spans(sentence: str) -> list[tuple[int, int]]:
    """(start, end) of each conditional clause of ``sentence``, in order."""
    out: list[tuple[int, int]] = []
    pos = 0
    while (lead := pattern("condition_lead").search(sentence, pos)) is not None:
        start = lead.end()
        brk = pattern("clause_break").search(sentence, start)
        end = brk.start() if brk else len(sentence)
        for main in pattern("main_clause").finditer(sentence, start, end):
            if sentence[start : main.start()].strip():  # not the condition's own subject
                end = main.start()
                break
        out.append((lead.start(), end))
        pos = max(end, start)
    return out


def in_condition(sentence: str, pos: int) -> tuple[int, int] | None:
    """The conditional clause of ``sentence`` holding offset ``pos`` (None: none does)."""
    return next(((a, b) for a, b in condition_spans(sentence) if a <= pos < b), None)


def refuses(sentences: list[str]) -> bool:
    """Whether a sentence states a refusal outright (not 'If you can't wait, ...')."""
    return any(DENIAL.search(unconditioned(s)) for s in sentences)


def unconditioned(sentence: str) -> str:
    """``sentence`` with its conditional clauses left out: what it states outright ('If you can't
    wait, I can transfer you.' -> ', I can transfer you.')."""
    out, last = [], 0
    for a, b in condition_spans(sentence):
        out.append(sentence[last:a])
        last = b
    return "".join(out) + sentence[last:]
