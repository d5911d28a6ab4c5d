"""The caller's facts: what it may say, under which names an agent asks for it.

A scenario gives the caller ``information_required`` (and, in ITSM / medical HR, ``seed_data``)
as free-form keys: ``confirmation_number``, ``Booking confirmation number``,
``phone_number_if_asked``, ``per_occurrence_limit_usd``, ``seat_preference: {first_choice: ...}``.
:func:`goal_facts` flattens them into leaf :class:`Fact` s, each with the words an agent may
use to ask for it: the key's own words, split into the *distinctive* ones (``building``,
``employee``, ``dependent``) and the *head* noun (``name``, ``number``, ``date``), plus a small
table of field-word synonyms that hold in any domain ("code" for "number", "I D" for "id").
Nothing here names a scenario or a domain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from voxbench.pipelines.caller.goal.lang import phrases
from voxbench.pipelines.caller.goal.lang import words as lang_words
from voxbench.pipelines.caller.goal.speech import key_parts, speak_value
from voxbench.spoken import matchable

# The word tables are data (``goal/lang/<lang>.json``: ``phrases.facts``, ``synonyms``,
# ``key_expansions``).
# Key words that say nothing about which fact is meant.
DROP_WORDS = set(phrases("facts", "drop_words"))
# Head nouns: an agent says "the date" or "the code" and means the one it is collecting.
HEADS = set(phrases("facts", "heads"))
# Heads an agent leaves out ("the building", "your new state"); the others it says ("the date").
FLUFF_HEADS = set(phrases("facts", "fluff_heads"))
# Key words that mark what the caller wants (as opposed to what it has now).
WANT_WORDS = set(phrases("facts", "want_words"))
# Modifiers too common in agent speech ("First, I need...") to identify a fact alone.
WEAK_WORDS = set(phrases("facts", "weak_words"))
# Field-word synonyms, for any domain: word -> phrases an agent may say for it.
SYNONYMS: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in lang_words().synonyms.items()}
# Key words (and said words) that stand for several ('dob', 'surname', 'family name').
_EXPANSIONS = lang_words().key_expansions
# Key words that tell apart facts of one group ('trial', 'renewal'), beside its number.
_GROUP_WORDS = tuple(phrases("facts", "group_words"))


def stem(word: str) -> str:
    """A crude stem so 'delivered', 'delivery', 'deliver' and 'attendees', 'attend' meet."""
    w = word.lower()
    if len(w) <= 4 or w.isdigit():
        return w
    for group in (("ies", "es", "s"), ("ing", "ed")):
        for suf in group:
            if w.endswith(suf) and len(w) - len(suf) >= 4:
                w = w[: -len(suf)]
                break
    w = w.rstrip("ey") if len(w.rstrip("ey")) >= 4 else w
    return w


def said_expansions(flat: str) -> list[str]:
    """The key words an agent says with one word or phrase that stands for several ('DOB', 'your
    surname', 'the family name'): the expansion table a key is read by, read from what is said
    (``flat``: the said words, space-separated and padded)."""
    return [w for name, ws in _EXPANSIONS.items() if f" {name} " in flat for w in ws]


def key_tokens(key: str) -> list[str]:
    """A fact key's tokens in lower case, none left out ('phone_last_four' -> ['phone', 'last',
    'four']); :func:`key_words` drops and expands them to the words that name the fact,
    :func:`.speech.key_parts` keeps their case and splits camelCase."""
    return [w for w in re.split(r"[^a-z0-9]+", key.lower()) if w]


def key_words(key: str) -> list[str]:
    """The meaningful words of a fact key ('phone_number_if_asked' -> ['phone', 'number'])."""
    words = [w for w in re.split(r"[^a-z0-9]+", key.lower()) if w and w not in DROP_WORDS and not w.isdigit()]
    out: list[str] = []
    for w in words:
        if w in _EXPANSIONS:
            out += _EXPANSIONS[w]
        elif w not in out:
            out.append(w)
    return out


@dataclass(frozen=True)
class Fact:
    """One thing the caller knows: ``key`` is its path ('seat_preference.first_choice')."""

    key: str
    value: Any
    words: tuple[str, ...]
    source: str = "information_required"
    order: int = 0

    @property
    def distinctive(self) -> tuple[str, ...]:
        return tuple(w for w in self.words if w not in HEADS)

    @property
    def heads(self) -> tuple[str, ...]:
        return tuple(w for w in self.words if w in HEADS)

    @property
    def record_words(self) -> tuple[str, ...]:
        """The words of the listed record a field belongs to ('original_travel_details.0.origin':
        'original', 'travel', 'details'): the record's name, which an agent asking for the field
        leaves out ('What is your origin?'); none for a fact that is not in a list."""
        parts = self.key.split(".")
        at = next((i for i, p in enumerate(parts) if p.isdigit()), None)
        if at is None or at == len(parts) - 1:
            return ()
        return tuple(w for p in parts[:at] for w in key_words(p))

    @property
    def key_phrase(self) -> str:
        """The last part of the key as words, those a key match drops included ('preferred date',
        'first name'): said whole, it names this fact over others of its head."""
        return " ".join(w for w in re.split(r"[^a-z]+", self.key.rsplit(".", 1)[-1].lower()) if w)

    @property
    def wanted(self) -> bool:
        """Whether the key names something the caller wants ('desired_return_date', 'new_carrier')."""
        return bool(set(re.split(r"[^a-z]+", self.key.lower())) & WANT_WORDS)

    @property
    def top(self) -> str:
        return self.key.split(".")[0]

    def spoken(self) -> str:
        return speak_value(self.value, key_parts(self.key))

    def values(self) -> list[str]:
        """The value(s) as strings, for matching against speech."""
        if isinstance(self.value, list):
            return [str(v) for v in self.value if not isinstance(v, dict | list)]
        return [str(self.value)]

    @property
    def matchable(self) -> bool:
        return any(matchable(v) for v in self.values())


@dataclass
class FactBook:
    """All of a caller's facts, in the scenario's order."""

    facts: list[Fact] = field(default_factory=list)
    matter: frozenset[str] = frozenset()
    """The content words of what the caller came for (its goal, requests, tree and facts: the
    :class:`.scope.Scope`'s), set by the caller: what a confirm verb's object names in these words
    is the matter in hand, not a field (:mod:`.confirmobj`)."""

    def get(self, key: str) -> Fact | None:
        return next((f for f in self.facts if f.key == key), None)

    def key_set(self) -> set[str]:
        return {f.key for f in self.facts}

    @cached_property
    def word_stems(self) -> frozenset[str]:
        """The stem of every word of every fact's key: the book is complete once built
        (:func:`goal_facts`), so this is computed once, not per turn."""
        return frozenset(stem(w) for f in self.facts for w in f.words)

    def __iter__(self) -> Any:
        return iter(self.facts)


def _leaves(prefix: str, value: Any, words: list[str]) -> list[tuple[str, Any, list[str]]]:
    if isinstance(value, dict):
        out: list[tuple[str, Any, list[str]]] = []
        for k, v in value.items():
            out += _leaves(f"{prefix}.{k}", v, words + [w for w in key_words(str(k)) if w not in words])
        return out
    if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        out = []
        for i, v in enumerate(value):
            out += _leaves(f"{prefix}.{i}", v, words)
        return out
    return [(prefix, value, words)]


def goal_facts(information_required: dict[str, Any], seed_data: dict[str, Any] | None = None) -> FactBook:
    """Flatten the goal's facts (and seed facts whose values it does not already hold)."""
    book = FactBook()
    seen: set[str] = set()
    order = 0
    for source, data in (("information_required", information_required), ("seed_data", seed_data or {})):
        for k, v in data.items():
            for key, value, words in _leaves(str(k), v, key_words(str(k))):
                if value is None or value == "" or value == []:
                    continue
                sval = re.sub(r"[^a-z0-9]", "", str(value).lower())
                if source == "seed_data" and (sval in seen or key in book.key_set()):
                    continue
                seen.add(sval)
                book.facts.append(Fact(key, value, tuple(words), source, order))
                order += 1
    return book


def group_of(key: str) -> str:
    """The key with its field words removed: 'application_name_2' and 'access_level_2' share '2'
    (numbered or named groups of facts that go together); '' for a key of no group."""
    parts = [p for p in re.split(r"[^a-z0-9]+", key.lower()) if p]
    tail = [p for p in parts if p.isdigit() or p in _GROUP_WORDS]
    return "_".join(tail)


def start_end_pairs(cands: list[Fact]) -> list[list[Fact]]:
    """Facts that come as a start/end pair with the same other words ('pto_start_date', 'pto_end_date')."""
    out: list[list[Fact]] = []
    for f in cands:
        if "start" in f.words:
            rest = [w for w in f.words if w != "start"]
            ends = [o for o in cands if "end" in o.words and [w for w in o.words if w != "end"] == rest]
            if len(ends) == 1:
                out.append([f, ends[0]])
    return out
