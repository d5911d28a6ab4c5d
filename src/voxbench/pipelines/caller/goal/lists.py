"""The commas a speech recogniser drops from a list, put back from the caller's own words before
anything reads the turn: 'What level do you need: read only standard or admin?' is the three
options 'read only, standard, or admin', and 'What building date start time end time and how many
attendees?' asks four facts and a count. Options (:mod:`.options`) and requests (:mod:`.requested`)
are read from commas; live the caller reads a transcript that may have none
(``benchmarks/caller_asr_forms.py``, rule ``no_commas``).

A list is found by the one thing the caller knows about it: its own words. Its facts' names (the
key's words and their endings: 'start time', 'date') and its facts' short word values ('read
only', 'Headquarters') mark where one item ends and the next begins. In a run of items that ends
with 'or' / 'and' before a last item, a comma goes between two of the caller's field names side by
side, or between one of its values and an option it does not hold (one word, or two first in the
list: 'standard', 'read only'), before 'or' and a short last option. Items of two sorts (a value
and a field name: 'the Headquarters building'; values of two facts: 'Confluence read only') are
no list; two unknown words side by side inside a run are not split (where one item ends is
unknown); a bare head noun after a field name is part of it ('employee ID number'). Quantities of
one unit are a value kind the caller reads whichever values it holds ('ten AM eleven AM and two
PM'). A list written with its commas has no run without one, so it is left as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from voxbench.pipelines.caller.goal.facts import DROP_WORDS, FLUFF_HEADS, FactBook, stem
from voxbench.pipelines.caller.goal.lang import phrases
from voxbench.spoken.words import SCALES, TENS, UNITS

_CONJ = frozenset(phrases("lists", "conjunction"))
_DET = frozenset(phrases("lists", "determiner"))
_STOP = frozenset(phrases("lists", "not_an_item")) | _CONJ | _DET
_FLUFF = frozenset(stem(h) for h in FLUFF_HEADS)
"""Heads said after a field's name as part of it ('confirmation number', 'employee ID number')."""
_NUMBER = frozenset([*UNITS, *TENS, *SCALES])
_CLOCK = frozenset(phrases("lists", "clock"))
_CLAUSE = re.compile(r"[^,;:.?!()\n]+")
_WORD = re.compile(r"[A-Za-z0-9']+")
_MAX_VALUE_WORDS = 4
FIELD = "field"
"""The sort of an item that names one of the caller's facts; a value's sort is ``value:<key>``."""


@dataclass(frozen=True)
class _Item:
    start: int  # character offsets in the text
    end: int
    sort: str  # FIELD, 'value:<key>', 'word' (a key's word that names no fact alone), 'stop', '' (other)
    words: int = 1  # of the caller's phrase
    last: str = ""  # its last word's stem
    det: bool = False  # said after a determiner ('the date')


_SEEN: dict[int, tuple[FactBook, dict[tuple[str, ...], str]]] = {}
_ANY_CONJ = re.compile(rf"\b(?:{'|'.join(_CONJ)})\b", re.I)


def _known(book: FactBook) -> dict[tuple[str, ...], str]:
    """:func:`known_words` of a book, kept for the books seen last (a caller's book is fixed)."""
    seen = _SEEN.get(id(book))
    if seen is None or seen[0] is not book:
        if len(_SEEN) > 256:
            _SEEN.clear()
        seen = _SEEN[id(book)] = (book, known_words(book))
    return seen[1]


def known_words(book: FactBook) -> dict[tuple[str, ...], str]:
    """The caller's own phrases (stems) and their sort: each fact's key words and their endings
    ('meeting start time', 'start time', 'time'), one word without the head an agent leaves out
    ('the building' for 'building_name'), a key's other words ('word'), and each short value said in
    words ('read_only' -> 'read only')."""
    known: dict[tuple[str, ...], str] = {}
    for f in book:
        ws = tuple(stem(w) for w in f.words)
        for i in range(len(ws)):
            known.setdefault(ws[i:], FIELD)
        if len(ws) == 2 and f.words[1] in FLUFF_HEADS:
            known.setdefault(ws[:1], FIELD)
    for f in book:
        for w in f.words:
            known.setdefault((stem(w),), "word")
    for f in book:
        for v in f.values():
            said = re.findall(r"[a-z]+|\d+", v.lower())
            if said and len(said) <= _MAX_VALUE_WORDS and not any(w.isdigit() for w in said):
                known.setdefault(tuple(stem(w) for w in said), f"value:{f.key}")
    return known


Word = tuple[int, int, str, str]


def _words(text: str, start: int, end: int) -> list[Word]:
    """(start, end, word, stem) of each word of ``text[start:end]``, lower case; capitals said one
    by one are one word ('I D' -> 'id')."""
    out: list[tuple[int, int, str]] = []
    for m in _WORD.finditer(text, start, end):
        w, prev = m.group(0), out[-1] if out else None
        if prev and len(w) == 1 and w.isupper() and _capitals(text[prev[0] : prev[1]]):
            out[-1] = (prev[0], m.end(), prev[2] + w.lower())
        else:
            out.append((m.start(), m.end(), w.lower()))
    return [(s, e, w, stem(w)) for s, e, w in out]


def _capitals(said: str) -> bool:
    """Capital letters said one by one so far ('I', 'I D')."""
    letters = said.split()
    return all(len(x) == 1 for x in letters) and "".join(letters).isalpha() and said.isupper()


def _items(ws: list[Word], known: dict[tuple[str, ...], str], firsts: set[str]) -> list[_Item]:
    """The clause cut into the caller's phrases (the longest first, a determiner taken with the
    phrase after it, a key's dropped word inside one: 'date of birth') and single other words."""
    items: list[_Item] = []
    i = 0
    while i < len(ws):
        det = int(ws[i][2] in _DET and i + 1 < len(ws))
        at = i + det
        j, sort, n = _phrase_at(ws, at, known) if ws[at][3] in firsts else (at, "", 0)
        if sort:
            items.append(_Item(ws[i][0], ws[j - 1][1], sort, n, ws[j - 1][3], bool(det)))
            i = j
            continue
        items.append(_Item(ws[i][0], ws[i][1], "stop" if ws[i][2] in _STOP else "", 1, ws[i][3]))
        i += 1
    return items


def _phrase_at(ws: list[Word], i: int, known: dict[tuple[str, ...], str]) -> tuple[int, str, int]:
    """(end word index, sort, words matched) of the longest of the caller's phrases starting at
    word ``i``, a key's dropped word inside it said or not ('date of birth', 'read only'); (i, '',
    0) if none."""
    best = (i, "", 0)
    said: set[tuple[str, ...]] = {()}
    for j in range(i, min(len(ws), i + _MAX_VALUE_WORDS + 2)):
        w, st = ws[j][2], ws[j][3]
        grown = {(*p, st) for p in said}
        said = grown | ({p for p in said if p} if w in DROP_WORDS and w not in _CONJ else set())
        hit = max((p for p in grown if p in known), key=len, default=None)
        if hit is not None:
            best = (j + 1, known[hit], len(hit))
    return best


def _run(items: list[_Item], c: int) -> list[_Item]:
    """The items of the list that ends at the conjunction ``items[c]`` ([] if none): going left,
    the caller's phrases of one sort; beside its values, an option it does not hold just before
    'or' (one word) or first in the list, after the clause's start or a word like 'are' (one or two
    words; see :func:`_other_option`)."""
    run: list[_Item] = []
    sort = ""
    j = c - 1
    while j >= 0:
        it = items[j]
        if it.sort in ("stop", "word") or (sort and it.sort and it.sort != sort):
            break
        if it.sort == "" and run:  # another word: the first option only, where one item's end is known
            two = j > 0 and items[j - 1].sort == ""  # a first option of two words ('read only')
            k = j - 1 if two else j
            if sort.startswith("value:") and (k == 0 or items[k - 1].sort == "stop"):
                run.insert(0, _Item(items[k].start, it.end, ""))
            break
        if run and run[0].sort == FIELD == it.sort and run[0].words == 1 and run[0].last in _FLUFF:
            run[0] = _Item(it.start, run[0].end, FIELD, it.words + 1, run[0].last)  # 'employee ID number'
        else:
            run.insert(0, it)
        sort = sort or it.sort
        j -= 1
    others = sum(it.sort == "" for it in run)
    if len(run) < 2 or (others and not _other_option(items, c, sort)):
        return []
    if sort == FIELD and len(run) == 2 and not run[1].det and items[c + 1].sort != FIELD:
        return []  # 'your confirmation email or app': two names side by side may be one
    return run


def _other_option(items: list[_Item], c: int, sort: str) -> bool:
    """Options the caller does not hold beside one it does ('read only standard or admin'): only
    among its values, before 'or', with a last option of at most three words that ends the clause."""
    conj = items[c]
    return sort.startswith("value:") and conj.last == "or" and 1 <= len(items) - c - 1 <= 3


def _unit(w: Word) -> str:
    """The unit a quantity ends in ('AM' and 'PM' are one: clock times), '' for a number word."""
    return "" if w[2] in _NUMBER or w[2].isdigit() else "clock" if w[2] in _CLOCK else w[3]


def _quantities(ws: list[Word]) -> set[int]:
    """Where a list of quantities of one unit said without commas ends each item: 'ten AM eleven
    AM and two PM', 'thirteen inch fourteen inch or sixteen inch' (a value kind the caller reads,
    whichever values it holds): after each unit that a number follows, in a run that ends with the
    conjunction and one more quantity of that unit."""
    cuts: set[int] = set()
    for c, w in enumerate(ws):
        if w[2] not in _CONJ or not 0 < c < len(ws) - 2 or _unit(ws[c + 1]) or not _unit(ws[c - 1]):
            continue
        tail = next((x for x in ws[c + 1 :] if _unit(x)), None)
        unit = _unit(ws[c - 1])
        if tail is None or _unit(tail) != unit:
            continue
        ends: list[int] = []
        j = c - 1
        while j > 0 and _unit(ws[j]) == unit and not _unit(ws[j - 1]):
            ends.append(ws[j][1])
            j -= 1
            while j >= 0 and not _unit(ws[j]):
                j -= 1
        if len(ends) >= 2:
            cuts |= set(ends)
    return cuts


def listed(text: str, book: FactBook) -> str:
    """``text`` with a comma after each item of a list said without them (and before its
    conjunction); a list said with its commas, and anything else, left as it was."""
    if not _ANY_CONJ.search(text):
        return text
    known = _known(book)
    firsts = {k[0] for k in known}
    cuts: set[int] = set()
    for m in _CLAUSE.finditer(text):
        if not _ANY_CONJ.search(m.group(0)):
            continue
        ws = _words(text, m.start(), m.end())
        cuts |= _quantities(ws)
        items = _items(ws, known, firsts)
        for c, it in enumerate(items):
            if it.sort == "stop" and text[it.start : it.end].lower() in _CONJ and c + 1 < len(items):
                run = _run(items, c)
                cuts |= {x.end for x in run}
    for at in sorted(cuts, reverse=True):
        text = text[:at] + "," + text[at:]
    return text
