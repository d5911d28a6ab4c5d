"""Facts said as a person says them: each value by its kind, each fact named in words.

A fact's *kind* comes from its value and its key's words, never from a scenario: a date
("March 25, 2026"), a time ("8 PM"), money ("$250": a number whose key names a cost, a fee, an
amount...), a code (spelled, "Z K three F F W"), a name, a number, yes/no, or free text. Its
*label* is its key in words ("latest acceptable arrival time"): a key word is spelled as letters
only when the scenario writes it in capitals (an acronym a person spells, "N P I", "P T O"); any
other short word is read as the word it is ("max", "bag"), and qualifiers after the label's head
noun ("time in MSP", "time BOS EST": places, zones, units) are left out, as a person leaves them.

:func:`said_problems` is the checker: a sentence that discloses some facts holds each disclosed
value, holds no value of any other fact (nor a date, time or amount no disclosed fact holds),
and spells no key word that is not an acronym of the scenario.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Literal

from voxbench.pipelines.caller.goal.lang import phrases, words
from voxbench.spoken import (
    ISO_DATE,
    compact,
    is_code,
    matchable,
    mentions,
    money,
    parse_time_value,
    say_value,
    times,
)
from voxbench.spoken.words import MONTH_NAMES

Kind = Literal["yes_no", "list", "date", "time", "money", "code", "name", "number", "text"]

# The word sets are data (``goal/lang/<lang>.json``, ``phrases.speech``).
MONEY_WORDS = frozenset(phrases("speech", "money_words"))
"""Key words that make a plain number an amount of money (in any domain)."""

HEAD_WORDS = frozenset(phrases("speech", "head_words"))
"""Label heads: short words after the last of them qualify it (a place, a zone, a unit)."""

GENERAL_ACRONYMS = frozenset(phrases("speech", "general_acronyms"))
"""Field words spelled in any domain (the scenario's own capitals add to these)."""

_LINKS = frozenset(phrases("speech", "links"))
"""Words that join a label's words ('date of birth'), never its first or last."""

_NUMBER = re.compile(r"^\$?\d[\d,]*(\.\d+)?$")
_WORD = re.compile(r"[A-Za-z][A-Za-z']*|\d+")


def key_parts(key: str) -> list[str]:
    """A key's words as written ('Latest acceptable arrival time (local)' -> its words; 'Husband's
    name' -> ['Husband', 'name']; 'TB_TEST' -> ['TB', 'TEST'])."""
    key = re.sub(r"\(.*?\)", " ", key)
    key = re.sub(r"'s\b", "", key)
    out: list[str] = []
    for w in re.split(r"[^A-Za-z0-9]+", key):
        out += re.findall(r"[A-Z]{2,}(?![a-z])|[A-Z]?[a-z]+|\d+", w)  # camelCase and CAPS runs
    return [w for w in out if w]


def value_kind(value: object, words: Iterable[str] = ()) -> Kind:
    """What kind of value a fact holds, by the value and its key's words."""
    if isinstance(value, bool):
        return "yes_no"
    if isinstance(value, list | dict):
        return "list"
    v = str(value).strip()
    if ISO_DATE.match(v):
        return "date"
    if re.fullmatch(r"\d{1,2}:\d{2}(\s*[ap]\.?m\.?)?", v, re.I) or re.fullmatch(
        r"\d{1,2}\s*[ap]\.?m\.?", v, re.I
    ):
        return "time"
    lower = {w.lower() for w in words}
    if _NUMBER.match(v) and (v.startswith("$") or lower & MONEY_WORDS):
        return "money"
    if _NUMBER.match(v) or isinstance(value, int | float):
        return "number"
    if is_code(v):
        return "code"
    if "name" in lower:
        return "name"
    return "text"


def say_money(value: object) -> str:
    """'$250', '$79.99': what a TTS reads as dollars and cents."""
    n = float(re.sub(r"[^\d.]", "", str(value)) or 0)
    return f"${n:,.0f}" if n.is_integer() else f"${n:,.2f}"


_UNIT_CODE = re.compile(r"([A-Za-z]{2,4})[-\s]?(\d{1,4})")


def unit_form(value: object) -> str | None:
    """A code that is a unit's abbreviation and a number, as a person says it ('FL2': 'floor 2',
    'BLD3': 'building 3'; the table is data: ``goal/lang``); None for any other value."""
    m = _UNIT_CODE.fullmatch(str(value).strip())
    unit = words().unit_abbreviations.get(m.group(1).lower()) if m else None
    return f"{unit} {int(m.group(2))}" if m and unit else None


_NAME_AND_CODE = re.compile(r"(.*\S)\s*\(([^()]+)\)")

MEASURE = re.compile(rf"^(\d+(?:\.\d+)?)[\s_-]*({'|'.join(phrases('speech', 'measure_units'))})$", re.I)
"""A number and a unit said as one adjective, as a person says a size ('14_inch' -> '14-inch')."""


def measure_form(value: object) -> str | None:
    """'14 inch' -> '14-inch' (a measure said as one word); None for any other value."""
    m = MEASURE.match(str(value).strip()) if isinstance(value, str) else None
    return f"{m.group(1)}-{m.group(2).lower()}" if m else None


def speak_value(value: object, words: Iterable[str] = ()) -> str:
    """One value as said: by its kind (:func:`value_kind`). A name written with its code in
    brackets ('Harbor Building (BLD2)') is said as the name, then the code: brackets are not
    spoken."""
    m = _NAME_AND_CODE.fullmatch(str(value).strip()) if isinstance(value, str) else None
    if m and is_code(m.group(2).strip()):
        return f"{speak_value(m.group(1), words)}, {say_value(m.group(2).strip())}"
    kind = value_kind(value, words)
    if (measure := measure_form(value)) is not None:
        return measure
    if kind == "code" and (unit := unit_form(value)) is not None:
        return unit
    if kind == "money":
        return say_money(value)
    if kind == "time" and parse_time_value(str(value)) is None:
        return re.sub(
            r"\s*([ap])\.?m\.?$", lambda m: f" {m.group(1).upper()}M", str(value).strip(), flags=re.I
        )
    return say_value(value)


def acronyms_of(texts: Iterable[str]) -> set[str]:
    """Words a scenario writes only in capitals (2 to 5 letters: 'NPI', 'PTO', 'OTP'): acronyms a
    person spells; a word it also writes in small letters is an emphasis ('the FIRST one'), no
    acronym. Lower-cased."""
    caps: set[str] = set()
    small: set[str] = set()
    for t in texts:
        t = re.sub(r"<[^>]*>", " ", t or "")  # placeholders ('<PHONE>') are no words of the text
        caps |= {w.lower() for w in re.findall(r"\b[A-Z]{2,5}s?\b", t)}
        small |= {w.lower() for w in re.findall(r"\b[A-Za-z]*[a-z][A-Za-z]*\b", t)}
    caps = {w[:-1] if w.endswith("s") and w[:-1] in caps else w for w in caps}
    return caps - small


_POSSESSIVE = re.compile(r"([A-Za-z]+)['’]s\b")


def label(key: str, drop: Iterable[str], acronyms: AbstractSet[str]) -> str:
    """A key in words: ``drop`` are words that say nothing ('if', 'asked', 'usd'); acronyms spelled
    ('N P I'), 'id' said 'ID', qualifiers after the last head noun left out ('time in MSP')."""
    dropped = {d.lower() for d in drop}
    owners = {m.group(1).lower() for m in _POSSESSIVE.finditer(key)}  # "Husband's name": said so
    words = [
        w for w in key_parts(_POSSESSIVE.sub(r"\1", key)) if w.lower() not in dropped and not w.isdigit()
    ]
    while words and words[0].lower() in _LINKS:
        words.pop(0)
    while words and words[-1].lower() in _LINKS:
        words.pop()
    heads = [i for i, w in enumerate(words) if w.lower() in HEAD_WORDS]
    if heads and heads[-1] < len(words) - 1:
        tail = words[heads[-1] + 1 :]
        if all(len(w) <= 3 or w.isupper() for w in tail):
            words = words[: heads[-1] + 1]
    out: list[str] = []
    for w in words:
        low = w.lower()
        if low == "id":
            out.append("ID")
        elif low in acronyms or (w.isupper() and len(w) >= 2 and low in acronyms | {"id"}):
            out.append(" ".join(low.upper()))
        elif low not in out:
            out.append(f"{low}'s" if low in owners else low)
    return " ".join(out)


# -- the checker --------------------------------------------------------------------------------


def _spelled_runs(text: str) -> list[str]:
    """Runs of two or more single capital letters ('M A X', 'B O S E S T'), lower-cased and joined."""
    return ["".join(m.split()).lower() for m in re.findall(r"\b[A-Z](?: [A-Z]\b)+", text)]


def _values(value: object) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value if not isinstance(v, dict | list)]
    if isinstance(value, dict):
        return [str(v) for v in value.values() if not isinstance(v, dict | list)]
    return [str(value)]


_MONTHS = tuple(MONTH_NAMES)  # the ground layer's month names (voxbench.spoken)


def _said_dates(text: str) -> list[tuple[int, int, int | None]]:
    """(month, day, year or None) of each date said as 'Month D[, YYYY]', and ISO dates."""
    out: list[tuple[int, int, int | None]] = []
    for m in re.finditer(
        r"\b(" + "|".join(_MONTHS) + r")\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?", text, re.I
    ):
        out.append(
            (_MONTHS.index(m.group(1).lower()) + 1, int(m.group(2)), int(m.group(3)) if m.group(3) else None)
        )
    out += [(int(mo), int(d), int(y)) for y, mo, d in re.findall(r"\b(\d{4})-(\d{2})-(\d{2})\b", text)]
    return out


def _numbers_in(text: str) -> list[float]:
    return [float(n.replace(",", "")) for n in re.findall(r"(?<![\w.])\d[\d,]*(?:\.\d+)?", text)]


IDENTIFIER = re.compile(r"^[a-z]+(?:_[a-z]+)+$")
"""A value written as a snake_case identifier ('vpn_gateway'): its words are said, acronyms spelled."""


def says(text: str, value: str) -> bool:
    """Whether ``text`` says ``value``: a date by month, day and year (when a year is said), a
    number by its amount ('12' says 12.0), any other value as :func:`.spoken.mentions` finds it."""
    v = value.strip()
    iso = ISO_DATE.match(v)
    if iso:
        y, mo, d = int(iso.group(1)), int(iso.group(2)), int(iso.group(3))
        return any((m, dd) == (mo, d) and yy in (None, y) for m, dd, yy in _said_dates(text))
    if _NUMBER.match(v):
        return float(re.sub(r"[^\d.]", "", v)) in _numbers_in(text) or mentions(text, v)
    unit = unit_form(v)
    if IDENTIFIER.match(v) and compact(v) in compact(text):
        return True  # 'vpn_gateway' said 'V P N gateway'
    if mentions(text, v) or (unit is not None and unit in text):
        return True
    said = say_value(v)  # said by its words: 'T B, test', 'mac O S', 'V P N keeps ...'
    return said != v and len(compact(said)) >= 3 and said.lower() in text.lower()


def _distinctive(value: str) -> bool:
    """A value that cannot be said by chance in a label: it holds a digit."""
    return matchable(value) and any(c.isdigit() for c in value)


def said_problems(
    text: str,
    disclosed: Mapping[str, object],
    others: Mapping[str, object],
    acronyms: Iterable[str] = (),
) -> list[str]:
    """What is wrong with a sentence that discloses ``disclosed`` (key -> value) and none of
    ``others``: a disclosed value missing; another fact's value (one with a digit: a date, time,
    amount, number or code) present; a date, time or amount no disclosed value holds; a run of
    spelled letters that is neither part of a disclosed code nor an acronym of the scenario.
    Empty when the sentence is right."""
    problems: list[str] = []
    said_values = [v for value in disclosed.values() for v in _values(value)]
    for key, value in disclosed.items():
        missing = [v for v in _values(value) if matchable(v) and not says(text, v)]
        if missing:
            problems.append(f"value of {key!r} not said: {missing}")
    for key, value in others.items():
        extra = [v for v in _values(value) if _distinctive(v) and says(text, v)
                 and not any(says(s, v) or says(v, s) for s in said_values)]  # fmt: skip
        if extra:
            problems.append(f"value of undisclosed {key!r} said: {extra}")
    held = " ".join(said_values + [speak_value(v) for v in said_values])
    held_dates = {(m, d) for m, d, _ in _said_dates(held)}
    held_times = set(times(held)) | {t for s in said_values if (t := parse_time_value(s)) is not None}
    held_amounts = set(_numbers_in(held)) | set(money(held))
    if any((m, d) not in held_dates for m, d, _ in _said_dates(text)):
        problems.append("a date no disclosed fact holds")
    if any(t not in held_times for t in times(text)):
        problems.append("a time no disclosed fact holds")
    if any(a not in held_amounts for a in money(text)):
        problems.append("an amount no disclosed fact holds")
    codes = "".join(re.sub(r"[^a-z0-9]", "", s.lower()) for s in said_values)
    spelled_ok = {a.lower() for a in acronyms}
    for run in _spelled_runs(text):
        if run not in spelled_ok and run not in codes:
            problems.append(f"letters spelled that are no value or acronym: {run!r}")
    return problems
