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
from dataclasses import dataclass, replace
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
    weak: bool = False
    """A weak verb ('Get a desk on floor 2'): only its object said finished tells it done."""
    own: frozenset[str] = frozenset()
    """Its object words no other request of the caller has ('confluence', not 'access'): the object
    said finished must be told apart ('Your Confluence access request is submitted')."""

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
    if not words or not words[0].isalpha():
        return None
    verb = words[0]
    part = words[1] if len(words) > 1 and words[1] in particle else ""
    rest = [w for w in words[1 + bool(part) :] if w not in finished and w != "and"]
    objects = frozenset(content_words(" ".join(rest)) - {stem(verb)} - GENERIC)
    return Action(verb, part, objects, weak=verb in weak) if objects or verb not in weak else None


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
    if _object_finished(action, words):
        return True
    if action.weak:
        return False
    for i, w in enumerate(words):
        nxt = words[i + 1 : i + 2]
        if action.participle(w) and (not action.particle or nxt == [action.particle]) and _done_by(words[:i]):
            return True
        if action.noun(w, nxt[0] if nxt else "") and _finished(words[i + 1 : i + 8]):
            return True
    return False


def _object_finished(action: Action, words: list[str]) -> bool:
    """'Your desk assignment is complete.': an object word of the request, then within a few words
    *be* and a finished word."""
    _, be, *_ = _sets()
    for k, w in enumerate(words):
        if w in be and _finished(words[k : k + 6]):
            subject = content_words(" ".join(words[max(0, k - 4) : k]))
            if subject & action.own or any(_close(o, x) for o in action.own for x in subject):
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
        acts = [actions_of(i) for i in intents]
        words = [content_words(i) for i in intents]
        self.actions = [
            [
                a and replace(a, own=a.objects - set().union(*(w for j, w in enumerate(words) if j != i)))
                for a in row
            ]
            for i, row in enumerate(acts)
        ]

    def done_in(self, text: str) -> list[int]:
        """The requests each of whose actions a statement of ``text`` says happened. A sentence
        reports one request: of those it says done, the one it names by most of its own words
        ('Your temporary Adobe Creative Cloud license request is submitted' is the Adobe trial, not
        the IntelliJ license), all of them on a tie."""
        said: dict[tuple[int, int], int] = {}  # (request, action) -> the sentence that says it done
        for n, s in enumerate(x for x in sentences_of(text) if not x.rstrip().endswith("?")):
            words = content_words(s)
            scores = {(i, k): _score(a, words) for i, row in enumerate(self.actions) for k, a in enumerate(row)
                      if a is not None and _score(a, words) and says_done(a, s)}  # fmt: skip
            best = max(scores.values(), default=0)
            top = {i for (i, _), v in scores.items() if v == best}  # a request's actions go together
            said.update({(i, k): n for (i, k) in scores if i in top})
        return [i for i, row in enumerate(self.actions)
                if row and all(a is not None and (i, k) in said for k, a in enumerate(row))]  # fmt: skip


def _score(a: Action, said: set[str]) -> int:
    """How many of the request's own object words (else of its object words) a sentence names."""
    own = sum(any(o == w or _close(o, w) for w in said) for o in a.own)
    return 2 * own + sum(any(o == w or _close(o, w) for w in said) for o in a.objects - a.own)


def _close(a: str, b: str) -> bool:
    return min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a))
