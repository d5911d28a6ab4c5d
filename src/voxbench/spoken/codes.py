"""Codes and identifiers: which values are codes, how a caller spells one, one comparable form.

A caller spells a code letter by letter with digits as words ('ZK3FFW' -> 'Z K three F F W');
a judge compares a code as heard with one in tool data by :func:`canon_code`.
"""

from __future__ import annotations

import re

from voxbench.spoken.dates import ISO_DATE
from voxbench.spoken.times import parse_time_value
from voxbench.spoken.words import DIGIT_WORDS


def spell_chars(chunk: str) -> str:
    """Each letter as a capital, each digit as its word: 'rj2' -> 'R J two'."""
    return " ".join(DIGIT_WORDS[int(c)] if c.isdigit() else c.upper() for c in chunk if c.isalnum())


def is_code(value: str) -> bool:
    """A code to spell: one token of letters and digits with a digit, or an all-caps token (ZK3FFW, FL3)."""
    v = value.strip()
    if not v or " " in v or "@" in v or ISO_DATE.match(v) or parse_time_value(v):
        return False
    core = re.sub(r"[-_.]", "", v)
    if not core.isalnum():
        return False
    if any(p.isalpha() and p.islower() and len(p) >= 2 for p in re.split(r"[-_.]", v)):
        return False  # an enum such as '32_inch' or 'end-of-life', said as words
    segments = [p for p in re.split(r"[-_.]", v) if p]
    if len(segments) > 1 and all(p.isupper() for p in segments):
        return True  # GRP-DBREAD
    return any(c.isdigit() for c in core) or (len(core) >= 2 and core.isupper() and len(core) <= 8)


def spell_code(value: str) -> str:
    """'ZK3FFW' -> 'Z K three F F W'; 'POL-2025-RJRNY2' -> 'P O L, two zero two five, R J R N Y two'."""
    return ", ".join(spell_chars(part) for part in re.split(r"[-_.\s]+", value.strip()) if part)


def canon_code(s: str) -> str:
    """Lower-case alphanumerics with leading zeros of digit groups dropped (EVA's normaliser
    drops them from speech: "N zero eight" -> n8), so both sides compare equal."""
    return re.sub(r"(?<![0-9])0+(?=[0-9])", "", re.sub(r"[^a-z0-9]", "", s.lower()))
