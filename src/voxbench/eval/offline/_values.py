"""The offline judges' value reader: :mod:`voxbench.spoken` read through EVA's normaliser.

Values in speech and in tool data are compared as keys (`c:` codes, `n:` numbers, `t:` times,
`d:` dates, `m:` money; :mod:`voxbench.spoken.keys`). The reading rules are the project's one
spoken-values module; what is eval's here is only the normaliser the words go through
(``voxbench.eval.normalize``, EVA's), bound once.
"""

from __future__ import annotations

from typing import Any

from voxbench.eval.normalize import normalize_text
from voxbench.spoken import data
from voxbench.spoken.codes import canon_code
from voxbench.spoken.data import code_supported
from voxbench.spoken.keys import Value, ValueReader
from voxbench.spoken.words import MONTHS, NATO

__all__ = [
    "MONTHS",
    "NATO",
    "Value",
    "amount_values",
    "canon_code",
    "code_supported",
    "data_keys",
    "money_keys",
    "scalar_keys",
    "spoken_money",
    "spoken_values",
    "text_keys",
]

READER = ValueReader(lambda clause: normalize_text(clause, values=True))
spoken_values = READER.spoken_values
amount_values = READER.amount_values
spoken_money = READER.spoken_money
text_keys = READER.text_keys


def data_keys(obj: Any) -> set[str]:
    """Keys of every scalar in a JSON-like value (:func:`voxbench.spoken.data.data_keys`)."""
    return data.data_keys(obj, READER)


def scalar_keys(v: Any) -> set[str]:
    return data.scalar_keys(v, READER)


def money_keys(obj: Any, field: str = "") -> set[str]:
    """`m:<amount>` keys of numbers under money-like field names (:func:`voxbench.spoken.data.money_keys`)."""
    return data.money_keys(obj, READER, field)
