"""A fact's label heard with one word misheard, read as that fact's label.

Live, the caller answers its recogniser's transcript of the agent's voice, and tiny.en turns a
label's word into one that sounds like it: the agent asked for "the new role code", the caller
heard "the new row code" and said it had no new row code although its facts hold
``new_role_code`` (live itsm/29, 2026-12-07). A person hearing "new row code" from an agent
understands the field they hold.

It is a fallback, never a first reading (:func:`as_label`): only a turn that, read as heard,
asks for something (a question or request sentence) and names no fact the caller holds is read
again with the labels of its request sentences said right, and that reading is taken only when it
names a fact. A statement is never rewritten ('the last game of the season', 'our flight gate is
B12'), and a request the caller can answer as heard is answered as heard.

The rule, for any fact whose label (:func:`.labels.fact_label`) has two words or more: a run of
words in the turn that says the label's other words in order, adjacent (spaces only between),
with one word in place of the label's word there, is read as the label when

* that odd word is one confusable sound away from the label's word: both compared by a crude
  spelling key (doubled letters single, a silent final 'e' dropped), the keys equal or one
  letter apart by a pair a recogniser confuses (``soundalike.confusable``: vowels among
  themselves, r/l/w, t/d, p/b, k/g, f/v, s/z, m/n) or by one ``soundalike.dropped`` letter
  (l, r, w, h, e) more or less; so 'row' / 'roll' meet 'role', but 'game' is no 'name',
  'gate' / 'rate' no 'date', 'lumber' no 'number'; of three letters or more (no 'ID');
* it is not the label's word inflected (same stem: 'numbers' is understood already) nor a word
  of another of the caller's facts' labels (then it may name that fact);
* the run follows a determiner or possessive (``soundalike.before``: 'your', 'the'...): a label
  is a noun phrase the agent names, so 'we start late' is no 'start date'.

Only the odd word is replaced; the rest of the turn is left as heard.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from itertools import pairwise

from voxbench.pipelines.caller.goal.facts import FactBook, stem
from voxbench.pipelines.caller.goal.heard import Heard
from voxbench.pipelines.caller.goal.labels import fact_label
from voxbench.pipelines.caller.goal.lang import phrases
from voxbench.pipelines.caller.goal.turn import Turn
from voxbench.spoken.edits import one_edit

_BEFORE = frozenset(phrases("soundalike", "before"))
_CONFUSABLE = tuple(frozenset(g) for g in phrases("soundalike", "confusable"))
_DROPPED = frozenset(phrases("soundalike", "dropped"))
_WORD = re.compile(r"[A-Za-z']+")
MIN_LETTERS = 3


def sound_key(word: str) -> str:
    """A crude key of how a word sounds from its spelling: lower case, doubled letters single,
    a final silent 'e' after a consonant dropped ('role', 'roll' -> 'rol')."""
    w = re.sub(r"(.)\1+", r"\1", word.lower())
    return w[:-1] if len(w) > 3 and w.endswith("e") and w[-2] not in "aeiou" else w


def one_confusable_edit(a: str, b: str) -> bool:
    """Equal, or one letter apart by a confusable pair (``soundalike.confusable``) or by one
    letter a recogniser drops or adds (``soundalike.dropped``)."""
    return a == b or one_edit(
        a, b, swap=lambda x, y: any({x, y} <= g for g in _CONFUSABLE), drop=lambda c: c in _DROPPED
    )


def sounds_like(heard: str, meant: str) -> bool:
    """A heard word that is a recogniser's slip for ``meant``: not the same word or an inflection
    of it, both long enough to judge, their sound keys one confusable edit apart."""
    h, m = heard.lower(), meant.lower()
    if h == m or stem(h) == stem(m) or min(len(h), len(m)) < MIN_LETTERS or not h.isalpha():
        return False
    return one_confusable_edit(sound_key(h), sound_key(m))


@cache
def _labels(book_labels: tuple[tuple[str, ...], ...]) -> tuple[tuple[tuple[str, ...], frozenset[str]], ...]:
    """Each label of two words or more, with the words of the other labels (which an odd word
    must not be)."""
    out = []
    for lab in book_labels:
        if len(lab) >= 2:
            others = frozenset(w for o in book_labels if o != lab for w in o)
            out.append((lab, others))
    return tuple(out)


def _label_words(book: FactBook) -> tuple[tuple[str, ...], ...]:
    return tuple(dict.fromkeys(tuple(fact_label(f).lower().split()) for f in book))


def relabelled(text: str, book: FactBook) -> str:
    """``text`` with each label heard one word wrong (see the module docstring) said right."""
    toks = list(_WORD.finditer(text))
    fixes: dict[int, str] = {}
    for label, others in _labels(_label_words(book)):
        n = len(label)
        for i in range(1, len(toks) - n + 1):
            if toks[i - 1].group(0).lower() not in _BEFORE or not _adjacent(text, toks[i - 1 : i + n]):
                continue
            said = [t.group(0).lower() for t in toks[i : i + n]]
            odd = [j for j in range(n) if said[j] != label[j]]
            if len(odd) == 1 and said[odd[0]] not in others and sounds_like(said[odd[0]], label[odd[0]]):
                fixes.setdefault(i + odd[0], label[odd[0]])
    for k in sorted(fixes, reverse=True):
        t = toks[k]
        text = text[: t.start()] + fixes[k] + text[t.end() :]
    return text


def _adjacent(text: str, toks: list[re.Match[str]]) -> bool:
    """Words with only spaces between them: one phrase, no comma or full stop inside."""
    return all(text[a.end() : b.start()].isspace() for a, b in pairwise(toks))


def as_label(text: str, heard: Heard, book: FactBook, again: Callable[[str], Heard]) -> tuple[str, Heard]:
    """The turn and its reading, or, when the turn asks for something the caller finds no fact
    for (no fact asked, or a field it does not hold named: it would say "I don't have that"),
    its request sentences with their labels said right and their reading (``again``, the
    caller's classifier) if that names a fact the first did not. A fallback: a turn the caller
    understood, or one that asks nothing, is kept as heard, and a statement is never re-read."""
    if heard.asked and not (heard.unheld or heard.lacking):
        return text, heard
    t = Turn.of(text)
    asks = {*t.questions, *t.requests}
    sents = [relabelled(s, book) if s in asks else s for s in t.sents]
    if sents == t.sents:
        return text, heard
    fixed = " ".join(sents)
    read = again(fixed)
    return (fixed, read) if set(read.asked) - set(heard.asked) else (text, heard)
