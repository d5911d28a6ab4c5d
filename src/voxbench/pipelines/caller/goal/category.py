"""Enum-like facts said as English says them: a category noun phrase with its article, a key's
glued compound written as English writes it.

A scenario writes a category as an identifier ('additional_practice_site', 'role_change') and a
key word as a database does ('oncall_tier'). Said as written, the caller reads like a form: "It's
additional practice site.", "Backup oncall, please." A person says "It's an additional practice
site." and "Backup on-call." Two rules, their words data (``goal/lang``, ``phrases.speech``):

* :func:`category_phrase`: a fact whose label's head names a kind (``article_heads``: a reason,
  a type, a method) and whose value is an identifier of words ending in a singular noun that
  counts (a lexicon word, not plural, no ending of a mass noun or an adjective:
  ``uncounted_endings``, ``uncounted_words``; no particle: 'drop_off'; no link word: 'end_of_life',
  an idiom whose head is not last) takes 'a' or 'an' (:func:`with_article`) where a
  sentence says it ("It's ...", "The reason is ..."); a value that is a name ('email_exchange' of a
  *service*), an adjective ('read_only', 'staged') or a mass noun ('physical_damage') does not;
* :func:`written`: a key word that English writes with a hyphen and a scenario glues
  (``written_compounds``: 'oncall' -> 'on-call') is written so in the label.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from voxbench.pipelines.caller.goal.labels import plural
from voxbench.pipelines.caller.goal.lang import phrases
from voxbench.pipelines.caller.goal.speech import IDENTIFIER
from voxbench.spoken.lexicon import is_word

WRITTEN = {re.sub(r"[^a-z]", "", w.lower()): w for w in phrases("speech", "written_compounds")}
"""A glued compound ('oncall', 'wifi') -> as English writes it ('on-call', 'Wi-Fi')."""

ARTICLE_HEADS = frozenset(phrases("speech", "article_heads"))
"""Label heads whose value is a kind of thing, a common noun phrase ('transfer reason': 'a role change')."""

_UNCOUNTED = tuple(phrases("speech", "uncounted_endings"))
_UNCOUNTED_WORDS = frozenset(phrases("speech", "uncounted_words"))
_LINKS = frozenset(phrases("speech", "links"))
_PARTICLES = frozenset(phrases("speech", "particles"))
_DETERMINERS = frozenset(phrases("speech", "determiners"))
_AN_LETTERS = frozenset(phrases("speech", "an_letters"))
_A_BEFORE_VOWEL = tuple(phrases("speech", "a_before_vowel"))
_AN_BEFORE_CONSONANT = tuple(phrases("speech", "an_before_consonant"))


def written(words: Iterable[str]) -> list[str]:
    """Label words, each glued compound of the table written as English writes it."""
    return [WRITTEN.get(w.lower(), w) for w in words]


def counted_noun(word: str) -> bool:
    """A singular noun that takes an article: a lexicon word, not plural, no particle, no ending
    of a mass noun or an adjective ('site', 'setup', 'converter'; not 'damage', 'staged', 'hours')."""
    w = word.lower()
    return (
        is_word(w) and w not in _PARTICLES | _UNCOUNTED_WORDS and not plural(w) and not w.endswith(_UNCOUNTED)
    )


def category_phrase(value: object, label: list[str]) -> bool:
    """Whether a fact's value is a category noun phrase said with an article (module docstring)."""
    if not isinstance(value, str) or not IDENTIFIER.match(value.strip()) or not label:
        return False
    words = value.strip().split("_")
    return (
        label[-1].lower() in ARTICLE_HEADS
        and words[0] not in _DETERMINERS
        and not _LINKS & set(words)
        and counted_noun(words[-1])
    )


def with_article(said: str) -> str:
    """'a' or 'an' before a said noun phrase, by its first sound: 'an additional practice site',
    'an H R portal' (a letter's name), 'a unit', 'a new setup'."""
    first = said.split()[0] if said.split() else ""
    low = first.lower()
    if len(first) == 1 and first.isupper():
        an = first in _AN_LETTERS
    else:
        an = (low[:1] in ("a", "e", "i", "o", "u") and not low.startswith(_A_BEFORE_VOWEL)) or low.startswith(
            _AN_BEFORE_CONSONANT
        )
    return f"{'an' if an else 'a'} {said}"
