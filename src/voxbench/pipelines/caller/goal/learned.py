"""Which of its facts an agent's request asks for, learnt from reference conversations.

The rules of :mod:`.asks` find a fact by the words of its key ('employee ID' for
``employee_id``) and a small synonym table. What they miss is an agent's way of saying a field
the key does not ('the six-character code' for ``confirmation_number``). This model learns that
from pairs a bench gives it: an agent turn of a reference conversation, the caller's facts, and
the facts the reference caller disclosed in reply.

It is a logistic regression over (agent word x key word) pairs, scored per fact, plus a few
features that hold in any domain (the agent already said the value; the caller gave it earlier;
the key word alone). Features are hashed (crc32, stable across processes) into a fixed vector,
so the model is small data: a weight vector and a threshold. Pure numpy; fitting 170 scenarios
takes about a second.

Used by :func:`.classify.classify` through its ``hook`` (``pick_facts``): in ``fallback`` mode
only when the rules name no fact in a turn that asks for something, in ``union`` mode also to add
facts to those the rules name.
"""

from __future__ import annotations

import json
import random
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from voxbench.pipelines.caller.goal.facts import Fact, FactBook, stem
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.spoken import mentions

DIM = 1 << 18
_STOP = frozenset(phrases("learned", "stop"))
_OFFERS = re.compile(rf"\b({alt('learned', 'options_cue')})\b", re.I)


@dataclass
class Example:
    """One training pair: an agent turn, the caller's facts, those given before, those disclosed,
    and (for a stacked model) the facts the rules read as asked, with the rule that read each."""

    agent: str
    book: FactBook
    given: set[str]
    disclosed: set[str]
    ruled: dict[str, str] | None = None


def agent_words(text: str) -> list[str]:
    """The agent's content words, stemmed: what a request's meaning is read from."""
    return list(dict.fromkeys(stem(w) for w in re.findall(r"[a-z]+", text.lower()) if w not in _STOP))


def _h(s: str) -> int:
    return zlib.crc32(s.encode()) % DIM


_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CLOCK = re.compile(r"^\d{1,2}:\d{2}\b")


def value_kind(fact: Fact) -> str:
    """What kind of value a fact holds (date, time, money, code, number, name, list, text): what
    an agent asks for in any domain ('Which time would you like?' names no key word)."""
    vals = [str(v) for v in fact.values()]
    v = vals[0].strip() if vals else ""
    if len(vals) > 1:
        return "list"
    if _ISO.match(v):
        return "date"
    if _CLOCK.match(v):
        return "time"
    if v.startswith("$"):
        return "money"
    if v.replace(".", "", 1).isdigit():
        return "number"
    if any(c.isdigit() for c in v) or (v.isupper() and len(v) > 1):
        return "code"
    return "name" if 0 < len(v.split()) <= 2 and v[:1].isupper() else "text"


def features(
    words: list[str], text: str, fact: Fact, given: set[str], ruled: dict[str, str] | None = None
) -> list[int]:
    """Hashed feature indices of one (agent turn, fact) pair: the key's words against the agent's
    (what a domain calls a field), and the value's kind and the key's head against them (what
    holds in any domain)."""
    kws = [stem(w) for w in fact.words] or [fact.key.lower()]
    kind = value_kind(fact)
    heads = [stem(h) for h in fact.heads] or ["-"]
    feats = ["bias", f"v:{kind}"] + [f"k:{k}" for k in kws] + [f"x:{w}|{k}" for w in words for k in kws]
    feats += [f"xv:{w}|{kind}" for w in words] + [f"xh:{w}|{h}" for w in words for h in heads]
    n_same = sum(w in kws for w in words)
    feats += [f"same:{w}" for w in words if w in kws] + [f"same_n:{min(n_same, 3)}"]
    said = fact.matchable and any(mentions(text, v) for v in fact.values())
    offers = bool(_OFFERS.search(text))
    if said:
        feats.append("said_by_agent_in_options" if offers else "said_by_agent")
    if fact.key in given:
        feats.append("given_before")
    if ruled is not None:  # stacked on the rules: which rule read this fact as asked, if any
        rule = ruled.get(fact.key)
        feats += (
            [f"rule:{rule.split(':')[0]}", "rule_any"] if rule else ["rule_none" if ruled else "rule_empty"]
        )
    return [_h(f) for f in feats]


class FactModel:
    """The fitted model (see the module docstring)."""

    name = "learned"

    def __init__(
        self, weights: np.ndarray | None = None, threshold: float = 0.5, top: int = 2, mode: str = "fallback"
    ) -> None:
        self.w = weights if weights is not None else np.zeros(DIM, dtype=np.float32)
        self.threshold = threshold
        self.top = top
        self.mode = mode
        """'fallback': asked only where the rules name no fact; 'union': also adds to the rules' facts."""

    def fit(
        self, examples: Iterable[Example], epochs: int = 6, lr: float = 0.2, l2: float = 1e-5, seed: int = 0
    ) -> FactModel:
        rows: list[tuple[list[int], float]] = []
        for ex in examples:
            words = agent_words(ex.agent)
            rows += [
                (features(words, ex.agent, f, ex.given, ex.ruled), float(f.key in ex.disclosed))
                for f in ex.book
            ]
        rng = random.Random(seed)
        w = np.zeros(DIM, dtype=np.float64)
        for e in range(epochs):
            rng.shuffle(rows)
            step = lr / (1 + e)
            for idx, y in rows:
                z = float(w[idx].sum())
                p = 1.0 / (1.0 + np.exp(-max(-30.0, min(30.0, z))))
                w[idx] -= step * ((p - y) + l2 * w[idx])
        self.w = w.astype(np.float32)
        return self

    def probs(
        self, text: str, book: FactBook, given: set[str], ruled: dict[str, str] | None = None
    ) -> dict[str, float]:
        words = agent_words(text)
        out = {}
        for f in book:
            z = float(self.w[features(words, text, f, given, ruled)].sum())
            out[f.key] = 1.0 / (1.0 + np.exp(-max(-30.0, min(30.0, z))))
        return out

    def pick_facts(self, text: str, book: FactBook, given: set[str]) -> list[str]:
        """The facts (at most ``top``) whose probability of being asked passes the threshold."""
        ps = self.probs(text, book, given)
        ranked = sorted((p, k) for k, p in ps.items() if p >= self.threshold)
        return [k for _, k in reversed(ranked[-self.top :])]

    def choose(self, question: str, choices: list[str]) -> int | None:
        """The :class:`.classify.ChoiceClassifier` side of the hook: this model picks facts only."""
        return None

    def save(self, path: Path) -> None:
        nz = np.nonzero(self.w)[0]
        data = {"dim": DIM, "threshold": self.threshold, "top": self.top,
                "index": nz.tolist(), "weight": [round(float(x), 5) for x in self.w[nz]]}  # fmt: skip
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(data))
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> FactModel:
        data = json.loads(path.read_text())
        if data.get("dim") != DIM:
            raise ValueError(f"{path}: field 'dim' is {data.get('dim')}, this code hashes into {DIM}")
        w = np.zeros(DIM, dtype=np.float32)
        w[np.asarray(data["index"], dtype=np.int64)] = np.asarray(data["weight"], dtype=np.float32)
        return cls(w, float(data["threshold"]), int(data["top"]))
