"""What kind of reply does an agent turn call for? The goal caller's rules against a fitted classifier.

The label of an agent turn of a reference conversation is the act of the reference caller's reply,
read by the bench (:func:`reply_act`): ``bye``, ``facts`` (discloses goal facts), ``option``,
``yes``, ``no``, ``ask`` (a question back), ``ack`` (a few words, or nothing: a wait) or ``state``
(its needs in its own words). Two readers predict it from the agent turn:

* the rules: the act of the goal caller's own reply to that turn (the whole caller, rules and
  state, as ``caller check`` runs it), read by the same :func:`reply_act`;
* :class:`ActModel`: multinomial naive Bayes over the turn's words and word pairs (and those of
  its last sentence, marked), fitted on the training scenarios only.

``benchmarks/caller_acts.py`` prints both, per act, by k-fold and leave-one-domain-out.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from itertools import pairwise

from voxbench.bench.matcher import GoalFact, facts_said
from voxbench.bench.reference import BYE, chosen_option, offered_options, reply_polarity
from voxbench.spoken import sentences_of

ACTS = ("bye", "facts", "option", "yes", "no", "ask", "ack", "state")


def reply_act(reply: str, agent: str, facts: list[GoalFact]) -> str:
    """The act of a caller's reply to an agent turn (first that holds, in the order of ``ACTS``)."""
    if BYE.search(reply):
        return "bye"
    if facts_said(reply, facts, agent):
        return "facts"
    if (opts := offered_options(agent)) and chosen_option(reply, opts) is not None:
        return "option"
    if pol := reply_polarity(reply):
        return pol
    if "?" in reply:
        return "ask"
    return "ack" if len(reply.split()) <= 4 else "state"


def turn_features(agent: str) -> list[str]:
    """Words and word pairs of the turn; those of its last sentence again, marked; its punctuation."""

    def grams(text: str, tag: str) -> list[str]:
        ws = [("<n>" if w.isdigit() else w) for w in re.findall(r"[a-z']+|\d+", text.lower())]
        return [f"{tag}{w}" for w in ws] + [f"{tag}{a}_{b}" for a, b in pairwise(ws)]

    sents = sentences_of(agent) or [""]
    last = sents[-1]
    return grams(agent, "") + grams(last, "L:") + [f"end:{last[-1:] or '-'}", f"n_sents:{min(len(sents), 4)}"]


class ActModel:
    """Multinomial naive Bayes with add-``alpha`` smoothing."""

    def __init__(self, alpha: float = 0.5) -> None:
        self.alpha = alpha
        self.prior: dict[str, float] = {}
        self.logp: dict[str, dict[str, float]] = {}
        self.unseen: dict[str, float] = {}

    def fit(self, pairs: list[tuple[str, str]]) -> ActModel:
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        labels = Counter(y for _, y in pairs)
        for text, y in pairs:
            counts[y].update(turn_features(text))
        vocab = {f for c in counts.values() for f in c}
        n = sum(labels.values())
        self.prior = {y: math.log(c / n) for y, c in labels.items()}
        for y, c in counts.items():
            total = sum(c.values()) + self.alpha * len(vocab)
            self.logp[y] = {f: math.log((k + self.alpha) / total) for f, k in c.items()}
            self.unseen[y] = math.log(self.alpha / total)
        return self

    def predict(self, text: str) -> str:
        feats = turn_features(text)
        return max(
            self.prior,
            key=lambda y: self.prior[y] + sum(self.logp[y].get(f, self.unseen[y]) for f in feats),
        )
