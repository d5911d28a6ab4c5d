"""Weak-agent turns of the class ``goal_wish``: a question about what the caller wants, whose
answer is a thing its goal describes in words and no fact of ``information_required`` holds
(:mod:`.weak_turns` holds the other classes).

A goal says what the caller wants in words as often as in values: "You want to get rebooked on
the first available flight tomorrow with a confirmed seat", "You want a full cash refund". An agent
asks for that thing by its noun ("What kind of flight would you like?", "Which refund do you
need?"). Read with the bench's own grammar (``goal_wish`` in ``bench/lang/weak_<lang>.json``; not
the caller's), each wish clause of the high-level goal and the must/nice-to-have criteria ('you
want / would like / prefer / need ...', cut before its conditions) yields its noun phrases with
a describing word before the noun ('a *full cash* refund', 'the *first available* flight'); one
that says a fact of the caller's or whose noun a fact's key names ('the new facility':
``new_facility_code``; the fact classes ask those), names a thing it has rather than wants ('the *existing*
flight') or a person ('the agent') is left out. Expected: a reply that says two thirds of the
phrase's content words, does not say it lacks it, does not hang up, and invents nothing.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from voxbench.bench.matcher import facts_said, goal_facts, key_words, same_word_either, words_of
from voxbench.scenarios import Scenario
from voxbench.spoken import sentences_of


class GoalWish(BaseModel):
    """The bench's reading of a goal's wishes (data: ``goal_wish`` in ``weak_<lang>.json``)."""

    wish: str
    """A regex whose group ``w`` is what the caller wants ('you want ...')."""
    cut: str
    """Where a wish ends ('but ...', 'if ...', 'because ...')."""
    determiners: list[str]
    """Words that open a noun phrase of a thing wanted ('a', 'the')."""
    stops: list[str]
    """Words that end a noun phrase (prepositions, conjunctions, adverbs)."""
    tails: list[str]
    """Endings of a word that ends a noun phrase after its first word ('a visit *scheduled*'):
    a participle or an adverb after the noun, not the describing word before it ('a *checked* bag')."""
    had: list[str]
    """Describing words of a thing the caller has, not wants ('existing', 'original')."""
    heads: list[str]
    """Nouns no agent asks a preference about ('agent', 'call', 'issue')."""
    minor_words: list[str]
    """Words not counted among a phrase's content words."""


def wished(scenario: Scenario, wish: GoalWish) -> list[tuple[str, str, str]]:
    """(head noun, noun phrase, source clause) of each thing the goal wants described in words
    (module doc), in the order the goal says them, each phrase once."""
    goal = scenario.user_goal
    tree = goal.decision_tree
    facts = goal_facts(goal.information_required)
    named = {k for f in facts for k in key_words(f.key)}  # 'the new facility': its code is a fact
    pat, cut = re.compile(wish.wish, re.I), re.compile(wish.cut, re.I)
    out: dict[str, tuple[str, str, str]] = {}
    for text in [goal.high_level_user_goal, *tree.must_have_criteria, *tree.nice_to_have_criteria]:
        for s in sentences_of(text):
            for m in pat.finditer(s):
                w = cut.sub("", m.group("w"))
                for head, np in _phrases(w, wish):
                    if not facts_said(np, facts) and not any(same_word_either(head, k) for k in named):
                        out.setdefault(np.lower(), (head, np, m.group(0)))
    return list(out.values())


def _phrases(text: str, wish: GoalWish) -> list[tuple[str, str]]:
    """(head, phrase) of each noun phrase with a describing word: a determiner, then two to four
    words up to a stop word or punctuation, the last the head."""
    dets, stops = {d.lower() for d in wish.determiners}, {s.lower() for s in wish.stops}
    tails = tuple(wish.tails)
    tokens = re.findall(r"[\w'$:-]+|[,()]", text)
    out = []
    for i, t in enumerate(tokens):
        if t.lower() not in dets:
            continue
        run: list[str] = []
        for u in tokens[i + 1 : i + 5]:
            if u in ",()" or u.lower() in stops or u.lower() in dets or (run and u.lower().endswith(tails)):
                break
            run.append(u)
        if len(run) < 2:
            continue
        head, mods = run[-1], run[:-1]
        if (
            not re.fullmatch(r"[a-z][a-z-]*", head, re.I)
            or head.lower() in {h.lower() for h in wish.heads}
            or {m.lower() for m in mods} & {h.lower() for h in wish.had}
            or not phrase_words(" ".join(mods), wish)
        ):
            continue
        out.append((head.lower(), " ".join(run)))
    return out


def phrase_words(phrase: str, wish: GoalWish) -> list[str]:
    """The content words of a phrase a reply must say (the bench's normaliser, minor words out)."""
    minor = set(wish.minor_words)
    return list(dict.fromkeys(w for w in words_of(phrase) if len(w) >= 3 and w not in minor))
