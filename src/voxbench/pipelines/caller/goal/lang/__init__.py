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

import re
from functools import cache

from pydantic import BaseModel

from voxbench.spoken.contractions import contractions
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
    """The phrase list ``name`` of ``module`` as the body of a regex alternation ('a|b|c'), each
    contraction in it matching either form (:func:`either_form`)."""
    return "|".join(either_form(p, language) for p in phrases(module, name, language))


def either_form(pattern: str, language: str = "en") -> str:
    """``pattern`` with each contraction of the language (``spoken.contractions``) written as
    either form: a phrase written "can't" also hears "cannot", one written "do not" also "don't".
    Agents say both, and the tables were written from one agent's habits, a phrase at a time (the
    invariance bench, ``benchmarks/caller_invariance.py``, found replies that changed with the
    form alone). A form inside a look-behind, where a choice of lengths cannot stand, is left."""
    found, groups = _contraction_forms(language)
    out = found.sub(lambda m: _group(groups[m[0].lower()], m[0]), pattern)
    if out == pattern:
        return pattern
    try:
        re.compile(out)
    except re.error:
        return pattern
    return out


def _group(forms: list[str], like: str) -> str:
    """Every form as one group, capitalised as the pattern wrote the one it had ('I'm')."""
    if like[:1].isupper():
        forms = [f[:1].upper() + f[1:] for f in forms]
    return "(?:" + "|".join(forms) + ")"


@cache
def _contraction_forms(language: str) -> tuple[re.Pattern[str], dict[str, list[str]]]:
    """The regex finding any form of a contraction as a word of a pattern (a regex escape such as
    ``\\b`` may stand before it), and each form's group of every form of it. The forms are lower
    case: a group is capitalised as the pattern wrote the form it replaces (:func:`_group`)."""
    by_short: dict[str, list[str]] = {}
    for short, full in contractions(language):
        by_short.setdefault(short.lower(), [short.lower()]).append(full.lower())
    groups = {f: forms for forms in by_short.values() for f in forms}
    body = "|".join(re.escape(f) for f in sorted(groups, key=len, reverse=True))
    return re.compile(rf"(?:(?<=\\[a-zA-Z])|(?<![\w']))(?:{body})(?![\w'])", re.I), groups


def alts(module: str, *names: str, language: str = "en") -> str:
    """Several phrase lists of ``module`` as one alternation body, in the order named: a class that
    other patterns take a part of (``questions``: 'auxiliary', 'wish_aux' and 'proposal_aux' are any
    auxiliary; 'auxiliary' alone leaves out the 'would you like' of a wish)."""
    return "|".join(alt(module, name, language) for name in names)
