"""Heard text in one normal form: number words as digits, spelled sequences joined into codes.

Agents and callers speak codes letter by letter with digits as words ("E M P zero six seven
five two one"), dates as words ("October fifteenth, twenty twenty-six") and times with AM/PM.
:func:`tokens` turns number words into digit strings and :func:`runs` joins spelled sequences
back into codes, so ``EMP067521``, ``E M P 0 6 7 5 2 1`` and the words above all meet. The
date, time and money readers (:mod:`.dates`, :mod:`.times`, :mod:`.money`) and the fact
matcher (:mod:`.match`) read these tokens.
"""

from __future__ import annotations

import re
from functools import lru_cache

from voxbench.spoken.words import ORDINALS, SCALES, TENS, UNITS

SEPARATORS = {"dash", "hyphen", ","}
CHUNK_JOINERS = {"then"}
"""A word that goes on with a code read in chunks ('three three four two three, then three one
four four four'; '33423, then 31444' as a recogniser writes it): inside a run it joins."""
_WORD = re.compile(r"[a-z0-9]+|[.?!;]|,")


def _is_number_word(w: str) -> bool:
    return w in UNITS or w in TENS or w in ORDINALS or w in SCALES


def _raw_tokens(text: str) -> list[str]:
    t = text.lower().replace("’", "'").replace("'s ", " ").replace("'", "")
    t = re.sub(r"(\d),(\d{3})", r"\1\2", t)  # 2,000,000 -> 2000000
    t = re.sub(r"\b(\d+)(st|nd|rd|th)\b", r"\1", t)
    t = re.sub(r"\ba\.?m\.?(?=\W|$)", " am ", t)
    t = re.sub(r"\bp\.?m\.?(?=\W|$)", " pm ", t)
    t = re.sub(r"(?<=[a-z])-(?=[a-z])", " ", t)  # twenty-five, self-service
    t = t.replace("-", " - ").replace("_", " ")
    return _WORD.findall(t.replace(" - ", " dash "))


def _numbers(words: list[str]) -> list[str]:
    """Number words to digit strings, greedily: 'twenty twenty six' -> 20 26, 'one hundred fifteen' -> 115."""
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if w == "oh" and out and out[-1].isdigit() and nxt in UNITS and 1 <= UNITS[nxt] <= 9:
            out.append(f"0{UNITS[nxt]}")  # "four oh five" -> 4 05 (4:05), "seven oh three" -> 7 03
            i += 2
            continue
        if w.isdigit() and len(w) <= 3 and nxt in SCALES:  # '2 million' as a recogniser writes 'two million'
            out.append(str(int(w) * SCALES[nxt]))
            i += 2
            continue
        if not _is_number_word(w) or (w == "oh" and not (out and out[-1].isdigit())):
            out.append(w)
            i += 1
            continue
        total, cur, last = 0, 0, ""
        j = i
        while j < len(words) and _is_number_word(words[j]):
            x = words[j]
            if x == "oh" and last:
                break
            if x in SCALES:
                if not last:
                    break
                cur = max(cur, 1) * SCALES[x]
                if SCALES[x] > 100:
                    total, cur = total + cur, 0
                last = "scale"
            elif x in TENS:
                if last in ("unit", "tens", "ord"):
                    break
                cur += TENS[x]
                last = "tens"
            else:
                v = UNITS.get(x, ORDINALS.get(x, 0))
                if last == "unit" or last == "ord" or (last == "tens" and (v >= 10 or cur % 10)):
                    break
                cur += v
                last = "ord" if x in ORDINALS else "unit"
            j += 1
        if j == i:  # a lone scale word
            out.append(w)
            i += 1
            continue
        out.append(str(total + cur))
        i = j
    return out


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens with number words as digit strings and a few separators kept.

    This is the matching tokeniser (the caller's ear, :mod:`.match`); :class:`.keys.ValueReader`
    is the other one, on purpose. ValueReader reads words as the normaliser it is given writes
    them (eval gives EVA's, ``eval/wer_norm``, so the offline judges read values as EVA's metrics
    do; this package cannot import it) and keys whole values per clause ('four PM' -> ``t:1600``,
    'six twenty-one' -> 621). Here number words fold by themselves, each digit group its own
    token ('six twenty-one' -> 6 21), and separators and sentence ends stay so :func:`runs` can
    join a code spelled across them and a fact value can be found in any form. On EVA's 3,305
    reference lines the two agree on the word tokens of 29 % and on the numbers of 51 %: one in
    place of the other would change the caller's replies or the gate's figures."""
    return list(_tokens(text))


@lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[str, ...]:
    # cached: a turn is matched against every fact value; parsing it once keeps a turn in milliseconds
    return tuple(_numbers(_raw_tokens(text)))


def _code_piece(tok: str) -> bool:
    return len(tok) == 1 or any(c.isdigit() for c in tok)


def runs(text: str) -> list[str]:
    """Codes as heard (see :func:`_runs`)."""
    return list(_runs(text))


@lru_cache(maxsize=8192)
def _runs(text: str) -> tuple[str, ...]:
    """Codes as heard: maximal sequences of single letters, digits and mixed tokens, joined.

    "E M P zero six seven" -> "emp067"; "P O L, two zero two five" -> "pol2025"; "33423, then
    three one four four four" -> "3342331444" (:data:`CHUNK_JOINERS`); a sentence end
    or an ordinary word breaks a run (an ordinary word is its own run, so all-letter codes like
    "KOLTSF" count too).
    """
    out: list[str] = []
    cur = ""
    for tok in tokens(text):
        if tok in SEPARATORS or (tok in CHUNK_JOINERS and cur):
            continue
        if tok in ".?!;":
            if cur:
                out.append(cur)
            cur = ""
            continue
        if _code_piece(tok):
            cur += tok
            continue
        if cur:
            out.append(cur)
        cur = ""
        out.append(tok)
    if cur:
        out.append(cur)
    return tuple(out)


def compact(value: str) -> str:
    """A value's letters and digits only, lower-cased ('POL-2025-RJRNY2' -> 'pol2025rjrny2')."""
    return re.sub(r"[^a-z0-9]", "", value.lower())


def sentences_of(text: str) -> list[str]:
    """Sentences (and lines) of a turn or a criterion."""
    parts = re.split(r"(?<=[.?!])\s+|\n+", text.strip())
    return [p.strip() for p in parts if p.strip()]
