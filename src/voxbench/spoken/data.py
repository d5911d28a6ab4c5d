"""Values in structured data (tool results, tool parameters) as the keys of :mod:`.keys`.

A tool result holds '2026-06-10', 14.5 or 'FL_SW770_20260610'; a claim in speech is supported
when its key is among the keys of the data the conversation had. Free text inside results is
read as speech, by the :class:`~voxbench.spoken.keys.ValueReader` given.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from voxbench.spoken.codes import canon_code
from voxbench.spoken.keys import NUM, ValueReader, num_text, time_key
from voxbench.spoken.words import FIELD_TAIL_WORDS, MONEY_FIELD_WORDS

_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})")
_HHMM = re.compile(r"\b(\d{1,2}):(\d{2})\b")


def data_keys(obj: Any, reader: ValueReader) -> set[str]:
    """Keys of every scalar in a JSON-like value (strings are also split into parts)."""
    keys: set[str] = set()
    for leaf in leaves(obj):
        keys |= scalar_keys(leaf, reader)
    return keys


def leaves(obj: Any) -> Iterable[Any]:
    """Every scalar of a JSON-like value (dict values, list and tuple items), None left out."""
    if isinstance(obj, dict):
        for v in obj.values():
            yield from leaves(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from leaves(v)
    elif obj is not None:
        yield obj


def scalar_keys(v: Any, reader: ValueReader) -> set[str]:
    """Keys of one scalar: a number; a string's dates, times, whole code and digit parts."""
    if isinstance(v, bool):
        return set()
    if isinstance(v, int | float):
        return {f"n:{num_text(str(abs(v)))}"}
    s = str(v)
    keys: set[str] = set()
    for _y, mo, d in _ISO_DATE.findall(s):
        keys.add(f"d:{mo}{d}")
    for h, m in _HHMM.findall(s):
        if (k := time_key(int(h), int(m), None)) is not None:
            keys.add(k)
    compact = canon_code(s)
    if compact and len(s) <= 40:
        keys.add(f"c:{compact}")
    for part in re.split(r"[^A-Za-z0-9.]+", s):
        p = part.strip(".").lower()
        if not p:
            continue
        if NUM.match(p):
            keys.add(f"n:{num_text(p)}")
            keys.add(f"c:{canon_code(p)}")
        elif any(ch.isdigit() for ch in p):
            keys.add(f"c:{canon_code(p)}")
    if len(s) > 40:  # free text inside results: its spoken values too
        keys |= {v.key for v in reader.spoken_values(s)}
    return keys


_NAME_PART = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z]?[a-z]+|\d+")


def name_parts(name: str) -> list[str]:
    """A field name's words, lower-case: split on anything not a letter or digit and on
    camelCase ("fareClass" -> fare, class; "amountUSD" -> amount, usd)."""
    return [p.lower() for w in re.split(r"[^A-Za-z0-9]+", name) for p in _NAME_PART.findall(w)]


def is_money_field(name: str) -> bool:
    """Whether a field name says its number is an amount of money: its head, the last word once
    a currency or a bound after it ("amount_usd", "refund_amount_eligible") or a rate's "per ..."
    ("price_per_night") is set aside, is a money word, whole ("fee", "fees"; not "feedback").
    A money word before another noun names that thing, no amount: "premium_economy" is a cabin
    (a seat count under "available_seats"), "fare_class", "refund_id", "total_calls". A field
    under a money field ("fares": {"premium_economy": 690.0}) is money through its parent."""
    parts = name_parts(name)
    if "per" in parts[1:]:
        parts = parts[: parts.index("per", 1)]
    while parts and parts[-1] in FIELD_TAIL_WORDS:
        parts.pop()
    if not parts:
        return False
    head = parts[-1]
    return head in MONEY_FIELD_WORDS or (head.endswith("s") and head[:-1] in MONEY_FIELD_WORDS)


def money_keys(obj: Any, reader: ValueReader, field: str = "") -> set[str]:
    """`m:<amount>` keys of numbers held under money-like field names (fare_paid, change_fee,
    total_collected...): the only numbers arithmetic on amounts may start from."""
    out: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out |= money_keys(v, reader, str(k) if is_money_field(str(k)) else field)
    elif isinstance(obj, list | tuple):
        for v in obj:
            out |= money_keys(v, reader, field)
    elif field and isinstance(obj, int | float) and not isinstance(obj, bool):
        out.add(f"m:{num_text(str(abs(obj)))}")
    elif field and isinstance(obj, str):
        out |= reader.spoken_money(obj)
    return out


def code_supported(code: str, keys: set[str]) -> bool:
    """A code claim is supported when a source holds it, or holds it inside a longer id
    (SW770 inside FL_SW770_20260610), or it is a bare number the sources hold."""
    body = code[2:]
    if _held(body, keys):
        return True
    # two values run together by the speaker ("floor one, F L one" -> 1 + fl1)
    return len(body) >= 4 and any(
        _held(body[:i], keys, short_ok=True) and _held(body[i:], keys, short_ok=True)
        for i in range(1, len(body))
    )


def _held(body: str, keys: set[str], short_ok: bool = False) -> bool:
    if f"c:{body}" in keys or f"n:{body}" in keys:
        return True
    if short_ok and body.isdigit() and len(body) == 1:
        return True
    if len(body) >= 3 and any(k.startswith("c:") and body in k for k in keys):
        return True
    # a spoken label before a known code with digits ("interaction I D, I N T zero zero one" ->
    # id + int1; "N P I 3342..." -> npi + 3342...): up to three letters, then a code of four or more
    lead = len(body) - len(body.lstrip("abcdefghijklmnopqrstuvwxyz"))
    for i in range(1, min(lead, 3) + 1):
        rest = body[i:]
        if (
            len(rest) >= 4
            and any(ch.isdigit() for ch in rest)
            and (f"c:{rest}" in keys or f"n:{rest}" in keys)
        ):
            return True
    # a known code with a spoken prefix / suffix around it ("I D E M P ..." -> id + emp62210)
    return len(body) >= 6 and any(
        k.startswith("c:") and len(k) - 2 >= 5 and k[2:] in body and len(body) - (len(k) - 2) <= 2
        for k in keys
    )
