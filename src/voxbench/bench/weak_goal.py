"""Weak-agent turns of the class ``goal_open``: an open question whose answer is in the goal's own
text, not in a fact (:mod:`.weak_turns` holds the other classes).

The decision tree often says what to answer to a question no fact of ``information_required``
answers: "When the agent asks why you are canceling, state: you had a medical emergency". Read
with the bench's own grammar (``bench/lang/weak_<lang>.json``, ``goal_told``; not the caller's),
each such line is turned into the question an agent asks ("Why are you canceling?", "Can you tell
me your proof details?"); expected: a reply that says two thirds of the content words of the
answer the tree gives, or states a fact that answer names (:func:`named_facts`), and does not say it
lacks it, hang up or invent. A line whose answer is one of the caller's facts, or points at them
('exactly as listed in information_required'), is left to the fact classes.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from voxbench.bench.matcher import facts_said, goal_facts, words_of
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of


class GoalTold(BaseModel):
    """The bench's reading of a tree's "if asked X, say Y" (data: ``goal_told`` in ``weak_<lang>.json``)."""

    pattern: str
    """A regex with groups ``x`` (what is asked) and ``y`` (what to say)."""
    cut: str
    """Where Y's answer ends ('unless ...', ', but ...')."""
    fact_pointers: list[str]
    meta_asks: list[str]
    """An X about the goal's own terms ('information not defined here'): no question an agent asks."""
    adverbs: list[str]
    """Words between 'you' and its verb ('you already tried')."""
    aux: list[str]
    """Verbs that come before 'you' in a question ('are', 'will'); any other takes 'do'."""
    np_templates: list[str]
    """A question for an X that names a thing ('for your proof details'): ``{np}``."""
    minor_words: list[str]
    """Words not counted among an answer's content words ('you', 'that')."""


def told_lines(scenario: Scenario, told: GoalTold, not_have: list[str]) -> list[tuple[str, str, str]]:
    """(x, y, source) of each "if asked X, say Y" of the tree whose Y is no fact of the caller's
    and says something it has (a Y that says it has none, ``not_have``, is the ``lacking`` class's)."""
    tree = scenario.user_goal.decision_tree
    facts = goal_facts(scenario.user_goal.information_required)
    pat, cut = re.compile(told.pattern, re.I), re.compile(told.cut, re.I)
    pointers = re.compile("|".join(re.escape(p) for p in [*told.fact_pointers, *not_have]), re.I)
    meta = re.compile("|".join(re.escape(p) for p in told.meta_asks), re.I)
    out = []
    for text in [
        *tree.must_have_criteria,
        *tree.nice_to_have_criteria,
        *tree.negotiation_behavior,
        *tree.edge_cases,
    ]:
        for s in sentences_of(text):
            for m in pat.finditer(s):
                y = cut.sub("", m.group("y")).strip(' ,:"“”')
                if meta.search(m.group("x")) or not y or pointers.search(y):
                    continue
                if not facts_said(y, facts) and answer_words(y, told):
                    out.append((m.group("x").strip(), y, m.group(0)))
    return out


def answer_words(y: str, told: GoalTold) -> list[str]:
    """The content words of an answer the reply must say (the bench's normaliser, minor words out)."""
    minor = set(told.minor_words)
    return list(dict.fromkeys(w for w in words_of(y) if len(w) >= 4 and w.isalpha() and w not in minor))


def named_facts(said: list[str], words: list[str]) -> list[str]:
    """The facts said (keys) that the goal's answer names: a fact stands for the answer only when a
    word of its key is one of the answer's content words ('laptop_issue' for 'describe your laptop's
    fault'); any other fact said answers something else and does not stand for the goal's words."""
    answer = set(words)
    return [k for k in said if answer & set(words_of(re.sub(r"[._]", " ", k)))]


def question_of(x: str, told: GoalTold, pick: int) -> str:
    """The question an agent asks for X: 'why you are canceling' -> 'Why are you canceling?', 'what
    you want to change' -> 'What do you want to change?', 'for your proof details' -> 'Can you tell
    me your proof details?' (the ``pick``-th template)."""
    x = re.sub(r"\s+", " ", x).strip()
    np = re.match(r"^(?:for|about)\s+(?P<np>.+)$", x, re.I)
    if np:
        ts = told.np_templates
        return ts[pick % len(ts)].format(np=np.group("np"))
    adverb = "|".join(told.adverbs)
    m = re.match(
        rf"^(?P<wh>\w+)(?P<mid>.*?)\s+you\s+(?P<adv>(?:(?:{adverb})\s+)?)(?P<verb>[\w']+)(?P<rest>.*)$",
        x,
        re.I,
    )
    if m is None:
        q = x
    else:
        wh, verb, adv = f"{m.group('wh')}{m.group('mid')}", m.group("verb"), m.group("adv")
        aux = verb if verb.lower() in told.aux else "have" if re.search(r"[^e]ed$", verb.lower()) else "do"
        said = "" if aux == verb else f" {verb}"
        q = f"{wh} {aux} you {adv}{said.strip()}{m.group('rest')}".replace("  ", " ")
    return f"{q[:1].upper()}{q[1:]}?"
