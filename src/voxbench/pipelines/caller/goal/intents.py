"""The caller's requests (the scenario's intents): which are done, and which facts go with each.

A multi-request caller ("a replacement laptop, a monitor and a desk") states one request at a
time. Said the way a person says it, a request carries its own details: "I also need Datadog
access, standard access" or "a desk at Headquarters on floor two". :func:`intent_facts` finds
those details among the caller's facts without knowing the domain: a fact whose value the
intent's text names, a fact whose key words all appear in the intent ('license_product_name_
renewal' for 'Renew my IntelliJ license'), and the siblings of such a fact (same key stem with
another field, e.g. 'access_level_2' next to 'application_name_2').

:class:`IntentTracker` marks a request done when the agent's completions or refusals name the
words that tell it apart from the caller's other requests.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.contingent import contingent
from voxbench.pipelines.caller.goal.ending_lang import pattern
from voxbench.pipelines.caller.goal.facts import HEADS, WEAK_WORDS, Fact, FactBook, group_of, stem
from voxbench.pipelines.caller.goal.lang import alt, phrases
from voxbench.pipelines.caller.goal.tree import content_words
from voxbench.spoken import mentions, runs, sentences_of, tokens

# Words of any request: they do not tell one intent from another (nor does the person it is for:
# the agent says 'yourself' for the caller's 'myself').
GENERIC = {
    "get", "need", "want", "request", "make", "help", "updat", "new", "submit", "would", "like", "also",
    "for", "and", "the", "my", "ask", "agent", "you", "myself", "yourself",
}  # fmt: skip
_FALLBACK = re.compile(
    r"\b(backup|fallback|as (a|my) second|instead|alternative|even without|if (that'?s|it'?s) not available)\b",
    re.I,
)
_MARKS = content_words(" ".join(phrases("fallbacks", "request_marks")))
"""Words that mark a request as a fallback ('Accept a room on floor 3 instead'), naming no thing."""
# Key words that name no subject of their own.
_NO_SUBJECT = HEADS | WEAK_WORDS | {"choice", "preference", "product", "code", "value"}


_ENDINGS = frozenset(phrases("facts", "word_endings"))


def words_close(a: str, b: str) -> bool:
    """Same word up to its ending ('renewal' / 'renew', 'licens' / 'license'): what the longer
    adds to the shorter is a word ending (data: ``phrases.facts.word_endings``), so a key word is
    no prefix of an unrelated word or a name ('seat' / 'Seattle')."""
    a, b = stem(a), stem(b)
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 4 and long_.startswith(short) and long_[len(short) :] in _ENDINGS


def intent_facts(intent: str, book: FactBook, others: list[str]) -> list[Fact]:
    """The caller's facts that belong to one request (see the module docstring)."""
    words = content_words(intent)
    other_words = content_words(" ".join(others))
    hits: list[Fact] = []
    for f in book:
        if f.source != "information_required":
            continue
        if f.matchable and any(mentions(intent, v) for v in f.values()):
            hits.append(f)
            continue
        subject = [w for w in f.words if w not in _NO_SUBJECT]
        if subject and all(any(words_close(w, x) for x in words) for w in subject):
            own = [w for w in subject if not any(words_close(w, x) for x in other_words)]
            if own or not other_words:
                hits.append(f)
    groups = {g for f in hits if (g := group_of(f.key))}
    hits += [
        f for f in book if f not in hits and group_of(f.key) in groups and f.source == "information_required"
    ]
    return hits


_FALLBACK_KEY = {"backup", "fallback", "alternate", "alternative", "secondary"}


def goal_clause_facts(
    own: set[str], others: list[set[str]], goal: str, book: FactBook, intent: str
) -> list[Fact]:
    """Facts the goal's own words tie to a request: the values said in the clause of the goal that
    names the request, and no other ('..., and a standing desk converter delivered to East Campus
    floor 1'), each as the fact whose key the clause names best ('delivery_floor' for 'delivered
    ... floor 1'). A person stating that request says where it goes. A value held by a backup fact
    is its fallback, not said here."""
    out: list[Fact] = []
    for clause in re.split(r"[,;:]|(?<=[a-z])\.\s", goal):
        words = content_words(clause)
        if not _names(own, words) or any(_names(o, words) for o in others):
            continue
        for f in book:
            if f.source != "information_required" or not f.matchable or f in out:
                continue
            if not any(mentions(clause, v) for v in f.values()) or any(
                mentions(intent, v) for v in f.values()
            ):
                continue
            holders = [o for o in book if o.source == "information_required" and o.matchable
                       and set(o.values()) == set(f.values())]  # fmt: skip
            score = {o.key: sum(any(words_close(w, x) for x in words) for w in o.words if w not in _NO_SUBJECT)
                     for o in holders}  # fmt: skip
            best = max(score.values())
            named = [o for o in holders if best and score[o.key] == best]
            if any(set(o.words) & _FALLBACK_KEY for o in named) or any(o in out for o in holders):
                continue
            pick = named[0] if named else holders[0]
            if not set(pick.words) & _FALLBACK_KEY:
                out.append(pick)
    return out


def _said_words(text: str) -> set[str]:
    """Content words, and spelled ones as words ('the P T O request': 'pto')."""
    toks = set(tokens(text))
    return content_words(text) | {r for r in runs(text) if r.isalpha() and len(r) >= 2 and r not in toks}


def _names(own: set[str] | frozenset[str], words: set[str]) -> bool:
    """Whether a text's words name a request by the words that tell it apart."""
    hit = {w for w in own if any(words_close(w, x) for x in words)}
    return bool(own) and len(hit) >= min(2, len(own))


class IntentTracker:
    """Which of the caller's requests the agent has completed or refused."""

    def __init__(self, intents: list[str], goal: str = "") -> None:
        self.intents = intents
        self._words = [frozenset(content_words(i) - GENERIC) for i in intents]
        self.done: list[bool] = [False] * len(intents)
        # a contingency ('a desk on floor 3 as my backup choice', 'accept a room even without a
        # projector', or one the goal holds under an unmet condition: 'if none are available, you
        # are willing to be placed on the waitlist', :mod:`.contingent`) is no request of its own:
        # it is said when the agent offers it, never listed
        held = contingent(intents, goal) if goal else [False] * len(intents)
        self.fallback = [(bool(_FALLBACK.search(i)) or held[j]) and j > 0 for j, i in enumerate(intents)]
        # an in-call behaviour ('Get the agent to skip the return authorization'): met only when the
        # agent agrees or refuses it by name; a completion naming its object did the thing it asks
        # to skip. Raised once the caller's other requests are done ('after the replacement is
        # submitted, you try to get the agent to skip ...')
        self.behaviour = [
            bool(pattern("behaviour_intent").search(i.strip()))
            and not pattern("behaviour_with_request").search(i)
            for i in intents
        ]
        self._said: list[str] = []
        self.last_refused: int | None = None
        """The request the last refusal named: a twin's refusal naming neither twin is its."""
        self._own = []
        for i in range(len(intents)):
            rest = content_words(" ".join(x for j, x in enumerate(intents) if j != i))
            words = self.words_of(i)
            self._own.append((words - rest) or words)

    def words_of(self, i: int) -> frozenset[str]:
        """The content words of request ``i`` without those of any request (:data:`GENERIC`): the
        words the tracker compares requests and turns by (read once: the requests are fixed)."""
        return self._words[i]

    def mentions(self, i: int, text: str) -> bool:
        """Whether a text says one of the words that tell request ``i`` apart ('reactivation')."""
        said = _said_words(text)
        return any(words_close(w, x) for w in self._own[i] for x in said)

    def says(self, i: int, text: str) -> bool:
        """Whether a text names request ``i`` by the words that tell it apart (two of them, or its
        one), as a completion or refusal must (:meth:`note`)."""
        return _names(self._own[i], _said_words(text))

    def own_words(self, i: int) -> set[str]:
        """The words that tell request ``i`` apart from the caller's others."""
        return set(self._own[i])

    def pending(self) -> list[int]:
        """The open requests, in-call behaviours last."""
        open_ = [i for i, d in enumerate(self.done) if not d and not self.fallback[i]]
        return sorted(open_, key=lambda i: self.behaviour[i])

    def note(self, text: str, completed: bool, next_one: bool = True) -> None:
        """The agent completed (or refused) something: mark the request(s) its words name.
        ``next_one``: a completion naming none may be the next request's (False: the turn reports
        something else, a must-have that is no request's: :meth:`.requests.Requests.resolve`)."""
        self._said.append(text)
        said = _said_words(text)
        before = list(self.done)
        hits = []
        for i, own in enumerate(self._own):
            hit = {
                w for w in own if any(words_close(w, x) for x in said)
            }  # 'access removal' names 'remove access'
            if own and len(hit) >= min(2, len(own)) and (not self.fallback[i] or self._whole(i, said)):
                hits.append(i)
        picked = self._one_per_twin(hits, text, completed)
        for i in picked:
            self.done[i] = self.done[i] or not (completed and self.behaviour[i])
        if not completed and picked:
            self.last_refused = picked[0]
        if completed and any(pattern("all_done").match(s) for s in sentences_of(text)):
            # 'Everything is complete.': the whole call, every request (an in-call behaviour is not
            # met by a completion: it is raised after the others, as above)
            self.done = [d or not self.behaviour[i] for i, d in enumerate(self.done)]
        if completed and self.done == before and self._backup_done(text):
            return  # 'Your desk assignment is complete' after the first desk was refused: the backup desk
        if completed and next_one and self.done == before and self.pending():
            # done, but not fully in a request's words: the open one it names by most of its own
            # words ('your check-in is booked'), else the next one
            things = [i for i in self.pending() if not self.behaviour[i]]
            named = [(sum(any(words_close(w, x) for x in said) for w in self._own[i]), -i) for i in things]
            best = max(named, default=(0, 0))
            if things:
                self.done[-best[1] if best[0] else things[0]] = True

    def _whole(self, i: int, said: set[str]) -> bool:
        """Whether ``said`` names request ``i`` by two of all its words: a fallback's own word alone
        ('waitlist' of 'the waitlist for Executive Garage parking') is said of other things too ('I
        can place you on the desk waitlist'), which neither complete nor refuse it."""
        words = self.words_of(i)
        return sum(any(words_close(w, x) for x in said) for w in words) >= min(2, len(words))

    def fallback_for(self, refused: set[int]) -> int | None:
        """The open fallback of a refused request: the one sharing most words with it (none: 0)."""
        best = (0, -1)
        for j, fb in enumerate(self.fallback):
            if fb and not self.done[j]:
                words = self.words_of(j)
                for i in refused:
                    best = max(best, (len(words & self.words_of(i)), -j))
        return -best[1] if best[0] else None

    def _backup_done(self, text: str) -> bool:
        """A backup request ('a desk on floor 3 instead') open while the request it backs up is done,
        and this turn names their shared words: the backup is what was completed."""
        words = content_words(text)
        for j, fb in enumerate(self.fallback):
            if not fb or self.done[j]:
                continue
            base = self.words_of(j)
            backs = [i for i in range(len(self.intents)) if i != j and self.done[i] and not self.fallback[i]
                     and len(base & self.words_of(i)) >= 1]  # fmt: skip
            shared = {w for i in backs for w in self.words_of(i) & base}
            if backs and any(words_close(w, x) for w in shared for x in words):
                self.done[j] = True
                return True
        return False

    def _one_per_twin(self, hits: list[int], text: str, completed: bool) -> list[int]:
        """Requests with the same own words ('a desk on floor 2', 'a desk on floor 3'): one turn
        settles one of them, the one it names by the words or numbers that tell the twins apart
        (:meth:`_apart`), done or not ('I can't get a desk on floor 2', said again, is floor 2's
        refusal again, not floor 3's). A turn naming none: a refusal goes to the twin in hand (the
        one last refused), a completion to the first not done."""
        out: list[int] = []
        for i in hits:
            twins = [j for j in hits if self._own[j] == self._own[i]]
            if len(twins) == 1:
                out.append(i)
                continue
            named = [j for j in twins if self._apart(j, twins, text)]
            open_ = [j for j in twins if not self.done[j]] or twins
            in_hand = self.last_refused if not completed and self.last_refused in twins else None
            pick = named[0] if len(named) == 1 else in_hand if in_hand is not None else open_[0]
            if pick not in out:
                out.append(pick)
        return out

    def _apart(self, i: int, twins: list[int], text: str) -> bool:
        """Whether ``text`` says a word or number of request ``i`` that its twins lack."""
        others = {t for j in twins if j != i for t in tokens(self.intents[j])}
        apart = [t for t in tokens(self.intents[i]) if t.isalnum() and t not in others]
        heard = tokens(text)
        return any(
            t in heard
            if any(c.isdigit() for c in t)
            else any(words_close(t, x) for x in heard if x.isalpha())
            for t in apart
        )

    def fallback_named(self, text: str) -> int | None:
        """The one fallback not yet done that ``text`` names: by a word that tells it apart (its
        marks left out: 'instead', 'accept'), else, when it has none ('a desk on floor 3 instead'
        beside 'a desk on floor 2'), by one of its words and a word or number no other request has."""
        hits, said, heard = [], _said_words(text), set(tokens(text))
        for j, fb in enumerate(self.fallback):
            if not fb or self.done[j]:
                continue
            rest = content_words(" ".join(x for i, x in enumerate(self.intents) if i != j))
            own = self.words_of(j) - rest - _MARKS
            if own:
                named = any(words_close(w, x) for w in own for x in said)
            else:
                others = {t for i, x in enumerate(self.intents) if i != j for t in tokens(x)}
                apart = {t for t in tokens(self.intents[j]) if t.isalnum() and t not in others}
                apart = {t for t in apart if not content_words(t) & _MARKS}
                words = self.words_of(j) - _MARKS
                named = bool(apart & heard) and any(words_close(w, x) for w in words for x in said)
            if named:
                hits.append(j)
        return hits[0] if len(hits) == 1 else None

    def named(self, question: str) -> int | None:
        """The one request (done or not, no backup) an agent's open question names by its own words."""
        words = _said_words(question) - GENERIC
        hits = [i for i, own in enumerate(self._own) if not self.fallback[i] and words & own]
        return hits[0] if len(hits) == 1 else None

    def rank(self, option: str) -> int | None:
        """The pending request an offered option names by its own words: the one its head (the words
        before a preposition) names, else the one it names with most words, the earliest on a tie
        ('the PTO request before the leave' is the PTO request)."""
        head = re.split(
            r"\b(?:before|after|for|of|with|about|to|in|on|from)\b", option, maxsplit=1, flags=re.I
        )[0]
        for text in (head, option):
            words = _said_words(text) - GENERIC
            hits = [(len(words & self._own[i]), -i) for i in self.pending() if words & self._own[i]]
            if hits:
                return -max(hits)[1]
        return None

    def orders(self, options: list[str], question: str) -> bool:
        """The agent asks which of the caller's requests to take first or next ('Which would you like
        to handle first: the I-9 or PTO?'), each option one of them: a choice, not a fact request."""
        ranks = [r for o in options if (r := self.rank(o)) is not None]  # 'a visa, or immigration update'
        return (
            len(set(ranks)) == len(ranks) >= 2
            and len(ranks) >= len(options) - 1
            and bool(re.search(r"\b(first|next|start|handle|take care|do)\b", question, re.I))
        )


_MANNER = re.compile(alt("requests", "simulator_manner"), re.I)
"""Words of a request label that grade how the agent must do it ('with proper calendar event
creation', 'properly', 'through the standard process') or name the caller's tactic ('by claiming I
already tried everything'): written for the simulator, they are not what a person asks for."""


def plain_requests(intents: list[str]) -> list[str]:
    """Each request label as a person words it: without the simulator's words of manner
    (``simulator_manner``: 'Book a conference room with proper calendar event creation' is 'Book a
    conference room'), unless every content word left is one of another request's: then the
    words of manner are what tell the two apart, and the label is kept whole ('Get my new hire
    properly provisioned through the full verification process' beside 'skip the new hire lookup
    ... and provision directly')."""
    out = []
    for i, intent in enumerate(intents):
        cut = _MANNER.sub("", intent).strip()
        mine = content_words(cut) - GENERIC  # 'get', 'need' tell no request apart
        others = [content_words(x) for j, x in enumerate(intents) if j != i]
        out.append(cut if mine and not any(mine <= o for o in others) else intent)
    return out
