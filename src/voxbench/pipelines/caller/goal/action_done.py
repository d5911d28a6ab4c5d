"""A completion read by the request's own action words: a statement that the action the caller
asked for has happened.

The completion cues (:data:`.cues.COMPLETED`) are a list of phrases; an agent says a request is
done in the words of that request as often: "That access removal is complete.", "Daniel Ortega's
access has been fully removed.", "Your DEA registration has been transferred." Each request
(the scenario's intent, "Remove access for my departing team member immediately") has an action
verb, its first word after a lead ("I need to", "Ask you to"), and an object, its other words.
A statement of one sentence says the action happened when it holds

* the verb's past participle after a form of *be* or after the agent ('is removed', 'has been
  fully removed', "I've transferred", 'I also sent'), or
* the verb's noun ('removal', 'setup', 'transfer') followed by *be* and a word of being finished
  ('is complete', 'has been processed'),

with no word that puts it in the future or a condition ('will', 'once', 'before', 'not'), and one
of the request's object words ('access'; not a word any request has, 'new', 'my').
Weak verbs ('get', 'request', 'have') name no action of their own and are left to the cues.

An in-call behaviour ("Ask you to skip sending the calendar invite") has no action of its own
here: a completion naming what it asks to skip did that thing, and the behaviour is raised after
the other requests as its tree says (:class:`.intents.IntentTracker`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

from voxbench.pipelines.caller.goal.cues import DONE_VERB
from voxbench.pipelines.caller.goal.ending_lang import ending_words, pattern
from voxbench.pipelines.caller.goal.facts import stem
from voxbench.pipelines.caller.goal.intents import GENERIC
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.spoken import sentences_of

_WORD = re.compile(r"[a-z0-9]+(?:['\u2019][a-z]+)?")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


@cache
def _sets() -> tuple[frozenset[str], ...]:
    w = ending_words()
    return tuple(frozenset(x.split()) for x in (w.weak_action, w.be_done, w.agent_did, w.adverb_done,
                                                 w.finished, w.not_yet, w.particle))  # fmt: skip


@dataclass(frozen=True)
class Action:
    """A request's action: its verb (with a particle: 'set up'), and the words of its object."""

    verb: str
    particle: str
    objects: frozenset[str]

    def participle(self, word: str) -> bool:
        """'removed', 'transferred', 'set' (irregular, data), not the verb's noun or its -ing."""
        irregular = ending_words().irregular_done.get(self.verb)
        if irregular is not None and word in irregular.split():
            return True
        return word != self.verb and word.endswith("ed") and _same_verb(self.verb, word)

    def noun(self, word: str, nxt: str) -> bool:
        """'removal', 'transfer', 'booking', 'setup' (a verb with its particle, written as one)."""
        if self.particle:
            return word == self.verb + self.particle or (word == self.verb and nxt == self.particle)
        return _same_verb(self.verb, word) and not word.endswith("ed")


def _same_verb(verb: str, word: str) -> bool:
    """The verb's own forms ('remove' / 'removed' / 'removal', 'submit' / 'submitted'), by stem."""
    a, b = stem(verb), stem(word)
    if a == b:
        return True
    a = a[:-1] if a.endswith("e") else a
    return len(a) >= 3 and b.startswith(a) and len(b) - len(a) <= 5


def actions_of(intent: str) -> list[Action | None]:
    """The actions of one request ('Mark onboarding tasks as complete and schedule orientation':
    mark, schedule); None for a weak verb, none at all for an in-call behaviour."""
    if pattern("behaviour_intent").search(intent.strip()):
        return []
    words = _words(pattern("action_lead").sub("", intent.strip()))
    cuts = (
        [0]
        + [i + 1 for i, w in enumerate(words) if w == "and" and _is_verb(words[i + 1 : i + 3])]
        + [len(words)]
    )
    return [_action(words[a:b]) for a, b in pairwise(cuts) if b > a]


def _action(words: list[str]) -> Action | None:
    weak, *_, finished, _, particle = _sets()
    if not words or words[0] in weak or not words[0].isalpha():
        return None
    verb = words[0]
    part = words[1] if len(words) > 1 and words[1] in particle else ""
    rest = [w for w in words[1 + bool(part) :] if w not in finished and w != "and"]
    return Action(verb, part, frozenset(content_words(" ".join(rest)) - {stem(verb)} - GENERIC))


def _is_verb(words: list[str]) -> bool:
    """The word after 'and' starts a second action: a weak verb, a word whose '-ed' form is a
    completion verb of the cues ('schedule' -> 'scheduled'), or one before a determiner."""
    if not words:
        return False
    w = words[0]
    if w in _sets()[0] or (
        words[1:2] and words[1] in ("a", "an", "the", "my", "your", "his", "her", "their")
    ):
        return True
    forms = (w + "d", w + "ed", w + w[-1:] + "ed")
    return any(_DONE.fullmatch(f) for f in forms)


_DONE = re.compile(DONE_VERB, re.I)


def says_done(action: Action, sentence: str) -> bool:
    """Whether one sentence says the action happened (see the module docstring)."""
    not_yet = _sets()[5]
    words = _words(sentence)
    if not_yet & set(words) or sentence.rstrip().endswith("?"):
        return False
    for i, w in enumerate(words):
        nxt = words[i + 1 : i + 2]
        if action.participle(w) and (not action.particle or nxt == [action.particle]) and _done_by(words[:i]):
            return True
        if action.noun(w, nxt[0] if nxt else "") and _finished(words[i + 1 : i + 8]):
            return True
    return False


def _skip_adverbs(words: list[str]) -> list[str]:
    adverb = _sets()[3]
    while words and (words[-1] in adverb or words[-1].endswith("ly")):
        words = words[:-1]
    return words


def _done_by(before: list[str]) -> bool:
    """The words before a participle make it a report: *be* ('has been fully') or the agent ("I've
    also", 'we have')."""
    _, be, agent, *_ = _sets()
    before = _skip_adverbs(before)
    last = before[-1] if before else ""
    return last in be or last in agent or (last in ("have", "has") and before[-2:-1] in (["i"], ["we"]))


def _finished(after: list[str]) -> bool:
    """The words after an action's noun say it is over: *be*, then a finished word ('is now complete')."""
    _, be, _, adverb, finished, *_ = _sets()
    k = next((n for n, x in enumerate(after) if x in be), None)
    if k is None:
        return False
    tail = [x for x in after[k + 1 :] if not (x in adverb or x.endswith("ly") or x in be)]
    return bool(tail) and tail[0] in finished


class ActionDone:
    """Which of the caller's requests an agent turn says are done, by their action words."""

    def __init__(self, intents: list[str]) -> None:
        self.actions = [actions_of(i) for i in intents]

    def done_in(self, text: str) -> list[int]:
        """The requests each of whose actions a statement of ``text`` says happened, named by one of
        its object words; a request with a weak action is left to the completion cues."""
        sentences = [(s, content_words(s)) for s in sentences_of(text) if not s.rstrip().endswith("?")]
        return [i for i, acts in enumerate(self.actions)
                if acts and all(a is not None and any(_names(a, s, w) for s, w in sentences) for a in acts)]  # fmt: skip


def _names(a: Action, sentence: str, said: set[str]) -> bool:
    """The sentence says the action happened, and names its object."""
    named = bool(a.objects & said) or any(_close(o, w) for o in a.objects for w in said)
    return named and says_done(a, sentence)


def _close(a: str, b: str) -> bool:
    return min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a))
