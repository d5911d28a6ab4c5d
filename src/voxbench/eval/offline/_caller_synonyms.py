"""Other words for a field's words: "surname" is a last name, "DOB" a date of birth.

The gate reads which of the caller's facts an agent asked for by the words of the fact's field
name (`last_name`, `Passenger last name`); an agent that says "What's your surname?" names none
of them, so a caller answering "I don't have that" withheld a fact the gate did not see asked.
The table (`lang/en.json`, `phrases._caller_synonyms`: a field's words -> what else agents call
them) is data; this module only rewrites an agent's line into those words before the field's
words are matched, so every reading of the line (the field asked, another person's, another
attribute, a head word) sees the same words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from voxbench.eval.offline.lang import tables


@cache
def _table(language: str = "en") -> tuple[tuple[re.Pattern[str], str], ...]:
    """(a synonym as a whole-word pattern, the field's words), longest synonym first, so
    "cell phone number" is rewritten before "phone number" could be read in it. A synonym that
    is a general word ("birthday": "Happy birthday!") is one only in a frame, a `{possessive}`
    word before it ("your birthday", "your wife's birthday"), kept as it is (group `keep`)."""
    pairs = [
        (syn, words)
        for words, syns in tables(language).phrases.get("_caller_synonyms", {}).items()
        for syn in syns
    ]
    pairs.sort(key=lambda p: -len(p[0]))
    return tuple((re.compile(_pattern(s, language), re.I), w) for s, w in pairs)


def _pattern(synonym: str, language: str) -> str:
    """A synonym's pattern: its words whole, after its frame's words when it has a frame."""
    frames = tables(language).phrases.get("_caller_synonym_frames", {})
    keep, rest = "", synonym
    for frame, options in frames.items():
        if synonym.startswith(frame + " "):
            keep, rest = rf"(?P<keep>\b(?:{'|'.join(options)})\s+)", synonym[len(frame) + 1 :]
    return rf"(?<![\w-]){keep}(?P<syn>{re.escape(rest)})(?![\w-])"


def _cased(found: str, words: str) -> str:
    """The field's words with the synonym's leading capital kept (a sentence still starts with
    one, and the line's sentence splitter reads that); an acronym's capitals ("DOB") are no
    sentence start."""
    title = found[:1].isupper() and not (len(found) > 1 and found.isupper())
    return words[:1].upper() + words[1:] if title else words


def in_field_words(text: str, language: str = "en") -> str:
    """`text` with every synonym of a field's words replaced by those words ("What's your
    surname?" -> "What's your last name?")."""
    for rx, words in _table(language):
        text = rx.sub(_replacer(words), text)
    return text


def _replacer(words: str) -> Callable[[re.Match[str]], str]:
    def replace(m: re.Match[str]) -> str:
        return (m.groupdict().get("keep") or "") + _cased(m.group("syn"), words)

    return replace


@cache
def _phrases(language: str = "en") -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The table's fields' words of two or more words, each as a whole-phrase pattern."""
    keys = [k for k in tables(language).phrases.get("_caller_synonyms", {}) if " " in k]
    return tuple((k, re.compile(rf"\b{re.escape(k)}\b", re.I)) for k in keys)


def named_fields(text: str, language: str = "en") -> list[set[str]]:
    """The words of each field the table knows whose words `text` says whole ("date of birth",
    "last name"): a question naming one asks for that thing, not for another field sharing one
    of its words (a travel date is not asked by "What's your date of birth?")."""
    return [set(k.split()) - {"of"} for k, rx in _phrases(language) if rx.search(text)]
