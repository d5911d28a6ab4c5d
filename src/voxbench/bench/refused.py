"""Facts a scenario's decision tree tells the caller to refuse: the bench's own reading.

Some trees test the agent's verification policy: "If the agent asks for your last name or any
other verification, refuse to provide it ..."; "..., do not provide the last name or confirmation
number; instead ask ..."; "If the agent asks for your confirmation number, say you don't have it
handy ...". A caller that gives such a fact when asked makes the agent's job easier than the
tree means it to be, and no request figure sees it (the reference caller, which sometimes gives
in, is graded the same way). :func:`refused_facts` reads, per sentence of the tree's steps and
edge cases, the object of a negated giving verb, else what the sentence's condition says the
agent asks for, when the sentence refuses ('refuse', 'do not provide', 'say you don't have it';
not 'do not give X until the agent asks', which is about volunteering): a goal fact is refused
when a part of those words ('your last name', of 'your last name or any other verification')
says every word of its key and no other (``phrases.refused.key_filler`` left out; 'code',
'number' and 'id' one head: 'a supervising physician NPI' is no ``npi`` of the caller's), cut at an exception ('beyond your first name') and not someone
else's ('his confirmation number'). The caller check counts each disclosure of a refused fact,
by the caller and by the reference (``refused_disclosed``, ``refused_disclosed_ref``). A tree
that gives a refused fact up on insistence would count its later disclosure too: none of the
visible trees does. Words are data (``bench/lang/<lang>.json``, ``phrases.refused``).
"""

from __future__ import annotations

import re

from voxbench.bench.lang import alt, words
from voxbench.bench.matcher import GoalFact, same_word, words_of
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of

REFUSED_DISCLOSED = "refused_fact_disclosed"
"""The kind of reference break of a reference reply that discloses a refused fact (its in-goal tally
leaves the turn out, as it does the gate validators' findings: :mod:`.ref_goal`)."""


def _a(name: str) -> str:
    return alt("refused", name)


_COND = re.compile(rf"^(?:\d+\.\s*)?(?:{_a('condition')})\b(?P<cond>[^,]*),\s*(?P<act>.+)$", re.I)
_ASKS = re.compile(rf"\b(?:{_a('asks')})\s+(?P<x>.+)$", re.I)
_REFUSE = re.compile(rf"\b(?:{_a('refuse')})\b", re.I)
_NOT_GIVE = re.compile(rf"\b(?:{_a('not_give')})\s+(?P<x>[^;.,]+)", re.I)
_UNTIL = re.compile(rf"\b(?:{_a('until')})\b", re.I)
_EXCEPT = re.compile(rf"\s*\b(?:{_a('except')})\b.*$", re.I)
_OTHERS = re.compile(rf"\b(?!your\b)[a-z]+['’]s\b|\b(?:{_a('other_owner')})\b", re.I)
_FILLER = frozenset(words().phrases["refused"]["key_filler"])
_PARTS = re.compile(r"\s*(?:[,;]|\bor\b|\band\b|\bplus\b)\s*", re.I)
_HEADS = frozenset(words().phrases["refused"]["same_head"])


def _key_words(key: str) -> list[str]:
    last = key.rsplit(".", 1)[-1]
    return [w for w in re.split(r"[^a-z0-9]+", last.lower()) if w and w not in _FILLER and not w.isdigit()]


def _same(w: str, k: str) -> bool:
    return same_word(w, k) or (k in _HEADS and w in _HEADS)


def _names(x: str, key: str) -> bool:
    """A part of the words ('your last name', of 'your last name or any other verification') that
    says every word of the key and no other word ('a supervising physician NPI' is not the
    caller's ``npi``)."""
    kws = _key_words(key)
    for part in _PARTS.split(x):
        said = [w for w in words_of(part) if w not in _FILLER]
        if (
            kws
            and all(any(_same(w, k) for w in said) for k in kws)
            and all(any(_same(w, k) for k in kws) for w in said)
        ):
            return True
    return False


def _refused_in(sentence: str) -> str:
    """The words naming what a sentence refuses ('' when it refuses nothing)."""
    m = _COND.match(sentence.strip())
    act = m.group("act") if m else sentence
    if not _REFUSE.search(act):
        return ""
    obj = _NOT_GIVE.search(act)
    if obj is not None and _UNTIL.search(act[obj.start() :]):
        return ""
    asks = _ASKS.search(m.group("cond")) if m else None
    x = " ; ".join(p for p in (obj.group("x") if obj else "", asks.group("x") if asks else "") if p)
    return "" if _OTHERS.search(x) else _EXCEPT.sub("", x)


def refused_facts(scenario: Scenario, facts: list[GoalFact]) -> set[str]:
    """The keys of the goal facts the tree tells the caller to refuse (module docstring)."""
    tree = scenario.user_goal.decision_tree
    said = [x for s in (*tree.negotiation_behavior, *tree.edge_cases) for t in sentences_of(s)
            if (x := _refused_in(t))]  # fmt: skip
    return {f.key for f in facts if any(_names(x, f.key) for x in said)}
