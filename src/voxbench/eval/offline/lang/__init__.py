"""The gate's caller validators' and the offline judges' word tables, one JSON file per language.

The validators (``_caller_end``, ``_caller_facts``, ``_caller_scope``, ``_caller_requests``) and
the faithfulness judge (``_faith_actions``) are a reader of their own: they do not share the goal
caller's tables (``pipelines/caller/goal/lang``) nor the bench's (``bench/lang``), so a phrase the
caller learns to hear does not also teach the gate that grades it. ``phrases`` holds alternation branches by module and name (the grammar around
them stays in the module); ``words`` holds plain word sets. ``function_words.json`` is the one
table across languages: telling languages apart reads all of them at once, in its order.
"""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel, RootModel

from voxbench.spoken.tables import read_table

_HERE = "eval/offline/lang"


class Words(BaseModel):
    phrases: dict[str, dict[str, list[str]]]
    """Phrase lists by module and name: the branches of an alternation, in the order they are tried."""
    words: dict[str, dict[str, list[str]]]
    """Word sets by module and name (stop words, inquiry verbs)."""


class FunctionWords(RootModel[dict[str, list[str]]]):
    """Language -> its most common short words."""


@cache
def tables(language: str = "en") -> Words:
    """The tables of ``language`` (``lang/<language>.json``); a clear error if there are none."""
    return read_table(__package__, f"{language}.json", Words, _HERE)


def _entry(field: str, module: str, name: str, language: str) -> list[str]:
    table = getattr(tables(language), field)
    if name not in table.get(module, {}):
        raise ValueError(f"{_HERE}/{language}.json: no field {field}.{module}.{name}")
    return list(table[module][name])


def alt(module: str, name: str, language: str = "en") -> str:
    """The phrase list ``name`` of ``module`` as the body of a regex alternation ('a|b|c')."""
    return "|".join(_entry("phrases", module, name, language))


def phrase_list(module: str, name: str, language: str = "en") -> list[str]:
    """The phrase list ``name`` of ``module`` as it is written (templates, not an alternation)."""
    return _entry("phrases", module, name, language)


def word_set(module: str, name: str, language: str = "en") -> frozenset[str]:
    """The word set ``name`` of ``module``."""
    return frozenset(_entry("words", module, name, language))


@cache
def function_words() -> dict[str, frozenset[str]]:
    """Each language's most common short words, in the table's order (ties go to the first)."""
    data = read_table(__package__, "function_words.json", FunctionWords, _HERE).root
    return {lang: frozenset(ws) for lang, ws in data.items()}
