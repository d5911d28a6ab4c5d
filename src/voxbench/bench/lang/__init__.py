"""The bench's word tables, one JSON file per language (data, not code)."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from pydantic import BaseModel


class Words(BaseModel):
    months: list[str]
    abbreviations: dict[str, str]
    not_values: list[str]
    option_filler: list[str]
    key_filler: list[str]
    phrases: dict[str, dict[str, list[str]]]
    """Phrase lists by module and name: the branches of an alternation, in the order they are tried
    (the grammar around them stays in the module that compiles them)."""


@cache
def words(language: str = "en") -> Words:
    """The tables of ``language`` (``bench/lang/<language>.json``); a clear error if there are none."""
    path = files(__package__).joinpath(f"{language}.json")
    if not path.is_file():
        raise ValueError(f"bench/lang/{language}.json: no word tables for language {language!r}")
    return Words.model_validate(json.loads(path.read_text(encoding="utf-8")))


def alt(module: str, name: str, language: str = "en") -> str:
    """The phrase list ``name`` of ``module`` as the body of a regex alternation ('a|b|c')."""
    table = words(language).phrases
    if name not in table.get(module, {}):
        raise ValueError(f"bench/lang/{language}.json: no field phrases.{module}.{name}")
    return "|".join(table[module][name])
