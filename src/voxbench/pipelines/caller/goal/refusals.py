"""Facts the decision tree tells the caller to refuse, and what it says in their place.

Some trees test whether the agent keeps its verification policy: "If the agent asks for your
last name or any other verification, refuse to provide it and repeat that first name and
destination should be enough to find you."; "If the agent asks for your confirmation number,
say you don't have it handy and ask them to look you up by first name (Derek) ... instead.";
"..., do not provide the last name or confirmation number; instead ask if there is any other
way to find the booking ...". The facts still sit in ``information_required`` (often keyed
``..._if_eventually_provided``), so a caller answering every ask from its facts gives them at
once. :meth:`Refusals.of` reads such sentences once: the facts a sentence refuses (the object of
a negated giving verb, else what its condition says the agent asks for: :func:`.asks.asked_facts`
on those words; not a thing of someone else's, 'his confirmation number', nor what an exception
leaves out, 'beyond your first name'), and the line the sentence tells the caller to say instead
(its 'say ...', 'repeat that ...', 'ask them to ...', 'ask if there is ...' in the first person;
a bare refusal, 'refuse to provide it', said by the phrase table's ``refuse_fact``).

Asked for a refused fact, the caller says the line of the next sentence refusing it (the last
again once they are spent) and not the fact. A fact is released (answered as any other) once it
has been refused and the tree says to give it on insistence ('If the agent insists again,
provide your last name'): the tree's own condition, nothing else. The words are data
(``goal/lang/<lang>.json``, ``phrases.refusals``); the grammar is here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from voxbench.pipelines.caller.goal.asks import asked_facts
from voxbench.pipelines.caller.goal.facts import SYNONYMS, FactBook, stem
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.phrases import Phrasing, first_person
from voxbench.spoken import mentions, sentences_of


def _a(name: str) -> str:
    return alt("refusals", name)


_COND = re.compile(rf"^(?:\d+\.\s*)?(?:{_a('condition')})\b(?P<cond>[^,]*),\s*(?P<act>.+)$", re.I)
_ASKS = re.compile(rf"\b(?:{_a('asks')})\s+(?P<x>.+)$", re.I)
_REFUSE = re.compile(rf"\b(?:{_a('refuse')})\b", re.I)
_BARE = re.compile(rf"\b(?:{_a('bare')})\b", re.I)
"""A refusal the sentence does not word ('refuse to provide it'): the phrase table's, before its line."""

_UNTIL = re.compile(rf"\b(?:{_a('until')})\b", re.I)
"""'Do not give the task codes until the agent asks': not volunteering, no refusal."""
_PARTS = re.compile(rf"\s*(?:,|\b(?:{_a('join')})\b)\s*", re.I)
_FILLER = frozenset(phrases("refusals", "filler"))
_EXCEPT = re.compile(rf"\s*\b(?:{_a('except')})\b.*$", re.I)
_OTHERS = re.compile(r"\b(?!your\b)[A-Za-z]+['’]s\b", re.I)
"""'David's confirmation number', 'his code': a thing of someone else's, not the caller's fact."""
_HIS = re.compile(rf"\b(?:{_a('other_owner')})\b", re.I)
_GIVE = re.compile(rf"\b(?:{_a('give')})\b", re.I)
_INSIST = re.compile(rf"\b(?:{_a('insist')})\b", re.I)
_JOIN, _LEAD = _a("clause_join"), _a("clause_lead")
_NOT_GIVE = re.compile(rf"\b(?:{_a('not_give')})\s+(?P<x>[^;.]+?)(?=\s*(?:[;.]|,|\b(?:{_LEAD})\b|$))", re.I)
_SPLIT = re.compile(
    rf"\s*(?:;|,|\b(?:{_JOIN})\b)\s*(?:(?:{_JOIN}|{_LEAD})\s*,?\s*)*(?=(?:{_a('speech')})\b)", re.I
)
_SAY = re.compile(rf"^(?:(?:{_LEAD})\s*,?\s*)?(?:{_a('say')})\s+(?:(?:{_a('that')})\s+)?(?P<y>.+)$", re.I)
_ASK_TO = re.compile(rf"^(?:(?:{_LEAD})\s*,?\s*)?(?:{_a('ask_to')})\s+(?P<y>.+)$", re.I)
_ASK_THERE = re.compile(
    rf"^(?:(?:{_LEAD})\s*,?\s*)?(?:{_a('ask_whether')})\s+(?:{_a('there')})\s+(?P<be>{_a('be')})\s+(?P<y>.+)$",
    re.I,
)
_BRACKET = re.compile(r"\s*\(([^()]*)\)")
_LONG_BRACKET = re.compile(rf"\b(?:{_a('aside')})\b|,", re.I)
_ASK_FRAME, _THERE_FRAME = phrases("refusals", "ask_frame")[0], phrases("refusals", "there_frame")[0]


REFUSES_FACT = "tree_refuses_fact"
"""The rule of a reply that refuses every fact asked, as the tree says."""


@dataclass
class Refusal:
    """One tree sentence that refuses facts: the keys, and what the caller says instead."""

    keys: tuple[str, ...]
    line: str
    bare: bool = False
    """The sentence refuses in so many words ('refuse to provide it'), said by the phrase table."""
    says: tuple[str, ...] = ()
    """The caller's facts the line says by value ('look me up by first name Derek')."""


@dataclass
class Refusals:
    """A caller's refusals in tree order, the facts the tree releases, and the times each fact
    has been refused so far in the call."""

    refusals: list[Refusal] = field(default_factory=list)
    releases: frozenset[str] = frozenset()
    keys: frozenset[str] = frozenset()
    """Every fact some refusal names (fixed for the call)."""
    count: dict[str, int] = field(default_factory=dict)
    now: list[str] = field(default_factory=list)
    """The line for the facts the agent turn being answered asked and the caller refuses."""
    told: list[str] = field(default_factory=list)
    """The caller's facts that line says by value."""

    @classmethod
    def of(cls, steps: Iterable[str], book: FactBook) -> Refusals:
        refusals: list[Refusal] = []
        gives: set[str] = set()
        for sentence in (x for s in steps for x in sentences_of(s)):
            keys, line, bare = read_refusal(sentence, book)
            if keys:
                says = tuple(
                    f.key for f in book if f.matchable and any(mentions(line, v) for v in f.values())
                )
                refusals.append(Refusal(tuple(keys), line, bare, says))
            elif _GIVE.search(sentence) and _INSIST.search(sentence) and not _REFUSE.search(sentence):
                gives |= set(_named(_GIVE.split(sentence, 1)[1], book))
        refused = frozenset(k for r in refusals for k in r.keys)
        return cls(refusals, frozenset(gives) & refused, refused)

    def held(self, key: str) -> bool:
        """Whether the caller still refuses this fact (released once refused, if the tree says so)."""
        return key in self.keys and not (key in self.releases and self.count.get(key, 0) > 0)

    def hold(self, asked: list[str], phr: Phrasing) -> tuple[list[str], list[str]]:
        """Of the facts asked, those it gives, and what it says for those it refuses: one line, the
        next refusing sentence of the first of them (each refused fact counted refused once more)."""
        kept = [k for k in asked if not self.held(k)]
        refused = [k for k in asked if k not in kept]
        self.now, self.told = [], []
        if refused:
            mine = [r for r in self.refusals if refused[0] in r.keys]
            r = mine[min(self.count.get(refused[0], 0), len(mine) - 1)]
            self.now = [f"{phr.say('refuse_fact')} {r.line}".strip() if r.bare or not r.line else r.line]
            self.told = list(r.says)
        for k in refused:
            self.count[k] = self.count.get(k, 0) + 1
        return [k for k in kept if k not in self.told], self.now


def read_refusal(sentence: str, book: FactBook) -> tuple[list[str], str, bool]:
    """The caller's facts a tree sentence tells it to refuse, the line it says instead, and whether
    the sentence refuses in so many words; ([], '', False) for one that refuses none of its facts."""
    m = _COND.match(sentence.strip())
    act = m.group("act") if m else sentence
    if not _REFUSE.search(act):
        return [], "", False
    obj = _NOT_GIVE.search(act)
    if obj is not None and _UNTIL.search(act[obj.start() :]):
        return [], "", False
    keys = _named(obj.group("x"), book) if obj else []
    asks = _ASKS.search(m.group("cond")) if m and not keys else None
    keys = keys or (_named(asks.group("x"), book) if asks else [])
    return keys, (_line(act) if keys else ""), bool(keys) and bool(_BARE.search(act))


def _named(x: str, book: FactBook) -> list[str]:
    """The caller's facts a phrase names, each part of a list ('your last name or any other
    verification') by its own words, every one of them a word of the fact's key or a synonym of
    one ('your confirmation number': ``confirmation_code``; a 'supervising physician NPI' is not
    the caller's ``npi``); none when the thing is someone else's."""
    x = _EXCEPT.sub("", x)
    if _OTHERS.search(x) or _HIS.search(x):
        return []
    out: list[str] = []
    for part in (p for p in _PARTS.split(x) if p.strip()):
        said = {stem(w) for w in re.findall(r"[a-z]+", part.lower()) if w not in _FILLER}
        for k, _ in asked_facts(part, book):
            f = book.get(k)
            own = {
                stem(s) for w in (f.words if f else ()) for p in (w, *SYNONYMS.get(w, ())) for s in p.split()
            }
            if said and said <= own and k not in out:
                out.append(k)
    return out


def _line(act: str) -> str:
    """What the sentence tells the caller to say, in its own words ('' : a bare refusal)."""
    act = _BRACKET.sub(lambda m: "" if _LONG_BRACKET.search(m.group(1)) else f" {m.group(1)}", act)
    out: list[str] = []
    for part in (p.strip(" ,.") for p in _SPLIT.split(act) if p and p.strip(" ,.")):
        if (m := _ASK_THERE.match(part)) is not None:
            out.append(
                _THERE_FRAME.format(be=m.group("be").capitalize(), y=_lower(first_person(m.group("y"))))
            )
        elif (m := _ASK_TO.match(part)) is not None:
            out.append(_ASK_FRAME.format(y=_lower(first_person(m.group("y")))))
        elif (m := _SAY.match(part)) is not None:
            out.append(f"{first_person(m.group('y'))}.")
    return " ".join(out)


def _lower(text: str) -> str:
    """A clause set inside a frame: its first letter small, unless it is 'I' or an acronym."""
    head = text.split(" ", 1)[0]
    return text if head == "I" or head.isupper() else f"{text[:1].lower()}{text[1:]}"
