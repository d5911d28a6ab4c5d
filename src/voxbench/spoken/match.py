"""Whether heard text says a fact's value, in any of the forms a voice call uses.

A caller matching what the agent asked or read back, and a bench checking what a caller
disclosed, both ask :func:`mentions`: dates, times and amounts are compared as values, codes
as joined runs of spelled letters and digits, acronyms by their initials ('paid time off' for
'PTO'), numbered places by their abbreviations ('FL3' as 'floor three') and airport codes by
their cities (:mod:`.airports`).
"""

from __future__ import annotations

import re
from itertools import pairwise

from voxbench.spoken.airports import AIRPORT_NAMES, airport_codes
from voxbench.spoken.dates import ISO_DATE, Date, dates
from voxbench.spoken.money import money
from voxbench.spoken.say import AT, DOT
from voxbench.spoken.text import CHUNK_JOINERS, SEPARATORS, compact, runs, tokens
from voxbench.spoken.times import parse_time_value, times

_COMMON = {
    "a", "an", "the", "i", "you", "we", "us", "it", "is", "am", "are", "was", "be", "to", "of", "in", "on",
    "at", "by", "for", "and", "or", "no", "not", "yes", "ok", "okay", "my", "your", "me", "our", "this",
    "that", "these", "those", "with", "from", "as", "do", "did", "does", "can", "could", "would", "will",
    "please", "thanks", "thank", "one", "two", "hi", "hello", "new", "other", "none", "true", "false",
    "null", "confirmed", "active", "all", "any", "some", "done",
}  # fmt: skip


def matchable(value: str) -> bool:
    """Whether a value is distinctive enough to be recognised in speech (not 'yes', 'us', 'true')."""
    c = compact(value)
    if not c or c in _COMMON:
        return False
    return len(c) >= 2


def mentions(text: str, value: str) -> bool:
    """Whether ``text`` says ``value`` (a fact), in any of the forms a voice call uses."""
    v = value.strip()
    if not v or not matchable(v):
        return False
    iso = ISO_DATE.match(v)
    if iso:
        want = Date(int(iso.group(2)), int(iso.group(3)), int(iso.group(1)))
        return any(
            d.month == want.month and d.day == want.day and d.year in (None, want.year) for d in dates(text)
        )
    tv = parse_time_value(v)
    if tv is not None:
        return tv in times(text)
    if v.startswith("$") or re.fullmatch(r"\d[\d,]*(\.\d+)?", v.replace("$", "")):
        num = float(re.sub(r"[^\d.]", "", v) or 0)
        if num in money(text):
            return True
    c = compact(v)
    rs = runs(text)
    has_digit = any(ch.isdigit() for ch in c)
    if has_digit or (len(c) >= 4 and " " not in v and v.upper() == v):
        if any(c == r or (len(c) >= 4 and c in r) for r in rs):
            return True
        if len(c) >= 8 and c in "".join(r for r in rs if r not in (DOT, AT)):
            return True
        if _joined_letters(rs, c):
            return True
    elif 2 <= len(c) <= 4 and v.isalpha() and (c in rs or _initials(text, c)):
        return True  # 'LAX' said 'L A X' (a whole run); 'pto' said 'paid time off'
    if _abbreviated(text, v):
        return True
    words = [w for w in tokens(v) if w not in SEPARATORS and w not in ".?!;"]
    toks = [w for w in tokens(text) if w not in SEPARATORS]
    n = len(words)
    if n == 0:
        return False
    if "@" in v:  # email: said as 'john dot smith at gmail dot com' or written
        flat = "".join(t for t in toks if t not in (DOT, AT) and t not in ".?!;")
        return c.replace("@", "") in flat or c in flat
    if any(toks[i : i + n] == words for i in range(len(toks) - n + 1)):
        return True
    return _airports_said(toks, rs, v)


def _joined_letters(rs: list[str], c: str) -> bool:
    """A code whose spelled letters a recogniser wrote as one word ('O K, then one zero zero' heard
    'OK, then one zero zero'): a word of two or three letters, then the code's digits, is the code."""
    rs = [r for r in rs if r not in CHUNK_JOINERS]
    return any(
        len(a) <= 3 and a.isalpha() and any(ch.isdigit() for ch in b) and a + b == c for a, b in pairwise(rs)
    )


def _initials(text: str, short: str) -> bool:
    """An acronym said in full: consecutive words of three letters or more whose initials spell it
    ('paid time off' for 'PTO'; 'and'/'of'/'the' between them skipped)."""
    words = [w for w in re.findall(r"[a-z]+", text.lower()) if w not in ("and", "of", "the", "for")]
    n = len(short)
    return any(
        "".join(w[0] for w in words[i : i + n]) == short and all(len(w) >= 3 for w in words[i : i + n])
        for i in range(len(words) - n + 1)
    )


def _airports_said(toks: list[str], rs: list[str], value: str) -> bool:
    """An airport-code value ('AUS to LAX') said by its cities ('from Austin to Los Angeles')."""
    codes = airport_codes(value)
    for code in codes:
        names = [[w for w in tokens(n) if w not in SEPARATORS] for n in AIRPORT_NAMES[code]]
        if code.lower() not in rs and not any(
            toks[i : i + len(nw)] == nw for nw in names for i in range(len(toks) - len(nw) + 1)
        ):
            return False
    return bool(codes)


_ABBREV_CODE = re.compile(r"^([A-Z]{2,4})[\s-]?(\d{1,3})$")  # 'FL3', 'BLD2'
_WORD_NUMBER = re.compile(r"^([A-Za-z]{3,})\s+(\d{1,3})$")  # 'floor 3', 'Building 2'


def _abbreviates(short: str, word: str) -> bool:
    """'fl' abbreviates 'floor', 'bld' 'building': same first letter, the rest in order."""
    if len(short) < 2 or len(word) <= len(short) or short[0] != word[0]:
        return False
    it = iter(word)
    return all(ch in it for ch in short)


def _abbreviated(text: str, value: str) -> bool:
    """A numbered place said the other way: the value 'FL3' as 'floor three', 'floor 3' as 'F L three'.

    Agents read codes from their systems and callers say the words (or the other way round);
    an abbreviation is the word's first letter and some of its next ones, in order."""
    v = value.strip()
    m = _ABBREV_CODE.match(v)
    if m:
        short, num = m.group(1).lower(), str(int(m.group(2)))
        toks = tokens(text)
        return any(
            toks[i + 1] == num and toks[i].isalpha() and _abbreviates(short, toks[i])
            for i in range(len(toks) - 1)
        )
    m = _WORD_NUMBER.match(v)
    if m:
        word, num = m.group(1).lower(), str(int(m.group(2)))
        for r in runs(text):  # 'B L D three, F L three' is one run: its letters+digits pieces
            for letters, digits in re.findall(r"([a-z]+)(\d+)", r):
                if int(digits) == int(num) and _abbreviates(letters, word):
                    return True
    return False
