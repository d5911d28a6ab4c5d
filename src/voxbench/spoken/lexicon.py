"""Words of free-text values as a person says them, by an English lexicon shipped as data.

A fact value is written for a database ('macos', 'pto', 'CARDIOLOGY', 'BLS_UPLOAD', 'ORD→MSP
departing 1:00 PM on 2026-09-08'); a TTS reads it as written, and a person does not say it so.
Each word is said by what it is, told by the lexicon (``lexicon_data/en_words.txt.gz``: the
words of the CMU Pronouncing Dictionary, those it says only as letters marked):

* a word in capitals: a long lexicon word is a word ('CARDIOLOGY', 'UPLOAD'); any other is an
  acronym, spelled ('AUS', 'P E D S');
* a word in small letters: a lexicon word is said (an acronym of the lexicon spelled: 'hr'), and
  so is a word the lexicon knows with an ending or a beginning, or two joined ('syncing',
  'footrest'); a short unknown one is an acronym written small, spelled ('pto', 'cna', 'fmla');
  a lexicon word joined to a two-letter acronym is written as a TTS reads both ('macos':
  'macOS'); a word in mixed case is a name, said as written ('SkyWay');
* a code is spelled by its parts, a part that is a word said as the word ('BLS_UPLOAD': 'B L S
  upload', 'LIST_A': 'list A', not 'L I S T, A');
* in free text, an ISO date, a 24-hour time, a code with digits and an arrow are said as such.

:func:`unsaid_tokens` is the check of the bench (``benchmarks/caller_value_speech.py``): the
tokens of a spoken value that are none of a lexicon word, a spelled letter, a number, a time word.
"""

from __future__ import annotations

import gzip
import re
from functools import cache
from importlib import resources

from voxbench.spoken.codes import spell_chars, spell_code
from voxbench.spoken.dates import say_date
from voxbench.spoken.times import say_time

TIME_WORDS = frozenset({"AM", "PM"})
"""Words in capitals a TTS says as a person does ('8 AM')."""

LONG_CAPS = 4
"""Letters from which a word in capitals that is a lexicon word is said as the word ('UPLOAD',
'TEST'); a shorter one ('AUS', 'ICU') or a non-word ('PEDS') is spelled as an acronym."""

SHORT_ACRONYM = 4
"""Letters up to which a word in small letters that is no lexicon word is an acronym ('fmla')."""

MIN_PART = 3
"""Letters of the shorter word of a joined pair ('foot' + 'rest', 'white' + 'board')."""

SUFFIXES = ("s", "es", "ed", "ing", "er", "ers", "ly")
PREFIXES = ("re", "un", "pre", "non", "co")
"""Endings and beginnings that make a word of a lexicon word ('syncing', 'reverification')."""


@cache
def _lexicon() -> tuple[frozenset[str], frozenset[str]]:
    """(every word, the words said only as letters), lower case."""
    path = resources.files("voxbench.spoken") / "lexicon_data" / "en_words.txt.gz"
    words: set[str] = set()
    lettered: set[str] = set()
    with gzip.open(str(path), "rt", encoding="utf-8") as f:
        for line in f:
            w = line.strip()
            if not w or w.startswith("#"):
                continue
            if w.startswith("="):
                w = w[1:]
                lettered.add(w)
            words.add(w)
    return frozenset(words), frozenset(lettered)


def is_word(token: str) -> bool:
    """Whether ``token`` is an English word of the lexicon (any case)."""
    return token.lower() in _lexicon()[0]


def is_lettered(token: str) -> bool:
    """Whether the lexicon says ``token`` only as its letters ('hr', 'cpu')."""
    return token.lower() in _lexicon()[1]


def is_known(word: str, joined: bool = True) -> bool:
    """A word a TTS says as a person does: a lexicon word, one with a common ending or beginning
    ('syncing', 'reverification'), or (when ``joined``) two lexicon words of three letters or more
    joined ('footrest', 'proassurance'; not for a word in capitals: 'ENGCORE' is a code)."""
    low = word.lower()
    if is_word(low):
        return True
    if any(low.endswith(s) and is_word(low[: -len(s)]) for s in SUFFIXES if len(low) - len(s) >= MIN_PART):
        return True
    if any(low.startswith(p) and is_word(low[len(p) :]) for p in PREFIXES if len(low) - len(p) >= MIN_PART):
        return True
    return joined and any(
        is_word(low[:i]) and is_word(low[i:]) for i in range(MIN_PART, len(low) - MIN_PART + 1)
    )


def _acronym_tail(word: str) -> str | None:
    """A word joined to a two-letter acronym the lexicon holds, written as its owner writes it and a
    TTS reads it ('macos': 'macOS'), or None."""
    low = word.lower()
    head, tail = low[:-2], low[-2:]
    if len(head) >= MIN_PART and is_word(head) and not is_lettered(head) and is_word(tail):
        return head + tail.upper()
    return None


def say_word(word: str) -> str:
    """One word of letters as said (see the module's rules); any other token as it is."""
    if not word.isalpha() or len(word) < 2 or word.upper() in TIME_WORDS:
        return word
    if word.isupper():
        if len(word) >= LONG_CAPS and is_known(word, joined=False) and not is_lettered(word):
            return word.lower()
        return spell_chars(word)
    if not word.islower() and not word.istitle():
        return word  # mixed case: a name as its owner writes it ('SkyWay', 'McKenzie')
    if is_word(word):
        return spell_chars(word.upper()) if is_lettered(word) else word
    if word.istitle() or is_known(word):
        return word  # a name; a word with an ending, two words joined
    if len(word) <= SHORT_ACRONYM:
        return spell_chars(word.upper())
    return _acronym_tail(word) or word


def say_code(code: str) -> str:
    """A code as said: spelled by its parts ('POL-2025-RJRNY2': 'P O L, two zero two five, R J R N Y
    two'), a part that is a word of letters said as the word ('BLS_UPLOAD': 'B L S upload')."""
    parts = [p for p in re.split(r"[-_.\s]+", code.strip()) if p]
    glue = ", " if any(c.isdigit() for c in code) else " "  # a pause between groups of digits
    return glue.join(say_word(p) if p.isalpha() else spell_chars(p) for p in parts)


_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_HHMM = re.compile(r"\b(\d{1,2}):(\d{2})\b(?!\s*[AaPp]\.?[Mm]\b)")
_CODE = re.compile(r"\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{3,}\b")
_WORD = re.compile(r"[A-Za-z]+")


def say_text(text: str) -> str:
    """A free-text value as said: dates, 24-hour times, codes with digits, arrows and each word
    by :func:`say_word`; punctuation and spacing kept."""
    text = _ISO.sub(lambda m: say_date(m.group(0)), text)
    text = _HHMM_HALF.sub(_said_half_time, text)
    text = _HHMM.sub(lambda m: say_time(m.group(0)), text)
    text = text.replace("→", " to ")
    text = _CODE.sub(lambda m: "\0" + spell_code(m.group(0).upper()) + "\0", text)
    parts = text.split("\0")  # odd parts are spelled codes: left as they are
    return "".join(p if i % 2 else _WORD.sub(lambda m: say_word(m.group(0)), p) for i, p in enumerate(parts))


def say_dates_times(text: str) -> str:
    """Prose's written dates and 24-hour times as said ('rebooked to 2026-08-23 departing after
    14:00' -> 'rebooked to August 23, 2026 departing after 2 PM'; 'between 8:00 AM and 3:00 PM' ->
    'between 8 AM and 3 PM'); unlike :func:`say_text`, only a
    time that is 24-hour by its form ('14:30', '08:00'): in prose '3:00' may be either half of the day."""
    text = _ISO.sub(lambda m: say_date(m.group(0)), text)
    text = _HHMM_HALF.sub(_said_half_time, text)
    return _HHMM_24.sub(lambda m: say_time(m.group(0)), text)


_HHMM_24 = re.compile(r"\b(?:1[3-9]|2[0-3]|0\d):\d{2}\b(?!\s*[AaPp]\.?[Mm]\b)")
_HHMM_HALF = re.compile(r"\b(?:1[0-2]|0?[1-9]):\d{2}\s*[AaPp](?:\.[Mm]\.|[Mm]\b)")
"""A time with its half of the day ('8:00 AM', '3:00 p.m.'): said '8 AM', as a person does, not 'eight
oh oh'."""


def _said_half_time(m: re.Match[str]) -> str:
    """'3:00 p.m.' ending the text keeps the full stop its last dot also was (inside the text a
    capital after it may open a sentence or a name, 'p.m. Eastern': no stop is added)."""
    ends = m.group(0).endswith(".") and not m.string[m.end() :].strip()
    return say_time(m.group(0)) + ("." if ends else "")


_TOKEN = re.compile(r"[A-Za-z]+(?:['-][A-Za-z]+)*|\d+|[^\sA-Za-z\d,.;:!?'\"()$&/-]")


def _known_token(tok: str) -> bool:
    """A token of letters (an apostrophe's ending dropped; a hyphenated one by its parts or joined;
    a lexicon word and an acronym in capitals joined, read apart: 'macOS')."""
    tok = re.sub(r"'[a-z]+$", "", tok)
    m = re.fullmatch(r"([a-z]{3,})([A-Z]{2,3})", tok)
    if m and is_word(m.group(1)):
        return True
    parts = tok.split("-")
    return all(is_known(p) or len(p) == 1 for p in parts) or is_known("".join(parts))


_SPELLED_RUN = re.compile(r"\b[A-Z](?: [A-Z]\b)+")


def unsaid_tokens(spoken: str, names: bool = False, words: bool = True) -> list[str]:
    """Tokens of a spoken value a TTS would not say as a person does: a word in capitals (of two
    letters or more, but 'AM'/'PM'), a word of letters that is not known (:func:`is_known`; a
    capitalised one is allowed when ``names``: a person's or product's name; none checked unless
    ``words``: an e-mail's names), a lexicon word spelled letter by letter ('T E S T'), a 24-hour
    or zero-led time or one on the hour written with its minutes ('8:00 AM'), an ISO date, digits joined to letters, a symbol that is not punctuation."""
    out: list[str] = []
    for run in _SPELLED_RUN.findall(spoken):
        joined = run.replace(" ", "")
        if len(joined) >= LONG_CAPS and is_word(joined) and not is_lettered(joined):
            out.append(run)
    out += _ISO.findall(spoken)
    for m in re.finditer(r"\b(\d{1,2}):(\d{2})\b(\s*[AaPp]\.?[Mm]\b)?", spoken):
        if not m.group(3) or m.group(1).startswith("0") or m.group(2) == "00":
            out.append(m.group(0))  # '14:30', '01:30 AM', '8:00 AM' ('eight oh oh')
    out += re.findall(r"\b(?=\w*\d)(?=\w*[A-Za-z])\w+\b", spoken)
    for tok in _TOKEN.findall(spoken):
        if tok.isdigit() or tok in TIME_WORDS:
            continue
        if not tok[0].isalpha():
            out.append(tok)
        elif len(tok) == 1:
            continue  # a spelled letter, 'a', 'I'
        elif (tok.isupper() and "-" not in tok) or (
            words and not _known_token(tok) and not (names and tok[0].isupper())
        ):
            out.append(tok)
    return out
