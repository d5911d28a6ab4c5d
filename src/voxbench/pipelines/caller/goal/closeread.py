"""Whether a read-back that comes with the last report may be confirmed and the call closed on it
(:meth:`.ending.Endings.confirmed_last`): what the turn reads back, all of it, must be the
caller's own values, and the read-back's question the only one the turn asks.

A yes that closes the call leaves the agent no turn to put a wrong record right: 'To confirm, I
have a 24-inch monitor for employee ID EMP126225.' to a caller who wants a 27-inch monitor reads
its employee ID back right and the size wrong, and the size is no fact the read-back check
matched (:func:`.readback.readbacks` reads each fact's own value, not every value said). Every
part of the read-back that says a value (a number, a name, spelled letters) must say one of the
facts read back right; else the yes stays bare, the call open.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.cues import COMPLETED
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.facts import FactBook
from voxbench.spoken import compact, mentions, sentences_of

_PIECE = re.compile(r",(?!\d)\s*|;\s*|:\s+|\s+(?:and|for|with|to|at|on|under|in|of|as)\s+|\s+-\s+", re.I)
"""Where one value read back ends and the next begins ('A, B and C', 'a monitor for employee ID
...'; not the colon of '09:00'): grammar, not words of a language's table."""
_WORD = re.compile(r"[\w'-]+")


def _value_like(token: str, first: bool, labels: set[str]) -> bool:
    """A token that says a value: a digit in it, or a capital not opening the sentence and no word of
    a field's label ('ID' of 'employee ID')."""
    if any(c.isdigit() for c in token):
        return True
    return not first and token[:1].isupper() and token.lower() not in labels and token != "I"


def unmatched_values(turn: str, book: FactBook, ok: list[str]) -> list[str]:
    """The parts of the turn's read-back sentences (those that report nothing done) that say a value
    none of the facts ``ok`` (read back right) says: empty when the read-back is all the caller's.
    A value split across parts ('September 14, 1987') is said by a part whose value words are all
    of a value its neighbours and it say together."""
    labels = {w.lower() for f in book for w in f.words}
    values = [v for f in book if f.key in ok for v in f.values()]
    held = [c for f in book for v in f.values() if len(c := compact(v)) >= 3]
    short = {c for f in book for v in f.values() if 0 < len(c := compact(v)) < 3}  # 'US': a word of its own
    bad: list[str] = []
    for sentence in sentences_of(turn):
        if COMPLETED.search(sentence) or pattern("named_done").search(sentence):
            continue  # the report, not the read-back
        cuts = [0, *(x for m in _PIECE.finditer(sentence) for x in (m.start(), m.end())), len(sentence)]
        spans = list(zip(cuts[::2], cuts[1::2], strict=True))
        for n, (a, b) in enumerate(spans):
            piece = sentence[a:b]
            words = _WORD.findall(piece)
            if not any(_value_like(w, n == 0 and k == 0, labels) for k, w in enumerate(words)):
                continue
            own = [compact(w) for k, w in enumerate(words) if _value_like(w, n == 0 and k == 0, labels)]
            if any(mentions(piece, v) for v in values) or any(c in compact(piece) for c in held):
                continue  # said as the caller holds it, or spelled ('start time 09:00', 'S H A R M A')
            if all(x in short for x in own):
                continue  # a short value of its own said whole ('issuing country code US')
            window = sentence[spans[max(n - 1, 0)][0] : spans[min(n + 1, len(spans) - 1)][1]]
            if not any(mentions(window, v) and all(x in compact(v) for x in own) for v in values):
                bad.append(piece)  # not the rest of a value its neighbours say ('..., 1987')
    return bad


def only_question(turn: str) -> bool:
    """Whether the turn asks one question sentence only (the read-back's 'Is that correct?'): a
    second ('Would you also like a docking station?') may be an offer a closing yes would accept."""
    return sum(x.rstrip().endswith("?") for x in sentences_of(turn)) == 1


def action_to_come(turn: str) -> bool:
    """Whether the turn says the agent's action is still to come ('Before I submit it, let me read
    that back', 'Once you confirm I will submit it'): its read-back asks leave to act."""
    return bool(pattern("action_to_come").search(turn))
