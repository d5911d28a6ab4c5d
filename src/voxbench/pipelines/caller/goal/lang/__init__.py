"""The goal caller's word tables, one JSON file per language (data, not code).

``phrases`` holds the caller's phrase lists (cue words, fillers, greetings, goodbyes, refusals...)
by module and name; each entry is one branch of a regular-expression alternation (a word, a phrase,
or a phrase with its own optional parts: "have a (great|good) day"). The grammar around a list
(anchors, lookarounds, word boundaries, capture groups) stays in the code that compiles it, so a
language adds its words without touching the structure. A few lists hold one frame with slots
instead ('offered.asked': 'Would you like {rest}?'): the agent's own turn re-worded for reading,
which is not one of the caller's phrasings (``templates``, whose first words :mod:`.phrases` reads).
"""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel

from voxbench.spoken.tables import read_table


class Words(BaseModel):
    unit_abbreviations: dict[str, str]
    """A code's letters that abbreviate a unit a person says in full ('FL2': 'floor 2')."""
    phrases: dict[str, dict[str, list[str]]]
    """Phrase lists by module and name: the branches of an alternation, in the order they are tried."""
    templates: dict[str, list[str]]
    """The caller's own phrasings by kind: equivalent wordings a trial's seed picks among, in order."""
    synonyms: dict[str, list[str]]
    """Field-word synonyms that hold in any domain: word -> phrases an agent may say for it."""
    key_expansions: dict[str, list[str]]
    """A fact key's word that stands for several ('dob' -> 'date', 'birth')."""
    rewrites: dict[str, list[tuple[str, str]]]
    """Word-for-word rewrites by name ('you are' -> 'I am': a goal written to the caller, said by it)."""


@cache
def words(language: str = "en") -> Words:
    """The tables of ``language`` (``goal/lang/<language>.json``); a clear error if there are none."""
    return read_table(__package__, f"{language}.json", Words, "pipelines/caller/goal/lang")


def phrases(module: str, name: str, language: str = "en") -> list[str]:
    """The phrase list ``name`` of ``module``; a clear error naming file and field if it is missing."""
    table = words(language).phrases
    if name not in table.get(module, {}):
        raise ValueError(f"pipelines/caller/goal/lang/{language}.json: no field phrases.{module}.{name}")
    return table[module][name]


def alt(module: str, name: str, language: str = "en") -> str:
    """The phrase list ``name`` of ``module`` as the body of a regex alternation ('a|b|c')."""
    return "|".join(phrases(module, name, language))


def alts(module: str, *names: str, language: str = "en") -> str:
    """Several phrase lists of ``module`` as one alternation body, in the order named: a class that
    other patterns take a part of (``questions``: 'auxiliary', 'wish_aux' and 'proposal_aux' are any
    auxiliary; 'auxiliary' alone leaves out the 'would you like' of a wish)."""
    return "|".join(alt(module, name, language) for name in names)
