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
from voxbench.pipelines.caller.goal.facts import Fact, FactBook, key_tokens
from voxbench.pipelines.caller.goal.intents import words_close
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.spoken import runs, sentences_of, tokens


def _a(name: str) -> str:
    return alt("scope", name)


# Words of any offer: they name no subject (nor a field: :mod:`.confirmobj`).
OFFER_WORDS = content_words(" ".join(phrases("scope", "offer_words")))
# Dates and times name when, not what ('book June fifteenth at ten AM').
CALENDAR = content_words(" ".join(phrases("scope", "calendar")))
_ID_KEY = frozenset(phrases("scope", "identity_key"))
_DONE_VERB = re.compile(rf"\b{DONE_VERB}\b", re.I)
REPORT_VERB = re.compile(rf"\b(?:{DONE_VERB}|{_a('report_verb')})\b", re.I)
"""A done verb, or another verb a report of something done holds ('The issue was resolved',
'your manager has been notified'): what :meth:`Scope.of_things` reads a report's subject by (the
completion cues do not read these as a completion of their own)."""
_OFFER = re.compile(rf"\b({_a('offer')})\b", re.I)
_WH = re.compile(rf"({_a('wh')})\b", re.I)
_AND = re.compile(rf"[;,:]|\b(?:{_a('and')})\b")
_TRANSFER = re.compile(rf"\b(?:{_a('transfer')})", re.I)


class Scope:
    """The content words of everything the caller came for."""

    def __init__(self, texts: list[str], book: FactBook, requests: list[str] | None = None) -> None:
        values = [v for f in book for v in f.values()] + [" ".join(f.words) for f in book]
        self.words = content_words(" ".join([*texts, *values]))
        asked = texts if requests is None else requests
        own = [v for f in book for v in f.values()] + [" ".join(f.words) for f in book if not _identity(f)]
        self.things = content_words(" ".join([*asked, *own]))
        """The words of what the caller asks for: its requests' words (the listed requests, the
        opening utterance and the goal's clauses stating them: :func:`stating`), its facts' values
        and the key words of those that do not identify or verify the caller (the tree's and the
        goal's other words aside: a long goal holds words of any report). A report names one of
        its things by one of them (:meth:`of_things`)."""
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
        clauses = self.done_clauses(sentence)
        plain = pattern("report_filler").sub(" ", _DONE_VERB.sub(" ", " ".join(clauses)))
        words = content_words(plain) - OFFER_WORDS - CALENDAR
        other = {w for c in clauses for before, w in _pairs(c) if self.other_compound(before, w)}
        inside = (words & self.words) - other
        outside = words - inside
        return bool(words) and (not inside or (mostly and len(outside) >= max(2, len(inside))))

    def reports(self, sentence: str) -> bool:
        """Whether a sentence holds a clause with a done verb (what :meth:`other_done` reads)."""
        return bool(self.done_clauses(sentence))

    @staticmethod
    def done_clauses(sentence: str, verb: re.Pattern[str] = _DONE_VERB) -> list[str]:
        """The clauses of a sentence that hold a done verb ('the review is scheduled for May 3')."""
        return [c for c in _AND.split(sentence) if c and verb.search(c)]

    @staticmethod
    def subject(clause: str) -> set[str]:
        """What a done clause says was done: its content words without done verbs, report words,
        dates and the words of any offer ('Your permission change has been submitted' ->
        permission; 'It has been submitted' -> none). Numbers say how many or when, not what;
        a spelled name is read as its word ('your F M L A case' -> fmla)."""
        plain = pattern("report_filler").sub(" ", REPORT_VERB.sub(" ", clause))
        toks = tokens(plain)
        spelled = {r for r in runs(clause) if r.isalpha() and len(r) >= 2 and r not in tokens(clause)}
        return content_words(" ".join(t for t in [*toks, *spelled] if t.isalpha())) - OFFER_WORDS - CALENDAR

    def all_things(self, words: set[str]) -> bool:
        """Whether every one of ``words`` is a word of what the caller asks for (:attr:`things`)."""
        return bool(words) and all(any(words_close(x, y) for y in self.things) for x in words)

    def of_things(self, sentences: list[str]) -> bool | None:
        """Whether a report naming none of the caller's requests by their own words is still of
        what the caller asks for: one of its done clauses says no subject ('It's been submitted.',
        'That fixed it.') or a word of the caller's requests or facts (:attr:`things`: 'Your
        flight has been cancelled', 'Your F M L A case has been opened'). A report whose done
        clauses all say other things ('the review is scheduled for November 30th' to a caller
        updating a malpractice record) completes none of its requests, the one in hand no more
        than the others (:meth:`.requests.Requests.resolve`). None: no done clause to read (a
        completion the cues read by other words), left as it was."""
        subjects = [self.subject(c) for s in sentences for c in self.done_clauses(s, REPORT_VERB)]
        if not subjects:
            return None
        return any(not w or any(words_close(x, y) for x in w for y in self.things) for w in subjects)

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


def _identity(fact: Fact) -> bool:
    """Whether a fact identifies or verifies the caller (``employee_id``, ``date_of_birth``,
    ``phone_last_four``, ``first_name``): its key's words ('date', 'number', 'phone') are in any
    report ('your phone was updated'), so only its value names one of the caller's things."""
    return bool(set(key_tokens(fact.key)) & _ID_KEY)


def stating(goal: str, requests: list[str]) -> list[str]:
    """The goal's clauses that state one of the caller's requests, a word of it among theirs
    ('You want to swap a shift', 'request vacation days'), not those about other things ('and
    keep your badge'): with the opening utterance ('I have two scheduling things'), the words
    the caller itself names its requests by (:attr:`Scope.things`)."""
    own = content_words(" ".join(requests))
    clauses = [c for x in sentences_of(goal) for c in _AND.split(x) if c]
    return [c for c in clauses if any(words_close(w, y) for w in content_words(c) for y in own)]


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
