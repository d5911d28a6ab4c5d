"""Facts a step of the decision tree gives together when one of them is asked for.

EVA's caller is told not to volunteer ("only provide it when asked"), yet many trees bundle
facts in one conditional step: "If asked for the license details, provide your state license
number, say that you want a provisional extension, and specify 30 days."; "if the agent asks
for leave details, provide the leave category as ... and the leave dates as ...". Asked for one
of them, the reference caller gives the others with it: that is following the tree, not
volunteering. :func:`read_bundles` reads such steps into :class:`Bundle` s of the caller's fact
keys (by their values said in the step, else by their key words, :func:`.asks.asked_facts`);
a step that says to give them one at a time or only when asked is no bundle.
:meth:`Bundles.extra` adds a bundle's other facts to an answer, at most :data:`MOST` details in
a turn ("Never respond with more than 2-3 details at a time", EVA's simulator prompt).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from voxbench.pipelines.caller.goal.asks import asked_facts
from voxbench.pipelines.caller.goal.facts import Fact, FactBook, stem
from voxbench.pipelines.caller.goal.lang import alt
from voxbench.spoken import mentions, sentences_of

MOST = 3
"""The most facts one answer says with its bundle's others added."""

# The words are data (``goal/lang/<lang>.json``, ``phrases.bundles``); the grammar is here.
_ASKED = re.compile(rf"^(?:\d+\.\s*)?(?:[^,]*?\b)?(?:{alt('bundles', 'asked_lead')})\s+\w[^,]*,\s*", re.I)
"""The condition leading a step: 'If asked for the license details, ', '3. When the agent asks about X, '."""
_GIVE = re.compile(rf"\b(?:{alt('bundles', 'give_verbs')})\b", re.I)
_ONE_BY_ONE = re.compile(rf"\b(?:{alt('bundles', 'one_by_one')})\b", re.I)
_CUT = re.compile(rf"\b(?:{alt('bundles', 'cut')})\b", re.I)
_NAMES = re.compile(rf"(?:{alt('bundles', 'name_verbs')})$", re.I)
_CLAUSE_ASKED = re.compile(rf"\b(?:{alt('bundles', 'clause_asked')})\b", re.I)
_AND, _THEN = alt("bundles", "and"), alt("bundles", "then")
_CLAUSE = re.compile(
    rf",\s*(?:(?:{_AND}|{_THEN})\s+)*|;\s*|\s+(?:{_AND})\s+(?:(?:{_THEN})\s+)?|\s+(?:{_THEN})\s+", re.I
)


@dataclass(frozen=True)
class Bundle:
    """Fact keys one step gives together, in the step's order; those whose values the step states
    (``stated``: what the tree scripts the caller to say with them); the step's words."""

    keys: tuple[str, ...]
    stated: tuple[str, ...]
    step: str


def _action(sentence: str) -> str:
    """What a conditional sentence tells the caller to give: the part after its condition, up to a
    negation ('..., and specify 30 days. Do not mention ...' / '..., but do not ...'); '' when the
    sentence has no condition naming what is asked ('If asked for the license details, ', not a
    bare 'When asked, '), gives nothing, or says to give one at a time or in order."""
    m = _ASKED.match(sentence)
    if m is None or _ONE_BY_ONE.search(sentence):
        return ""
    act = sentence[m.end() :]
    cut = _CUT.search(act)
    act = act[: cut.start()] if cut else act
    return act if _GIVE.search(act) else ""


def _facts_in(action: str, book: FactBook, sentence: str = "") -> tuple[list[str], list[str]]:
    """The caller's facts an action names, in its order, and those of them named by their value.
    A fact is named by a value said ('the leave dates as 2026-08-17 through 2026-10-12'), else,
    under a verb of giving a named thing ('provide your NPI, facility code, and 4-digit PIN'), by
    its key's words; not in a clause given only if asked ('confirm the phone last four digits if
    asked'). 'Say you need to transfer your DEA registration' names a request, not the DEA
    number: a 'say' clause is read by values only."""
    found: list[str] = []
    stated: list[str] = []
    by_name = False
    for clause in (c for c in _CLAUSE.split(action) if c.strip()):
        verb = _GIVE.search(clause)
        by_name = bool(_NAMES.match(verb.group(0))) if verb else by_name
        if _CLAUSE_ASKED.search(clause):
            continue
        by_value = _by_value(clause, book, sentence or action)
        stated += by_value
        found += by_value or ([k for k, _ in asked_facts(clause, book)] if by_name else [])
    keys = _one_per_value(list(dict.fromkeys(found)), book)
    return keys, [k for k in keys if k in stated]


def _by_value(clause: str, book: FactBook, sentence: str) -> list[str]:
    """Facts whose value a clause says; of several with one value, those whose key words the
    sentence says most ('If asked for delivery location, say Headquarters': the delivery building,
    not the building of the room booking)."""
    hits = [f for f in book if f.matchable and any(mentions(clause, v) for v in f.values())]
    said = {stem(w) for w in re.findall(r"[a-z]+", sentence.lower())}
    out: list[str] = []
    for f in hits:
        twins = [o for o in hits if o is f or _same_value(o, f)]
        score = {o.key: len({stem(w) for w in o.words} & said) for o in twins}
        if score[f.key] == max(score.values()):
            out.append(f.key)
    return out


def _same_value(a: Fact, b: Fact) -> bool:
    """Two facts that hold one value, however written ('<LOC:Headquarters>', 'Headquarters')."""
    return any(mentions(v, w) or mentions(w, v) for v in a.values() for w in b.values())


def _one_per_value(keys: list[str], book: FactBook) -> list[str]:
    """One fact for each value (the first named): two keys holding one value are said once."""
    out: list[Fact] = []
    for f in (book.get(k) for k in keys):
        if f is not None and not any(_same_value(f, o) for o in out):
            out.append(f)
    return [f.key for f in out]


def read_bundles(steps: Iterable[str], book: FactBook) -> list[Bundle]:
    """The bundles of a tree's negotiation steps (see the module docstring): each conditional
    sentence whose action names two facts or more, and no more than an answer says
    (:data:`MOST`: a longer list is for the agent to ask item by item), one of them by its value."""
    out: list[Bundle] = []
    for step in steps:
        for sentence in sentences_of(step):
            action = _action(sentence)
            keys, stated = _facts_in(action, book, sentence) if action else ([], [])
            if 2 <= len(keys) <= MOST and stated:
                out.append(Bundle(tuple(keys), tuple(stated), sentence))
    return out


@dataclass
class Bundles:
    """A caller's bundles, and what an answer adds from them."""

    bundles: list[Bundle] = field(default_factory=list)

    @classmethod
    def of(cls, steps: Iterable[str], book: FactBook) -> Bundles:
        return cls(read_bundles(steps, book))

    def extra(self, keys: list[str], given: set[str]) -> list[str]:
        """The facts to say with ``keys`` (those asked): the others of a bundle one of them is in
        whose values the step states, not said before, so that the answer says at most :data:`MOST`."""
        room = MOST - len(keys)
        out: list[str] = []
        for b in self.bundles:
            if room <= len(out) or not set(keys) & set(b.keys):
                continue
            out += [k for k in b.stated if k not in keys and k not in given and k not in out]
        return out[: max(room, 0)]
