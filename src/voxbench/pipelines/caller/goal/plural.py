"""A plural noun that names the items of a list the caller holds: 'Which courses are you taking?'
for ``course_codes: [CS101, MA202]``, 'Who are the attendees?' for ``attendee_names``.

A list's key names its items and the label each is said by ('course' + 'codes'); an agent asking
for the things themselves leaves the label out. The key words do not name the fact then
(:func:`.asks.asked_in` wants every distinctive word), so the request found nothing. Here the rest
of the key, said with a plural ending, asks the whole list: the number of the noun says the agent
wants every item. A singular ('Which course?') or a count ('How many courses?') does not, nor a
yes/no question ('Are the attendees on site?'), nor a choice among items offered ('Which
privileges: the ICU one, the surgical one, or both?'): only a sentence that asks for a value (its
lead words are data: ``phrases.plural``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voxbench.pipelines.caller.goal.facts import HEADS, Fact, FactBook, stem
from voxbench.pipelines.caller.goal.lang import alt

if TYPE_CHECKING:
    from voxbench.pipelines.caller.goal.turn import Turn

_ASKS = re.compile(
    rf"^(?:[^,]{{1,24}},\s*)?(?:(?:{alt('cues', 'request_connective')})\s+)?(?:{alt('plural', 'value_lead')})\b",
    re.I,
)
_OR = re.compile(rf"\b(?:{alt('option_words', 'or')})\b", re.I)
_COUNT = re.compile(rf"\b(?:{alt('speech', 'count_question')})\b", re.I)
_LABELS = frozenset(stem(h) for h in HEADS)
PLURAL_ITEMS = "plural_items"


def plural_words(f: Fact, text: str) -> set[str]:
    """The words of the fact's key said in the plural ('application' in 'the software applications'
    for 'application_name_2'): the agent asks for every fact of that kind, not only the one of
    the request in hand (:mod:`.scoped`, :func:`.asks.asked_in`)."""
    return {w for w in f.words if not w.endswith("s") and re.search(rf"\b{re.escape(w)}(s|es)\b", text, re.I)}


def plural_said(f: Fact, text: str) -> bool:
    """A word of the fact's key said in the plural (:func:`plural_words`)."""
    return bool(plural_words(f, text))


def _items_named(f: Fact, said: set[str]) -> bool:
    """The list's key less its label, each word said, one of them as a plural ('courses')."""
    if not isinstance(f.value, list) or len(f.value) < 2 or len(f.words) < 2:
        return False
    lead, label = f.words[:-1], f.words[-1]
    if _singular(label) not in _LABELS:
        return False
    plural = {stem(w) for w in said if w.endswith("s") and stem(w) != w}
    stems = {stem(w) for w in said}
    return all(stem(w) in stems for w in lead) and any(stem(w) in plural for w in lead)


def _singular(word: str) -> str:
    """A label word as the heads table holds it: its stem, less a plural 's' a short word keeps
    ('ids' -> 'id', 'codes' -> 'code')."""
    w = stem(word)
    return w[:-1] if w not in _LABELS and w.endswith("s") and w[:-1] in _LABELS else w


def plural_items(t: Turn, book: FactBook) -> dict[str, str]:
    """The list facts a request asks for by their items' plural noun (the module's rule)."""
    asked: dict[str, str] = {}
    for s in t.requests:
        if not _ASKS.search(s) or _COUNT.search(s) or _OR.search(s):  # 'A, B, or both?': a choice
            continue
        said = {w.lower() for w in re.findall(r"[A-Za-z]+", s)}
        for f in book:
            if _items_named(f, said):
                asked.setdefault(f.key, PLURAL_ITEMS)
    return asked


def _in_hand_instead(
    h: tuple[Fact, frozenset[str], str], o: tuple[Fact, frozenset[str], str], focus: set[str]
) -> bool:
    """Fact ``o`` of the request in hand is named by the same words as ``h``, which is not named
    whole either ('the effective date' in the DEA transfer: 'dea_transfer_effective_date',
    not 'malpractice_effective_date'; 'the facility code' stays 'facility_code', not 'new_facility_code')."""
    return o[0].key in focus and o[1] == h[1] and bool(set(h[0].words) - h[1])


def beside_hand(
    h: tuple[Fact, frozenset[str], str],
    hits: list[tuple[Fact, frozenset[str], str]],
    focus: set[str],
    sentence: str,
    book: FactBook,
) -> bool:
    """Fact ``h`` of another request is asked beside the request in hand's: no fact of the one in
    hand is named by the same words (:func:`_in_hand_instead`), or one is, the words are said in the
    plural ('Which applications do you need?') and the request in hand holds fewer than two facts
    that answer that plural (its 'effective and expiration dates' are two of its own)."""
    if not any(_in_hand_instead(h, o, focus) for o in hits):
        return True
    plural = plural_words(h[0], sentence)
    mates = [o for o in book if o.key in focus and plural & set(o.words)]
    return bool(plural) and len(mates) < 2
