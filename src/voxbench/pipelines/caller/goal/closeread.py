"""Whether a read-back that comes with the last report may be confirmed and the call closed on it
(:meth:`.ending.Endings.confirmed_last`): what the turn reads back, all of it, must be the
caller's own values, and the read-back's question the only one the turn asks.

A yes that closes the call leaves the agent no turn to put a wrong record right: 'To confirm, I
have a 24-inch monitor for employee ID EMP126225.' to a caller who wants a 27-inch monitor reads
its employee ID back right and the size wrong, and the size is no fact the read-back check
matched (:func:`.readback.readbacks` reads each fact's own value, not every value said). Every
part of the read-back that says a value (a number, a name, spelled letters) must say one of the
facts read back right, as the read-back check reads a fact said right (:func:`.readback.said_right`,
the one statement of it); else the yes stays bare, the call open.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from voxbench.pipelines.caller.goal.cues import COMPLETED
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.facts import Fact, FactBook
from voxbench.pipelines.caller.goal.lang import alt
from voxbench.pipelines.caller.goal.readback import digit_runs, said_right
from voxbench.spoken import compact, mentions, sentences_of
from voxbench.spoken.words import MONTHS, ORDINALS, SCALES, TENS, UNITS

_PIECE = re.compile(rf",(?!\d)\s*|;\s*|:\s+|\s+(?:{alt('closeread', 'piece_links')})\s+|\s+-\s+", re.I)
"""Where one value read back ends and the next begins ('A, B and C', 'a monitor for employee ID
...'; not the colon of '09:00'): the punctuation is grammar, the words that link two values
(``closeread.piece_links``) the language's table."""
_WORD = re.compile(r"[\w'-]+")
_SPOKEN = frozenset([*UNITS, *TENS, *ORDINALS, *SCALES, *MONTHS])
"""Words a value is said in ('September', 'fourteenth'): the caller's in a piece saying a right value."""


@dataclass(frozen=True)
class _Held:
    """What the caller holds, read once per turn: its facts, its fields' label words, the facts read
    back right, and every value of its own, long (compacted, three characters or more) and short."""

    book: FactBook
    labels: frozenset[str]
    right: tuple[Fact, ...]
    long: tuple[str, ...]
    short: frozenset[str]

    @classmethod
    def of(cls, book: FactBook, ok: list[str]) -> _Held:
        own = [compact(v) for f in book for v in f.values()]
        return cls(
            book=book,
            labels=frozenset(w.lower() for f in book for w in f.words),
            right=tuple(f for f in book if f.key in ok),
            long=tuple(c for c in own if len(c) >= 3),
            short=frozenset(c for c in own if 0 < len(c) < 3),  # 'US': a word of its own
        )


def _value_like(token: str, first: bool, labels: frozenset[str]) -> bool:
    """A token that says a value: a digit in it, or a capital not opening the sentence and no word of
    a field's label ('ID' of 'employee ID')."""
    if any(c.isdigit() for c in token):
        return True
    return not first and token[:1].isupper() and token.lower() not in labels and token != "I"


def unmatched_values(turn: str, book: FactBook, ok: list[str]) -> list[str]:
    """The parts of the turn's read-back sentences (those that report nothing done) that say a value
    none of the facts ``ok`` (read back right) says: empty when the read-back is all the caller's."""
    held = _Held.of(book, ok)
    return [piece for s in _read_back_sentences(turn) for piece in _unmatched_pieces(s, held)]


def _read_back_sentences(turn: str) -> list[str]:
    """The turn's sentences but the report's ('Your request ... has been submitted.')."""
    return [s for s in sentences_of(turn) if not (COMPLETED.search(s) or pattern("named_done").search(s))]


def _spans(sentence: str) -> list[tuple[int, int]]:
    """(start, end) of each piece of a sentence cut at :data:`_PIECE`."""
    cuts = [0, *(x for m in _PIECE.finditer(sentence) for x in (m.start(), m.end())), len(sentence)]
    return list(zip(cuts[::2], cuts[1::2], strict=True))


def _unmatched_pieces(sentence: str, held: _Held) -> list[str]:
    """The pieces of one read-back sentence that say a value none of the caller's says."""
    spans = _spans(sentence)
    return [sentence[a:b] for n, (a, b) in enumerate(spans) if _unmatched(sentence, spans, n, held)]


def _unmatched(sentence: str, spans: list[tuple[int, int]], n: int, held: _Held) -> bool:
    """Whether piece ``n`` says a value word none of the caller's values holds, word by word: a
    right value beside it hides no wrong one ('employee ID EMP126225 gets a 24-inch monitor',
    'Sharma versus Sarma'). A word is the caller's when one of its values holds it (spelled, the
    single letters or words it is said in of a piece that says one of its values: 'S H A R M A',
    '1 4 I N C H', 'September 14'), a short value is said whole
    ('issuing country code US'), or it is the rest of a right value its neighbours say
    (:func:`_split_value`)."""
    a, b = spans[n]
    piece = sentence[a:b]
    own = [
        compact(w)
        for k, w in enumerate(_WORD.findall(piece))
        if _value_like(w, n == 0 and k == 0, held.labels)
    ]
    spelled = _says_right(piece, held) or any(c in compact(piece) for c in held.long)
    left = [x for x in own if not _held_word(x, spelled, held)]
    return bool(left) and not _split_value(sentence, spans, n, left, held)


def _held_word(word: str, spelled: bool, held: _Held) -> bool:
    """One value word the caller's values hold (:func:`_unmatched`)."""
    if word in held.short or (spelled and (len(word) == 1 or word in _SPOKEN)):
        return True
    return any((len(word) >= 2 and word in c) or c in word for c in held.long)


def _says_right(piece: str, held: _Held) -> bool:
    """The piece says one of the facts read back right, as the read-back check reads it."""
    rs = digit_runs(piece, held.book)
    return any(said_right(piece, f, rs) for f in held.right)


def _split_value(sentence: str, spans: list[tuple[int, int]], n: int, own: list[str], held: _Held) -> bool:
    """A value split across pieces ('September 14, 1987'): the piece's value words are all of a right
    value it and its neighbours say together."""
    window = sentence[spans[max(n - 1, 0)][0] : spans[min(n + 1, len(spans) - 1)][1]]
    values = [v for f in held.right for v in f.values()]
    return any(mentions(window, v) and all(x in compact(v) for x in own) for v in values)


def only_question(turn: str) -> bool:
    """Whether the turn asks one question sentence only (the read-back's 'Is that correct?'): a
    second ('Would you also like a docking station?') may be an offer a closing yes would accept."""
    return sum(x.rstrip().endswith("?") for x in sentences_of(turn)) == 1


def action_to_come(turn: str) -> bool:
    """Whether the turn says the agent's action is still to come ('Before I submit it, let me read
    that back', 'Once you confirm I will submit it'): its read-back asks leave to act."""
    return bool(pattern("action_to_come").search(turn))
