"""Which of the caller's requests each of its facts serves, and which facts are in hand.

A caller with several requests ("FMLA leave, a shift swap, sick days before the leave") holds facts
of one kind for more than one of them: three pairs of dates, two floors, two sizes. A person asked
"What dates do you want off?" after the shift swap is done gives the dates of the time off, not
the shift's; asked "What screen size?" about the laptop, the laptop's size, not the monitor's.

:func:`fact_owners` reads, from the scenario alone, which request each fact serves:

1. the facts a request's own words name (:func:`.intents.intent_facts`: a value it says, a key
   whose words it says), and those the goal's clause about it ties to it
   (:func:`.intents.goal_clause_facts`); a fact two requests name serves neither alone;
2. a fact whose key begins with the subject word of one request's facts ('pto_start_date' next to
   'pto_type', 'delivery_floor' next to 'delivery_building'): a key's leading word says what it is
   about;
3. a fact still unplaced that the scenario lists between two facts of one request (information is
   listed request by request).

Facts placed nowhere (name, employee ID, a code sent to verify) serve the whole call.
:class:`InHand` splits the placed ones, at one agent turn, into the request in hand, the requests
done and those still to come; :mod:`.scoped` uses it to choose among facts of one kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from voxbench.pipelines.caller.goal.facts import FLUFF_HEADS, HEADS, WEAK_WORDS, Fact, FactBook
from voxbench.pipelines.caller.goal.intents import GENERIC, goal_clause_facts, intent_facts, words_close
from voxbench.pipelines.caller.goal.tree import content_words

# Key words that name no subject of their own ('preferred_date', 'new_start_time').
_NOT_SUBJECT = HEADS | WEAK_WORDS | {"choice", "preference", "value"}


def kind_of(f: Fact) -> str:
    """What sort of thing a fact is: its key's last word ('date', 'floor', 'size')."""
    return f.words[-1] if f.words else ""


def subject_words(f: Fact) -> list[str]:
    """The words of a fact's key that say what it is about ('pto', 'delivery', 'monitor'), its
    kind and the words that name no subject left out."""
    kind = kind_of(f)
    return [w for w in f.words if w != kind and w not in _NOT_SUBJECT]


def fact_owners(intents: list[str], book: FactBook, goal: str = "") -> dict[str, int]:
    """Fact key -> the index of the request it serves (see the module docstring); facts of the
    whole call are not in the map. One request: nothing to tell apart, an empty map."""
    if len(intents) < 2:
        return {}
    own = [
        {f.key for f in intent_facts(x, book, intents[:i] + intents[i + 1 :])} for i, x in enumerate(intents)
    ]
    words = [content_words(x) - GENERIC for x in intents]
    tells = [(w - set().union(*(o for j, o in enumerate(words) if j != i))) or w for i, w in enumerate(words)]
    for i, x in enumerate(intents):
        rest = [w for j, w in enumerate(tells) if j != i]
        clause = goal_clause_facts(tells[i], rest, goal, book, x) if goal else []
        own[i] |= {f.key for f in clause if not _value_shared(f, book)}
    owners: dict[str, int] = {}
    for i, keys in enumerate(own):
        for k in keys:
            owners[k] = -1 if k in owners else i
    owners = {k: i for k, i in owners.items() if i >= 0}
    listed = [f for f in book if f.source == "information_required"]
    _led_by_intent(listed, owners, tells)
    _by_leading_word(listed, owners)
    _by_place(listed, owners, book)
    return owners


def _value_shared(f: Fact, book: FactBook) -> bool:
    """Another fact holds the same value ('Headquarters': the delivery building and the room's)."""
    return any(g.key != f.key and set(g.values()) == set(f.values()) for g in book)


def _led_by_intent(listed: list[Fact], owners: dict[str, int], tells: list[set[str]]) -> None:
    """Unplaced facts whose key's first subject word is a word that tells one request apart
    ('dispatch_floor' for 'get a technician dispatched')."""
    for f in listed:
        subj = subject_words(f)
        if f.key in owners or not subj:
            continue
        hits = [i for i, own in enumerate(tells) if any(words_close(subj[0], w) for w in own)]
        if len(hits) == 1:
            owners[f.key] = hits[0]


def _by_leading_word(listed: list[Fact], owners: dict[str, int]) -> None:
    """Unplaced facts whose key's first subject word leads facts of exactly one request."""
    leads: dict[str, set[int]] = {}
    for f in listed:
        subj = subject_words(f)
        if f.key in owners and subj:
            leads.setdefault(subj[0], set()).add(owners[f.key])
    for f in listed:
        subj = subject_words(f)
        if f.key not in owners and subj and len(leads.get(subj[0], set())) == 1:
            owners[f.key] = next(iter(leads[subj[0]]))


def _by_place(listed: list[Fact], owners: dict[str, int], book: FactBook) -> None:
    """Unplaced facts listed between two facts of one request serve that request, if the caller
    holds another fact of their kind and the kind is not a name, number or code (a PIN or a code
    to verify listed there serves the call)."""
    placed = [(n, owners[f.key]) for n, f in enumerate(listed) if f.key in owners]
    for (a, i), (b, j) in pairwise(placed):
        if i != j:
            continue  # two requests: nothing between them is placed by where it is listed
        for f in listed[a + 1 : b]:
            if shared_kind(f, book) and kind_of(f) not in FLUFF_HEADS:
                owners.setdefault(f.key, i)


@dataclass(frozen=True)
class InHand:
    """At one agent turn: the facts of the request in hand, of the requests done, of those to come."""

    keys: frozenset[str] = frozenset()
    done: frozenset[str] = frozenset()
    later: frozenset[str] = frozenset()
    owners: dict[str, int] = field(default_factory=dict)
    current: int | None = None

    @classmethod
    def of(cls, owners: dict[str, int], current: int | None, finished: list[bool]) -> InHand:
        """Split the placed facts by the request in hand (``current``) and the requests done."""
        keys = frozenset(k for k, i in owners.items() if i == current)
        done = frozenset(k for k, i in owners.items() if i != current and finished[i])
        later = frozenset(k for k, i in owners.items() if i != current and not finished[i])
        return cls(keys, done, later, dict(owners), current)

    def same_request(self, a: str, b: str) -> bool:
        return a in self.owners and self.owners.get(a) == self.owners.get(b)


def shared_kind(f: Fact, book: FactBook) -> bool:
    """Whether the caller holds another fact of the same kind ('delivery_floor', 'dispatch_floor')."""
    kind = kind_of(f)
    return bool(kind) and any(g.key != f.key and kind_of(g) == kind for g in book)
