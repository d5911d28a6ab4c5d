"""One language's phrase table of a package, read and checked: the one loader behind the word
tables of the goal caller, its endings, the gate's caller validators and the caller check.

Each of those readers keeps its own tables (a phrase one learns to hear must not teach the one
that grades it); what they share is only how a table is found, parsed and validated, and the
error a missing or malformed one gives (naming the file). The contractions, a fact of the
language and no phrase learned, are one table for all (:mod:`.contractions`).
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


def read_table(package: str, filename: str, model: type[M], where: str) -> M:
    """``filename`` in ``package``'s folder, validated as ``model``; ``where`` names the folder in
    errors ('bench/lang'). A missing file or one that does not fit the model is a ValueError
    naming the file."""
    path = files(package).joinpath(filename)
    if not path.is_file():
        raise ValueError(f"{where}/{filename}: no such table")
    try:
        return model.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (ValidationError, json.JSONDecodeError) as exc:
        raise ValueError(f"{where}/{filename}: not a valid table: {str(exc).splitlines()[0]}") from exc
