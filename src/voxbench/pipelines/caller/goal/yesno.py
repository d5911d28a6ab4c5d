"""A yes/no question about the caller's own situation, answered from its goal's own text.

'Is the issue resolved?', 'Has your colleague agreed to cover the shift?', 'Let me know whether it
works now.': no fact of ``information_required`` answers these, but the goal often does, in one of
two forms, read once here:

1. the tree's own answers: "If (the agent) asks whether X, say Y" (Y: 'yes, because ...', 'no',
   'you do not know', or the words to say); and
2. the goal's statements: what it tells the caller to say ("after each step, state clearly that
   the issue is still not resolved") and the sentences that describe its situation (the
   high-level goal, the tree's criteria and behaviour).

A question is matched on content words (stems, :func:`words`) against X, or against one clause of a
statement; an answer is given only when the match is clear (:data:`CLEAR`) and unique: a tree
answer whose X the question covers, else a statement clause that holds every word the question
asks about. The answer's polarity is the tree's yes/no, or, for a statement, no when its clause
is negated. A negated question ('Isn't it working?') is not answered (a yes to it is ambiguous).
The caller says the goal's own clause in the first person ('No, the issue is still not
resolved.'): every word it states is its goal's. Anything less clear keeps the caller's current
reply ('I'm not sure.'); the answerer never invents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from voxbench.pipelines.caller.goal.facts import stem
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.phrases import first_person
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of

Polarity = Literal["yes", "no", "unknown", "said"]
"""The goal's answer: yes, no, it does not know, or the words it is told to say ('say it is Wi-Fi')."""


def _a(name: str) -> str:
    return alt("yesno", name)


_GENERIC = frozenset(stem(w) for w in phrases("yesno", "generic"))
_NEGATION = re.compile(rf"(?:\b({_a('negation')})\b|n't\b)", re.I)
# "If the agent asks (you) whether X, say Y" / "If asked if X, answer Y" / "..., decline".
_ASKED = re.compile(
    rf"\b(?:{_a('if')}) (?:(?:{_a('asker')}) )?(?:{_a('asked_verb')})(?: (?:{_a('you')}))?(?: (?:{_a('about')}))?"
    rf" (?:{_a('whether_if')}) (?P<x>[^;:]+?),? (?P<verb>{_a('answer_verb')})\b(?P<y>[^.;]*)",
    re.I,
)
# A line the goal tells the caller to say ("state clearly that the issue is still not resolved").
_SAY = re.compile(
    rf"\b(?:{_a('say_verb')})(?: (?:{_a('say_fill')}))* (?:(?:{_a('that')}) )?(?P<y>[^.;]+)", re.I
)
_YES_NO_LEAD = re.compile(
    rf"^(?:(?P<yes>{_a('yes')})|{_a('no')})\b(?:\s*(?:[,:—–-]+|\b(?:{_a('because')})\b)\s*(?P<rest>.*))?",
    re.I,
)
_DONT_KNOW = re.compile(rf"^(?:(?:{_a('that')}) )?(?:{_a('dont_know')})\b", re.I)
_CUT = re.compile(rf"\s+(?:{_a('cut')})\b.*$", re.I)
_CLAUSE = re.compile(
    rf"\s*(?:,\s*(?:{_a('clause_conj')})\b|;|\b(?:{_a('clause_but')})\b|\b(?:{_a('clause_and')})\b"
    rf"(?=\s+(?:{_a('clause_person')})\b)|,\s*(?=\w+ (?:{_a('clause_be')})\b))\s*",
    re.I,
)
_HYPHEN = re.compile(r"(?<=[A-Za-z])[-\u2010\u2011](?=[A-Za-z])")

CLEAR = 2 / 3
"""The share of the tree clause's words the question must say (and of the question's words the
clause must hold) for its answer to count as the question's: two of three, and at least two words."""


def words(text: str) -> frozenset[str]:
    """The question-bearing words of ``text``: content-word stems ('Wi-Fi' -> 'wifi'), without
    negation and the words any question about a situation uses ('right now', 'currently')."""
    joined = _HYPHEN.sub("", text)
    return frozenset(w for w in content_words(joined) if w not in _GENERIC and not _NEGATION.fullmatch(w))


STATE_Q_LEAD = rf"^(?:(?:{_a('q_filler')})[, ]+)?(?:{_a('aux')})\s+(?:{_a('subject')})\b"
"""How a yes/no question about a state of affairs starts: its auxiliary, then its subject ('Is the
issue resolved', 'Has your colleague agreed'). Not 'can'/'could' (``questions.auxiliary`` has them):
'Could you give me your address?' is a request, whose value is asked, not a state to say yes to."""
_AUX_LEAD = re.compile(STATE_Q_LEAD, re.I)
_WHETHER = re.compile(rf"\b(?:{_a('whether')})\s+(?:{_a('whether_if')})\s+", re.I)
_VALUE_VERB = re.compile(rf"\b(?:{_a('value_verb')})\b", re.I)
_OR = re.compile(rf"\b(?:{_a('or')})\b", re.I)
_OR_NOT_WHETHER = re.compile(rf"\b(?:{_a('or')})\b(?!,?\s+(?:{_a('whether_if')})\b)", re.I)
_LISTED_OR = re.compile(rf",\s*(?:{_a('or')})\b")
_IF_ASKED = re.compile(rf"\b(?:{_a('if')}) (?:{_a('if_asked')})\b", re.I)
_ANSWER_FILL = re.compile(rf"^(?:(?:{_a('answer_fill')})\s+)+", re.I)
_SAID_VERBS = tuple(phrases("yesno", "said_verb"))
_DECLINE_VERBS = tuple(phrases("yesno", "decline_verb"))


def proposition(question: str) -> str:
    """What a yes/no question asks to be true: the clause after 'let me know whether', or the
    clause that starts with its auxiliary ('After it powers back up, is the issue resolved?' ->
    'is the issue resolved?'); the whole sentence otherwise."""
    m = _WHETHER.search(question)
    if m:
        return question[m.end() :]
    for seg in reversed(re.split(r",\s*", question)):
        if _AUX_LEAD.match(seg):
            return seg
    return question


def asks_whether(sentence: str) -> bool:
    """A sentence that asks whether something is so ('Is the issue resolved?', 'Let me know whether
    it stays connected.'), not for a value: what it asks has no alternatives ('or') and no verb
    that asks for one ('give', 'have', 'know', 'want', 'what' ...). Such a sentence names the
    caller's things as its subject ('the issue'), and asks none of its facts."""
    m = _WHETHER.search(sentence)
    if m:  # what comes before asks too ('Please say the code, and confirm whether ...' asks the code)
        rest = sentence[: m.start()] + " " + sentence[m.end() :]
    else:
        said = proposition(sentence)
        a = _AUX_LEAD.match(said)
        if a is None:
            return False
        rest = sentence[: len(sentence) - len(said)] + " " + said[a.end() :]
    return not _OR.search(rest) and not _VALUE_VERB.search(rest)


@dataclass(frozen=True)
class Answer:
    """A yes/no answer the goal's text gives, the line that says it and the goal's words it came
    from (the tree's "if asked whether X, say Y", or a statement's clause): the act trail records
    them (``goal_text:<source>`` in the act's rules)."""

    polarity: Polarity
    line: str
    source: str


@dataclass(frozen=True)
class _Told:
    """One "if asked whether X, say Y" of the tree."""

    about: frozenset[str]
    polarity: Polarity
    said: str
    source: str


class GoalAnswers:
    """The goal's answers to yes/no questions about the caller's situation (see the module doc)."""

    def __init__(self, told: list[_Told], clauses: list[tuple[frozenset[str], str]]) -> None:
        self.told = told
        self.clauses = clauses

    @classmethod
    def of(cls, scenario: Scenario) -> GoalAnswers:
        goal = scenario.user_goal
        tree = goal.decision_tree
        texts = [*tree.must_have_criteria, *tree.nice_to_have_criteria, *tree.negotiation_behavior,
                 *tree.edge_cases]  # fmt: skip
        told: list[_Told] = []
        clauses: list[tuple[frozenset[str], str]] = []
        for s in (x for t in texts for x in sentences_of(t)):
            found = [t for m in _ASKED.finditer(s) if (t := _told_of(m)) is not None]
            told += found
            if not found and not _IF_ASKED.search(s):
                clauses += [c for m in _SAY.finditer(s) for c in _clauses(m.group("y"))]
        for s in sentences_of(goal.high_level_user_goal):
            clauses += _clauses(s)
        return cls(told, clauses)

    def answer(self, question: str) -> Answer | None:
        """The goal's answer to a yes/no question, or None when its text holds none clearly."""
        said = proposition(question)
        if _NEGATION.search(said) or _OR.search(question):  # negated, or a choice
            return None
        q = words(said)
        if len(q) < 2:
            return None
        return self._told(q) or self._stated(q)

    def _told(self, q: frozenset[str]) -> Answer | None:
        scored = [(len(t.about & q), t) for t in self.told if t.about]
        clear = [(n, t) for n, t in scored if n >= 2 and n >= CLEAR * len(t.about) and n >= CLEAR * len(q)]
        best = max((n for n, _ in clear), default=0)
        top = [t for n, t in clear if n == best]
        if not top or len({(t.polarity, t.said) for t in top}) > 1:
            return None
        t = top[0]
        return Answer(t.polarity, _line(t.polarity, t.said), t.source)

    def _stated(self, q: frozenset[str]) -> Answer | None:
        hits = [c for ws, c in self.clauses if q <= ws]
        pols = {_stated_polarity(c) for c in hits}
        if len(pols) != 1:  # none, or clauses that disagree
            return None
        c, (pol,) = min(hits, key=len), pols
        return Answer(pol, _line(pol, c), c)


def _told_of(m: re.Match[str]) -> _Told | None:
    """The tree's answer in one "if asked whether X, say Y" (None: not a yes/no, or no words)."""
    x, verb = m.group("x"), m.group("verb").lower()
    y = _ANSWER_FILL.sub("", _CUT.sub("", m.group("y")).strip(" ,"))
    if _OR_NOT_WHETHER.search(x) and not _LISTED_OR.search(x):
        return None  # 'X or Y': a choice, not a yes/no ('X, Y, or Z' is one; 'X or whether Y' is two)
    about = words(x)
    if verb.startswith(_DECLINE_VERBS):
        return _Told(about, "no", "", m.group(0))
    lead = _YES_NO_LEAD.match(y)
    if lead:
        rest = lead.group("rest") or ""
        return _Told(about, "yes" if lead.group("yes") else "no", rest.strip(" ,"), m.group(0))
    if _DONT_KNOW.match(y):
        return _Told(about, "unknown", "", m.group(0))
    return _Told(about, "said", y, m.group(0)) if verb.startswith(_SAID_VERBS) and words(y) else None


def _stated_polarity(clause: str) -> Polarity:
    """A statement clause says no when it is negated, yes otherwise."""
    return "no" if _NEGATION.search(clause) else "yes"


def _clauses(text: str) -> list[tuple[frozenset[str], str]]:
    """A statement's clauses ('Your Wi-Fi shows connected, but nothing internal loads' -> two)."""
    parts = [p.strip(" ,.") for p in _CLAUSE.split(_CUT.sub("", text)) if p and p.strip(" ,.")]
    return [(words(p), p) for p in parts if len(words(p)) >= 2]


def _line(polarity: Polarity, said: str) -> str:
    """What the caller says: yes or no, and the goal's own clause in the first person."""
    said = first_person(said).rstrip(" .") if said else ""
    if polarity == "said":
        return f"{said}."
    lead = {"yes": "Yes", "no": "No", "unknown": "I don't know"}[polarity]
    if not said:
        return f"{lead}."
    keep = said.startswith(("I ", "I'")) or said[1:2].isupper()  # 'I', 'CRM'
    return f"{lead}, {said if keep else said[:1].lower() + said[1:]}."
