"""Facts the goal's own steps say to give together.

A decision tree's step often names, in one sentence, several facts to give at one point: "If asked
for the license details, provide your state license number, say that you want a provisional
extension, and specify 30 days." A person following it, asked for one of them (the license
number), gives the others with it, as EVA's reference caller does. A sentence that says to give
facts one by one ("only when each is requested", "do not volunteer", "one at a time", "wait for
the agent to ask") bundles nothing; nor does one that names a single fact.

A sentence names a fact by its value ("30 days", "provisional") or by every word of its key
("your state license number"). Of a bundle, only the facts not said yet are added, and only those
of the request the asked facts serve (:mod:`.belong`): a step is about one request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from voxbench.pipelines.caller.goal.facts import Fact, FactBook, stem
from voxbench.pipelines.caller.goal.lang import alt
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.scenarios.models import DecisionTree
from voxbench.spoken import mentions, tokens

_GIVE = re.compile(rf"\b({alt('steps', 'give')})\b", re.I)
_HOLD = re.compile(rf"\b({alt('steps', 'hold')})\b", re.I)
_SENTENCE = re.compile(r"(?<=[.;!?])\s+")


def _by_value(sentence: str, f: Fact) -> bool:
    return f.matchable and any(len(v) > 1 and mentions(sentence, v) for v in f.values())


def _by_key(sentence: str, f: Fact) -> bool:
    """Every word of its key said, one of them more than a kind ('date' alone names no
    'preferred_date': its value must be said)."""
    if not f.distinctive:
        return False
    words = content_words(sentence) | set(tokens(sentence))
    return all(w in words or stem(w) in words for w in f.words)


def named(sentence: str, book: FactBook) -> list[str]:
    """The facts a tree sentence names, in the book's order: by every word of the key, unless
    another fact it names has those words and more ('the departing employee ID' is not
    ``employee_id``), or by a value no fact it names by key holds ('leave end date 2026-09-21'
    is not the preferred date of the same day)."""
    listed = [f for f in book if f.source == "information_required"]
    by_key = [f for f in listed if _by_key(sentence, f)]
    by_value = [f for f in listed if _by_value(sentence, f)]
    keyed = [f for f in by_key if not any(set(f.words) < set(g.words) for g in by_key + by_value)]
    shared = {v for f in keyed for v in f.values()}  # a value two facts hold: the one its key names
    return [f.key for f in listed if f in keyed or (f in by_value and not set(f.values()) <= shared)]


@dataclass(frozen=True)
class Bundle:
    """One tree sentence: the words of its condition ('If asked for the license details') and
    the facts it says to give."""

    when: frozenset[str]
    keys: tuple[str, ...]


@dataclass(frozen=True)
class StepBundles:
    """The tree's sentences that say to give several facts together (:class:`Bundle`)."""

    bundles: tuple[Bundle, ...] = ()

    @classmethod
    def of(cls, tree: DecisionTree, book: FactBook) -> StepBundles:
        out: list[Bundle] = []
        for line in [*tree.negotiation_behavior, *tree.edge_cases]:
            for s in _SENTENCE.split(line):
                give = _GIVE.search(s)
                if give is None or _HOLD.search(s):
                    continue
                keys = tuple(named(s[give.start() :], book))  # what it says to give, not the condition
                b = Bundle(frozenset(content_words(s[: give.start()])), keys)
                if len(keys) >= 2 and b not in out:
                    out.append(b)
        return cls(tuple(out))

    def with_asked(self, book: FactBook, asked: list[str], said: set[str], owners: dict[str, int]) -> list[str]:
        """The facts to give with ``asked``: the rest of each bundle that holds one of them and
        whose condition names it ('If asked for the *license* details' and the license number
        asked; 'When prompted' names nothing), not ``said`` yet, and not of a request other than
        the one the asked facts serve."""
        serve = {owners[k] for k in asked if k in owners}
        out: list[str] = []
        for b in self.bundles:
            hit = [f for k in asked if k in b.keys and (f := book.get(k)) is not None]
            if not any(stem(w) in b.when for f in hit for w in f.distinctive):
                continue
            out += [k for k in b.keys if k not in asked and k not in said and k not in out
                    and (k not in owners or not serve or owners[k] in serve)]  # fmt: skip
        return out
