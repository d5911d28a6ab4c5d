"""Facts of one kind that serve several requests: which one an agent turn asks for.

The words of a request name a *kind* of fact ('dates', 'floor', 'size') and often no more; when
the caller holds that kind for several of its requests (:mod:`.belong`), the request in hand
decides, as it does for a person:

* a fact of a request already done is given again only when the turn names it by its own words
  ('the delivery floor', not 'a floor preference') and no fact of the same kind of the request in
  hand is asked by the same word ('what dates do you want off the week before your leave
  starts' asks the time off's dates, not the leave's); a turn that asks again ('repeat', 'once
  more') keeps it;
* a fact of a request still to come is not given in place of the one in hand: dropped when a fact
  of the same kind of the request in hand is asked and the turn names the other only by words it
  shares with the one in hand ('what screen size' for the laptop, not the monitor) or not at all
  (its words came from the rest of the turn);
* 'What dates ...?' (a plural kind) with one of a start/end pair asked asks for both; a fact of a
  request to come whose key word the turn says in the plural ('the names of the applications you
  need') is asked beside the one in hand's when the request in hand holds one fact of that kind:
  a plural wants two or more ('the effective and expiration dates' are the request in hand's two).

A fact the turn names explicitly (all its own words, said for it alone) is never dropped.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.asks import words_of
from voxbench.pipelines.caller.goal.belong import InHand, kind_of, subject_words
from voxbench.pipelines.caller.goal.facts import SYNONYMS, Fact, FactBook, stem
from voxbench.pipelines.caller.goal.plural import plural_said
from voxbench.pipelines.caller.goal.rules import THIRD_PARTY

# Rules that read which fact is meant from more than its words (:mod:`.asks`, :mod:`.requested`):
# 'her date of birth', 'which floor instead?', digits the agent half heard, a code it sent.
_TARGETED = {THIRD_PARTY, "not_given_same_head", "heard_digits", "fallback", "not_fallback", "sent_code",
             "which_of_its_own", "named_part", "next_part"}  # fmt: skip
_AGAIN = re.compile(r"\b(again|once more|one more time|repeat|re-?confirm|still)\b", re.I)


def _said_as(word: str, text: str) -> set[str]:
    """The ways ``word`` is said in ``text`` (itself, or one of its synonyms); empty if it is not."""
    ws, flat = words_of(text)
    out: set[str] = set()
    for alt in (word, *SYNONYMS.get(word, ())):
        if (" " in alt and f" {alt} " in flat) or (" " not in alt and stem(alt) in ws):
            out.add(alt)
    return out


def _named_own(f: Fact, text: str, rivals: list[Fact]) -> bool:
    """Whether ``text`` names ``f`` by its own words: every word of its key but its kind ('start'
    of 'start_time'; 'the date' alone names no 'preferred_date'), its subject words not only by
    words that also say one of ``rivals``' ('screen' says both the laptop and the monitor)."""
    kind = kind_of(f)
    said = {w: _said_as(w, text) for w in f.words if w != kind}
    if not said or not all(said.values()):
        return False
    mine = {a for w in subject_words(f) for a in said[w]}
    theirs = {a for r in rivals for w in subject_words(r) for a in _said_as(w, text)}
    return not mine or not mine <= theirs


def _times_said(kind: str, text: str) -> int:
    """How often the kind's word is said ('dates' once in 'what dates ... before your leave starts')."""
    alts = [kind, *SYNONYMS.get(kind, ())] if kind else []
    return sum(len(re.findall(rf"\b{re.escape(a)}(s|es)?\b", text, re.I)) for a in alts)


def scoped(requests: list[str], book: FactBook, asked: dict[str, str], hand: InHand | None) -> dict[str, str]:
    """The asked facts, scoped to the request in hand (see the module docstring)."""
    if hand is None or not asked or not (hand.done or hand.later):
        return asked
    text = " ".join(requests)
    if not text:
        return asked
    in_hand = [f for k in asked if k in hand.keys and (f := book.get(k))]
    again = bool(_AGAIN.search(text))
    out: dict[str, str] = {}
    for k, rule in asked.items():
        f = book.get(k)
        if f is None or (k not in hand.done and k not in hand.later) or rule.split(":")[0] in _TARGETED:
            out[k] = rule
            continue
        rivals = [g for g in in_hand if kind_of(g) == kind_of(f)]
        named = _named_own(f, text, rivals)
        if k in hand.done and not again:
            if rivals and _times_said(kind_of(f), text) <= 1:
                continue  # the kind's one word is the request in hand's
            if not named:
                continue  # a kind alone: not the finished request's
        elif k in hand.later and rivals and not named and not _plural_beyond(f, text, book, hand):
            continue
        out[k] = rule
    return _both_ends(text, book, out, hand)


def _plural_beyond(f: Fact, text: str, book: FactBook, hand: InHand) -> bool:
    """The fact's kind said in the plural while the request in hand holds one fact of that kind:
    the plural reaches to the requests to come ('Which applications do you need?')."""
    held = [g for g in book if g.key in hand.keys and kind_of(g) == kind_of(f)]
    return len(held) < 2 and plural_said(f, text)


def _both_ends(text: str, book: FactBook, asked: dict[str, str], hand: InHand) -> dict[str, str]:
    """A plural kind ('what dates') with one of a start/end pair of one request asked: both."""
    out = dict(asked)
    for k in asked:
        f = book.get(k)
        if f is None or not ({"start", "end"} & set(f.words)):
            continue
        kind = kind_of(f)
        if not kind or not re.search(rf"\b{re.escape(kind)}s\b", text, re.I):
            continue
        other = "end" if "start" in f.words else "start"
        want = [other if w in ("start", "end") else w for w in f.words]
        mate = next((g for g in book if list(g.words) == want), None)
        if mate is not None and mate.key not in out and hand.same_request(k, mate.key):
            out[mate.key] = f"pair:{k}"
    return out
