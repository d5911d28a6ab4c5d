"""The bench's word tables, one JSON file per language (data, not code)."""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel

from voxbench.spoken.tables import read_table


class Words(BaseModel):
    months: list[str]
    abbreviations: dict[str, str]
    not_values: list[str]
    option_filler: list[str]
    number_words: dict[str, int]
    """Number words a clock time is said with ('ten thirty', 'four oh five'): units, teens, tens."""
    clock: dict[str, list[str]]
    """``zero_minutes`` ('oh five'), ``day_half`` (am, pm), ``span`` (the words that join a range)."""
    option_grammar: dict[str, list[str]]
    """``wh`` words, ``relative`` pronouns, ``negation`` words and what ends a negation's reach."""
    key_filler: list[str]
    phrases: dict[str, dict[str, list[str]]]
    """Phrase lists by module and name: the branches of an alternation, in the order they are tried
    (the grammar around them stays in the module that compiles them)."""


@cache
def words(language: str = "en") -> Words:
    """The tables of ``language`` (``bench/lang/<language>.json``); a clear error if there are none."""
    return read_table(__package__, f"{language}.json", Words, "bench/lang")


def alt(module: str, name: str, language: str = "en") -> str:
    """The phrase list ``name`` of ``module`` as the body of a regex alternation ('a|b|c')."""
    table = words(language).phrases
    if name not in table.get(module, {}):
        raise ValueError(f"bench/lang/{language}.json: no field phrases.{module}.{name}")
    return "|".join(table[module][name])
