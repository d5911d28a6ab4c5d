"""voxbench's documented English text normaliser for WER and entity matching ("vb-en-1").

Steps, in order (a simplified take on EVA's §3.4 list, our own code):
1. drop bracketed tags (`[slow]`, `[user interrupts]`); NFKC; curly apostrophes -> '
2. lower-case; "$12.50" -> "12.50 dollars"; hyphens and slashes between tokens -> space
3. remove punctuation except apostrophes inside words and decimal points
4. spoken numbers -> digits ("twenty five" -> 25, "one hundred twenty" -> 120,
   "oh"/"zero" inside digit runs -> 0); ordinals keep their suffix ("third" -> 3rd)
5. collapse runs of >= 3 single letters/digits ("z k 3" -> "zk3"); strip leading zeros
   of multi-digit numbers; collapse whitespace.
"""

from __future__ import annotations

import re
import unicodedata

NORMALIZER_ID = "vb-en-1"

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_ORD = {
    "first": (1, "st"), "second": (2, "nd"), "third": (3, "rd"), "fourth": (4, "th"), "fifth": (5, "th"),
    "sixth": (6, "th"), "seventh": (7, "th"), "eighth": (8, "th"), "ninth": (9, "th"), "tenth": (10, "th"),
    "eleventh": (11, "th"), "twelfth": (12, "th"), "thirteenth": (13, "th"), "fourteenth": (14, "th"),
    "fifteenth": (15, "th"), "sixteenth": (16, "th"), "seventeenth": (17, "th"), "eighteenth": (18, "th"),
    "nineteenth": (19, "th"), "twentieth": (20, "th"), "thirtieth": (30, "th"),
}  # fmt: skip


def _suffix(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _numbers(tokens: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        w = tokens[i]
        if w in _UNITS or w in _TENS or (w in _ORD):
            total, cur, j, ordinal = 0, 0, i, False
            while j < len(tokens):
                x = tokens[j]
                if x in _UNITS and (cur % 10 == 0 or cur == 0) and not (cur and _UNITS[x] >= 10):
                    if cur and cur < 20 and cur % 100 != 0:
                        break
                    cur += _UNITS[x]
                elif x in _TENS and cur % 100 == 0:
                    cur += _TENS[x]
                elif x in _ORD and (cur % 10 == 0):
                    v = _ORD[x][0]
                    if cur and v >= 10 and cur % 100 != 0:
                        break
                    cur += v
                    ordinal = True
                    j += 1
                    break
                elif x in _SCALES and (cur or total) and j > i:
                    if _SCALES[x] == 100:
                        cur = max(cur, 1) * 100
                    else:
                        total += max(cur, 1) * _SCALES[x]
                        cur = 0
                elif (
                    x == "and"
                    and j > i
                    and j + 1 < len(tokens)
                    and (tokens[j + 1] in _UNITS or tokens[j + 1] in _TENS)
                ):
                    pass
                else:
                    break
                j += 1
            n = total + cur
            out.append(f"{n}{_suffix(n)}" if ordinal else str(n))
            i = max(j, i + 1)
        else:
            out.append(w)
            i += 1
    return out


# compiled once: normalize_text runs tens of times per record when a run is scored
_TAG = re.compile(r"\[[^\]]*\]")
_DOLLARS = re.compile(r"\$\s?(\d[\d,]*(?:\.\d+)?)")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3})")
_JOINERS = re.compile(r"[-/]")
_NON_DECIMAL_DOT = re.compile(r"(?<!\d)\.|\.(?!\d)")
_PUNCT = re.compile(r"[^\w\s.']")
_OUTER_APOSTROPHE = re.compile(r"(?<!\w)'|'(?!\w)")
_LEADING_ZEROS = re.compile(r"^0+(?=\d)")


def normalize_text(text: str, language: str = "en") -> str:
    t = _TAG.sub(" ", text)
    t = unicodedata.normalize("NFKC", t).replace("\u2019", "'").replace("\u2018", "'").lower()
    t = _DOLLARS.sub(r"\1 dollars", t)
    t = _THOUSANDS.sub("", t)
    t = _JOINERS.sub(" ", t)
    t = _NON_DECIMAL_DOT.sub(" ", t)
    t = _PUNCT.sub(" ", t)
    t = _OUTER_APOSTROPHE.sub(" ", t)
    toks = t.split()
    if language.startswith("en"):
        toks = _numbers(toks)
    toks = [_LEADING_ZEROS.sub("", x) if x.isdigit() and len(x) > 1 else x for x in toks]
    out: list[str] = []
    run: list[str] = []
    for x in [*toks, ""]:
        if len(x) == 1 and x.isalnum():
            run.append(x)
            continue
        if len(run) >= 3:
            out.append("".join(run))
        else:
            out.extend(run)
        run = []
        if x:
            out.append(x)
    return " ".join(out)
