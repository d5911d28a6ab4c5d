"""What a caller calls to find out, and which parts of it the agent has told so far.

Some goals are questions, not actions: "Learn whether today's flight is on time." and "Learn the
departure time and gate." (a must-have of the built-in bb.3). Such a goal is done when the agent has
told each part; until then a caller that heard some of it acknowledges and asks for the rest ("Thanks.
I still need to know the gate."), rather than restating its whole question (live bb.3, 2026-12-04:
told the status and a time, asked "Could you please let me know what you need?", the caller said its
whole request seven times).

The parts are read from the must-have criteria that start with "Learn", "Find out", "Know" or "Be
told" (the scenario's own words, so the caller asks for nothing its goal does not name), split at
"and" and commas: "the departure time and gate" is "the departure time" and "the gate". A part is
told by an agent sentence that is no question and

* for "whether X is P": says P ("on time"), or for "on time" a delay or cancellation, and not
  as a question restated ("Let me check whether your flight is on time.");
* for a part whose head noun is "time": says a clock time ("7.30pm", "at eleven", not "in 20 minutes");
* for any other part: says its head noun with a value right after it ("gate B7", "the gate is 12",
  "gate B seven"); "the gate" alone tells nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from voxbench.pipelines.caller.goal.lang import alt, alts, phrases
from voxbench.pipelines.caller.goal.options import ANY_AUX
from voxbench.spoken import sentences_of, tokens


def _a(name: str) -> str:
    return alt("learn", name)


LEARN_GOAL = re.compile(rf"^(?:{_a('learn_verb')})\s+(?P<what>.+?)\.?$", re.I)
_WHETHER = re.compile(rf"^(?:{_a('whether')})\b.*?\b(?:{_a('be')})\s+(?P<pred>.+)$", re.I)
_DET = re.compile(rf"^({_a('determiner')})\s+", re.I)
# what a status question's answer may say instead of its predicate
_OPPOSITES = {phrases("learn", "on_time")[0]: re.compile(rf"\b({_a('not_on_time')})", re.I)}
_CLOCK = re.compile(r"\b\d{1,2}(?:[:.]\d{2})?\s*[ap]\.?\s?m\b|\b\d{1,2}:\d{2}\b", re.I)
_DURATION = re.compile(rf"({_a('duration')})$")
_TAGGED_Q = re.compile(rf",\s*(?:{ANY_AUX})\s+(?:{alts('questions', 'subject', 'person')})\b[^,]*\?$", re.I)
_SKIP = set(phrases("learn", "skip"))
_ASKS_WHETHER = re.compile(rf"\b({_a('whether')})\b", re.I)
_PIECES = re.compile(rf",\s*(?:(?:{_a('and')})\s+)?|\s+(?:{_a('and')})\s+")
_TIME_HEADS = frozenset(phrases("learn", "time_head"))
_AT = frozenset(phrases("learn", "at"))


@dataclass
class Part:
    """One thing to find out, in the goal's words ('the gate', 'whether today's flight is on time')."""

    text: str
    told: bool = False

    @property
    def head(self) -> str:
        words = re.findall(r"[a-z]+", self.text.lower())
        return words[-1] if words else ""

    def told_by(self, sentence: str) -> bool:
        m = _WHETHER.match(self.text)
        if m is not None:
            pred = m.group("pred").strip().rstrip(".").lower()
            opposite = _OPPOSITES.get(pred)
            if _ASKS_WHETHER.search(sentence):  # 'Let me check if it is on time.'
                return False
            return pred in sentence.lower() or bool(opposite and opposite.search(sentence))
        toks = tokens(sentence)
        if self.head in _TIME_HEADS:
            return bool(_CLOCK.search(sentence)) or any(
                t in _AT and toks[i + 1 : i + 2] and toks[i + 1].isdigit() and int(toks[i + 1]) <= 24
                and not _DURATION.match(" ".join(toks[i + 2 : i + 3]))
                for i, t in enumerate(toks)
            )  # fmt: skip
        for i, t in enumerate(toks):
            after = [x for x in toks[i + 1 : i + 5] if x not in _SKIP]
            if t == self.head and after and _value(after):
                return True
        return False


def parts_to_learn(must_have: list[str]) -> list[Part]:
    """The parts of the must-haves that ask to find something out (see the module docstring)."""
    out: list[Part] = []
    for c in must_have:
        m = LEARN_GOAL.match(c.strip())
        if m is None:
            continue
        what = m.group("what").strip()
        if _WHETHER.match(what):
            out.append(Part(what))
            continue
        pieces = [p.strip() for p in _PIECES.split(what) if p.strip()]
        det = _DET.match(pieces[0]) if pieces else None
        for p in pieces:
            out.append(Part(p if _DET.match(p) or det is None else f"{det.group(1).lower()} {p}"))
    return out


def _statement(sentence: str) -> str:
    """A sentence's statement part: a question has none, unless it is a statement with a question
    tagged on after a comma ('The departure time is 7.30pm and the gate is 12, would you like to
    know more about it?', as STT heard the local agent)."""
    if not sentence.endswith("?"):
        return sentence
    m = _TAGGED_Q.search(sentence)
    return sentence[: m.start()] if m else ""


def _value(words: list[str]) -> bool:
    """The words start with a value: a number or code ('12', 'b7'), or a letter spelled before its
    number ('B seven')."""
    first = words[0]
    if any(c.isdigit() for c in first):
        return True
    return len(first) == 1 and first.isalpha() and len(words) > 1 and words[1].isdigit()


class Learnings:
    """The parts of the caller's question the agent has told (:func:`parts_to_learn`)."""

    def __init__(self, must_have: list[str]) -> None:
        self.parts = parts_to_learn(must_have)
        self.new = False  # the last noted turn told a part not told before

    def note(self, text: str) -> None:
        """Mark the parts this agent turn tells, in its statements (:func:`_statement`)."""
        said = [_statement(s) for s in sentences_of(text)]
        before = sum(p.told for p in self.parts)
        for p in self.parts:
            p.told = p.told or any(p.told_by(s) for s in said)
        self.new = sum(p.told for p in self.parts) > before

    @property
    def complete(self) -> bool:
        return bool(self.parts) and all(p.told for p in self.parts)

    @property
    def partial(self) -> bool:
        """Some parts told, some not: the caller asks only for the rest."""
        return any(p.told for p in self.parts) and not self.complete

    def missing(self) -> list[str]:
        return [p.text for p in self.parts if not p.told]
