"""What the call is about, for the caller: whether an agent's offer is part of its goal.

A caller accepts what it came for. An offer whose subject words appear nowhere in the caller's
goal, decision tree, requests or facts ("Do you want to add a seat?" to a caller who called about
a bag) is outside its goal: a scripted caller must not take on new requests (EVA's trees say
"Never invent new goals, requests, or problems"), so it declines. An offer with no subject of
its own ("Shall I go ahead?", "Would you like me to submit that?") is about the matter in hand.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.cues import DONE_VERB
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.facts import FactBook
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.spoken import sentences_of, tokens


def _a(name: str) -> str:
    return alt("scope", name)


# Words of any offer: they name no subject (nor a field: :mod:`.confirmobj`).
OFFER_WORDS = content_words(" ".join(phrases("scope", "offer_words")))
# Dates and times name when, not what ('book June fifteenth at ten AM').
CALENDAR = content_words(" ".join(phrases("scope", "calendar")))
_DONE_VERB = re.compile(rf"\b{DONE_VERB}\b", re.I)
_OFFER = re.compile(rf"\b({_a('offer')})\b", re.I)
_WH = re.compile(rf"({_a('wh')})\b", re.I)
_AND = re.compile(rf"[;,:]|\b(?:{_a('and')})\b")
_TRANSFER = re.compile(rf"\b(?:{_a('transfer')})", re.I)


class Scope:
    """The content words of everything the caller came for."""

    def __init__(self, texts: list[str], book: FactBook) -> None:
        values = [v for f in book for v in f.values()] + [" ".join(f.words) for f in book]
        self.words = content_words(" ".join([*texts, *values]))
        self.heads: dict[str, set[str]] = {}
        """Word -> the words said right before it wherever the caller's texts hold it ('' where
        none is: 'an address'): 'address' -> {'email', 'home'} holds it only as those compounds."""
        for text in [*texts, *values]:
            for before, w in _pairs(text):
                self.heads.setdefault(w, set()).add(before)

    def outside(self, text: str, question: str) -> bool:
        """Whether the offer in ``question`` names only subjects the caller's goal never mentions
        (a vague one, 'Would you like that?', is about the matter in hand)."""
        if _WH.match(question):
            return False  # 'How would you like to proceed?' offers nothing of its own
        offer = stated_offer(text) if pattern("offer_vague").match(question.strip()) else ""
        if not offer and not _OFFER.search(question):
            return False
        words = content_words(offer or question) - OFFER_WORDS - CALENDAR
        return bool(words) and not words & self.words

    def other_done(self, sentence: str, mostly: bool = False) -> bool:
        """A completion whose subject is nothing the caller came for ('I've renewed your parking
        permit for you.' to a caller rebooking a flight): the clauses holding a done verb, their
        done verbs, report words, dates and the words of any offer left out, say something and
        none of it is in the goal, tree, requests or facts. It completes none of the caller's
        requests (:meth:`.requests.Requests.resolve`). Only those clauses: 'Cancelled; thirty-nine
        pounds goes back to your card.' reports the cancellation the caller asked for.

        ``mostly`` (a sentence naming none of the caller's requests by its own words): its subject
        is another thing too when two of its words or more are nowhere in the caller's texts and
        they are as many as those that are ('I submitted your access update for role code M G E N
        G with the Standard template' to a caller rebooking a flight: 'access', 'role', 'template',
        'standard' against 'code' and 'required', words any long goal holds)."""
        if pattern("all_done").match(sentence.strip()):  # 'Everything is complete.': the whole call
            return False
        clauses = [c for c in _AND.split(sentence) if _DONE_VERB.search(c)]
        plain = pattern("report_filler").sub(" ", _DONE_VERB.sub(" ", " ".join(clauses)))
        words = content_words(plain) - OFFER_WORDS - CALENDAR
        other = {w for c in clauses for before, w in _pairs(c) if self.other_compound(before, w)}
        inside = (words & self.words) - other
        outside = words - inside
        return bool(words) and (not inside or (mostly and len(outside) >= max(2, len(inside))))

    def reports(self, sentence: str) -> bool:
        """Whether a sentence holds a clause with a done verb (what :meth:`other_done` reads)."""
        return any(_DONE_VERB.search(c) for c in _AND.split(sentence) if c)

    def other_compound(self, before: str, word: str) -> bool:
        """'mailing address' to a caller whose texts hold 'address' only as 'email address' or
        'home address': the same head with a word the caller never says, another thing. A word the
        caller says alone too ('a bag', then 'checked bag') is its own, whatever comes before."""
        heads = self.heads.get(word, set())
        return bool(before and heads) and before not in self.words and not {"", before} & heads


def stated_offer(text: str) -> str:
    """What the turn's last statement offering something offers, from the offer on ('I can't
    change the date, but I can set up a callback request instead.' -> 'up a callback request
    instead.'): a vague 'Would you like that?' after it asks about that ('' if none)."""
    for sentence in reversed([x for x in sentences_of(text) if not x.endswith("?")]):
        m = pattern("offer_stated").search(sentence)
        if m:
            return sentence[m.end() :]
    return ""


def _pairs(text: str) -> list[tuple[str, str]]:
    """Each content word of ``text`` (stemmed) with the content word right before it ('' if the
    word before is none: 'an address', or the text starts with it)."""
    out: list[tuple[str, str]] = []
    prev = ""
    for t in tokens(text):
        w = next(iter(content_words(t)), "") if t.isalpha() else ""
        if w:
            out.append((prev, w))
        prev = w
    return out


_VAGUE_OFFER = re.compile(rf"\b({_a('vague_offer')})\b.{{0,25}}\b({_a('vague_object')})\?$", re.I)


def about_transfer(question: str, transfer_offered: bool) -> bool:
    """Whether the agent's question is about a transfer: it names one, or it is a vague 'Would you
    like me to do that?' in a turn that offered one."""
    if _TRANSFER.search(question):
        return True
    return transfer_offered and bool(_VAGUE_OFFER.search(question))
