"""The tree's own follow-up questions for a refusal, read once, as the caller says them.

EVA's trees often name the question to ask when a request is refused ("If the agent says the
shift cannot be swapped because it is within 24 hours, ask exactly one follow-up question: ask
whether there is any exception or workaround for this shift."). The reference caller asks that
question; a caller that asks a generic one ("Is there anything else you can do?") asks something
the tree did not. :func:`tree_asks` pulls out each such step: its condition (the words before the
caller's 'ask') and the indirect question turned direct ('Is there any exception or workaround
for this shift?'; 'whether a current clearance is required ...' -> 'Is a current clearance
required ...?'; 'ask them to re-check whether X' -> 'Could you re-check whether X?'). Where the
clause cannot be inverted safely it is asked as 'Could you tell me whether X?'. The words are data
(``phrases.tree_asks`` in ``goal/lang/<lang>.json``); the grammar is here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from voxbench.pipelines.caller.goal.lang import alt, phrases, words
from voxbench.pipelines.caller.goal.phrases import PHRASES, first_person
from voxbench.spoken import say_value, sentences_of


@dataclass(frozen=True)
class TreeAsk:
    """A question the tree tells the caller to ask, and the condition written before it."""

    condition: str
    question: str


def _a(name: str) -> str:
    return alt("tree_asks", name)


# '<if ...>, ask [them to <verb>] [exactly one follow-up question:] [ask] whether|if <clause>'
_ASK = re.compile(
    rf"^(?P<cond>(?:\d+[a-z]?\.\s*)?(?:{_a('condition_lead')})\b.+?),?\s+(?:{_a('ask_verb')})\b"
    rf"(?:\s+(?:{_a('agent_object')})\s+(?:{_a('to')})\s+(?P<verb>[a-z-]+))?"
    rf"[^:;\"“]{{0,80}}?(?::\s*(?:(?:{_a('ask_verb')})\s+)?)?\s*\b(?:{_a('whether')})\s+(?P<clause>[^;\"“]+)",
    re.I,
)
_CLAUSE_END = re.compile(rf"(?:,\s*(?:{_a('clause_end')})\b|[.?!]\s*$)", re.I)
_AUX = re.compile(rf"\b({_a('auxiliary')})\b", re.I)
_JOINED = re.compile(rf"\b(?:{_a('joined')})\s+(?:{_a('question_word')})\b", re.I)
_BARE_PRONOUNS = frozenset(w.lower() for w in phrases("tree_asks", "bare_pronoun"))
_MAX_SUBJECT = 6
"""Words before the auxiliary of a clause that is inverted ('a current clearance is ...');
further in, the auxiliary is not the clause's own ('... once my leave status changes')."""


def _as_agent(text: str) -> str:
    """'they'/'them'/'their' in a question about the agent are said to it: 'you', 'your'."""
    for them, you in words().rewrites["agent_pronouns"]:
        text = re.sub(rf"\b{them}\b", you, text, flags=re.I)
    return text


_IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def direct_question(clause: str, verb: str = "") -> str:
    """The indirect question 'whether <clause>' as the caller asks it; an identifier the tree
    writes in it ('email_exchange') is said by its words, never as a key."""
    said = _as_agent(first_person(_IDENTIFIER.sub(lambda m: say_value(m.group(0)), clause.strip())))
    said = said[:1].lower() + said[1:] if not re.match(r"I\b", said) else said
    if verb:
        return PHRASES["tree_ask_verb"][0].format(verb=verb, said=said)
    toks = said.split()
    n = next((i for i, t in enumerate(toks[: _MAX_SUBJECT + 1]) if _AUX.fullmatch(t)), 0)
    if n and _invertible(toks[:n], said):
        return f"{toks[n].capitalize()} {' '.join(toks[:n])} {' '.join(toks[n + 1 :])}".strip() + "?"
    return PHRASES["tree_ask"][0].format(said=said)


def _invertible(subject: list[str], clause: str) -> bool:
    """Whether the words before the clause's first auxiliary are its subject, so that the auxiliary
    can lead: not a pronoun with a verb after it ('that means no request is needed': 'means' is
    the verb), and not a clause that joins a second question ('... and what the next step is')."""
    if _JOINED.search(clause):
        return False
    return len(subject) == 1 or subject[0].lower() not in _BARE_PRONOUNS


def tree_asks(lines: list[str]) -> list[TreeAsk]:
    """The steps of the tree (``lines``) that name a question to ask, in order."""
    out: list[TreeAsk] = []
    for text in lines:
        for s in sentences_of(text):
            m = _ASK.match(s.strip())
            if m is None:
                continue
            clause = _CLAUSE_END.split(m.group("clause"))[0].strip()
            if len(clause.split()) < 3:
                continue
            out.append(TreeAsk(m.group("cond"), direct_question(clause, m.group("verb") or "")))
    return out
