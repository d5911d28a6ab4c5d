"""The goal caller's word tables, one JSON file per language (data, not code)."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from pydantic import BaseModel


class Words(BaseModel):
    unit_abbreviations: dict[str, str]
    """A code's letters that abbreviate a unit a person says in full ('FL2': 'floor 2')."""


@cache
def words(language: str = "en") -> Words:
    """The tables of ``language`` (``goal/lang/<language>.json``); a clear error if there are none."""
    path = files(__package__).joinpath(f"{language}.json")
    if not path.is_file():
        raise ValueError(f"pipelines/caller/goal/lang/{language}.json: no word tables for language {language!r}")
    return Words.model_validate(json.loads(path.read_text(encoding="utf-8")))
