"""The contractions of a language and their full forms: one table, heard and rewritten alike.

The goal caller hears a phrase of its tables in either form (``goal.lang.either_form``: a phrase
written "can't" also hears "cannot") and the invariance bench rewrites an agent turn from one form
to the other (``bench.perturb``, class ``contractions``). Each kept a list of its own, and the two
had drifted apart: the bench rewrote 18 of the 27 pairs the caller heard, so a turn saying
"haven't" or "they're" was never rewritten to test the caller's hearing of it.

Shared, the table is no test of itself: a contraction missing from it is neither heard in both
forms nor rewritten by the bench (a grader's table kept apart could find it). It is a fact of the
language, not a phrase one agent's habits taught, so it is written once, whole; what neither
reader knows the live reads find.
"""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel

from voxbench.spoken.tables import read_table


class ContractionTable(BaseModel):
    why: str = ""
    contractions: list[tuple[str, str]]
    """(contracted, full) pairs, as written in running text ('I'm', 'I am'); a contraction with two
    full forms has a pair for each, the usual one first ("can't": 'cannot', then 'can not')."""


@cache
def contractions(language: str = "en") -> list[tuple[str, str]]:
    """The (contracted, full) pairs of ``language`` (``spoken/lexicon_data/contractions_<language>.json``)."""
    table = read_table(
        "voxbench.spoken", f"lexicon_data/contractions_{language}.json", ContractionTable, "spoken"
    )
    return table.contractions
