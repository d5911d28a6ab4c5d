"""How a caller says one fact value: codes spelled, dates and times in words a TTS reads well."""

from __future__ import annotations

import re

from voxbench.spoken.codes import is_code, spell_chars
from voxbench.spoken.dates import ISO_DATE, say_date
from voxbench.spoken.lexicon import say_code, say_text
from voxbench.spoken.times import parse_time_value, say_time

DOT, AT, UNDERSCORE = "dot", "at", "underscore"
"""The words an e-mail address is said with ('t dot wexler at mailbox dot org', 'ana underscore lima')."""
_PART = rf"\w+(?:(?: {DOT} | {UNDERSCORE} |[._-])\w+)*"
EMAIL = re.compile(rf"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b{_PART} {AT} \w+(?:(?: {DOT} |\.)\w+)+\b", re.I)
"""An e-mail address as written, or as said by :func:`say_value`, or half of each ('t dot wexler at
mailbox.com': a recogniser writes what it knows as a domain)."""


def written_email(said: str) -> str:
    """An address matched by :data:`EMAIL`, as written ('t dot wexler at mailbox.com' ->
    't.wexler@mailbox.com'), lower case: two ways of saying one address compare equal."""
    s = said.strip().lower()
    for word, sign in ((DOT, "."), (UNDERSCORE, "_"), (AT, "@")):
        s = re.sub(rf"\s+{word}\s+", sign, s)
    return s


def say_value(value: object) -> str:
    """How the caller says one fact value: codes spelled, dates and times in words a TTS reads well."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return f"{value:,.0f}" if float(value).is_integer() else str(value)
    if isinstance(value, list):
        parts = [say_value(v) for v in value]
        return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1] if parts else ""
    if isinstance(value, dict):
        return ", ".join(say_value(v) for v in value.values())
    v = str(value).strip()
    if ISO_DATE.match(v):
        return say_date(v)
    if parse_time_value(v) is not None and re.fullmatch(r"\d{1,2}:\d{2}", v):
        return say_time(v)
    if re.fullmatch(r"\d{1,2}:\d{2}\s*[AaPp]\.?[Mm]\.?", v):
        return say_time(v)  # '10:00 AM' -> '10 AM', '01:30 AM' -> '1:30 AM': not 'ten oh oh', 'oh one'
    if "@" in v:
        return v.replace(".", f" {DOT} ").replace("@", f" {AT} ")
    if re.fullmatch(r"\+?[\d\s().-]{7,}", v):  # phone numbers: digit groups, digits as words
        return ", ".join(spell_chars(g) for g in re.split(r"[\s().-]+", v) if g)
    if is_code(v):
        return say_code(v)
    if " " not in v:  # an identifier ('end-of-life', 'read_only'): its words
        v = re.sub(r"(?<=\w)[_-](?=[a-z])|(?<=[a-z])[_-](?=\w)", " ", v)
    return say_text(v.replace("_", " "))
