"""Concrete values in spoken text, each reduced to one comparable key.

The offline judges check claims ("your refund is ninety five dollars", "gate C twelve",
"confirmation B five O D Z X") against what the conversation can support (tool results,
caller statements, the policy). Speech and JSON write the same value differently, so both
sides are reduced to keys:

* `c:<alnum>`  codes and identifiers, spelled or written ("B five O D Z X" -> c:b5odzx,
  "Romeo Delta" -> rd, "S W seven seventy" -> c:sw770, "21A" -> c:21a);
* `n:<number>` numbers and amounts ("ninety five dollars", "$95.00" -> n:95);
* `t:<hhmm>`   clock times ("two forty-five PM", "14:45" -> t:1445);
* `d:<mmdd>`   calendar dates ("June tenth", "2026-06-10" -> d:0610).

A :class:`ValueReader` first marks spelled letters, years and digit runs in a clause
(:func:`clauses`), then reads its words through the text normaliser it is given (eval passes
EVA's, ``voxbench.eval.wer_norm``: this package imports nothing of the project) and scans the
tokens. Rules only, no model, so every key can be shown as evidence. Structured data (tool
results) is keyed in :mod:`.data`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from voxbench.spoken.codes import canon_code
from voxbench.spoken.words import DIGIT, LETTER_WORD, MONTHS, NATO, NUMBER_WORDS, ORDINALS, TEENS_TENS

_CLAUSE = re.compile(r"(?<!\d)[.,;:!?](?!\d)|:(?=\s)|[,;!?—–()\"]|\n")
"""Punctuation that ends a phrase. A point or colon between digits is inside a value (4.5,
10:17); a colon before a space introduces what follows ("June 10th, 2026: 10:17 AM, eleven AM"),
so the values on its sides are read apart, not as one code (2026 1017)."""
ORDINAL = re.compile(r"^(\d+)(st|nd|rd|th)$")
NUM = re.compile(r"^\d+(?:\.\d+)?$")


@dataclass(frozen=True)
class Value:
    """One value found in text: its key, the words it came from, and its kind."""

    key: str
    surface: str
    spelled: bool = False  # built from several spoken tokens (letters / digit groups)

    @property
    def kind(self) -> str:
        return self.key.split(":", 1)[0]


_D1 = "(?:zero|one|two|three|four|five|six|seven|eight|nine)"
_DIGIT_RUN = re.compile(rf"\b{_D1}(?:[\s,-]+(?:{_D1}|oh)\b)+(?![\s-]+(?:hundred|thousand|dollars?)\b)", re.I)
_YEAR = re.compile(
    rf"\b(nineteen|twenty)[\s-]+(?:(oh|zero)[\s-]+({_D1})|({'|'.join(TEENS_TENS)})(?:[\s-]+({_D1}))?)\b",
    re.I,
)


def _year(m: re.Match[str]) -> str:
    """ "twenty twenty-five" -> 2025, "twenty oh five" -> 2005 (read before digit runs)."""
    century = 19 if m.group(1).lower() == "nineteen" else 20
    if m.group(2):
        return f"{century}0{DIGIT[m.group(3).lower()]}"
    tens = TEENS_TENS[m.group(4).lower()]
    if m.group(5) and (tens < 20 or tens % 10):
        return m.group(0)
    unit = int(DIGIT[m.group(5).lower()]) if m.group(5) else 0
    return f"{century}{tens + unit:02d}"


_SPELL_SEP = re.compile(
    rf"\b([A-Z]|\d+|(?:{NUMBER_WORDS}))\s*[,-]\s*(?=(?:[A-Z]|\d+|{NUMBER_WORDS})\b)", re.I
)
_SPELLED = re.compile(rf"\b(?:[A-Z]|{NUMBER_WORDS}|\d+)(?:\s+(?:[A-Z]|{NUMBER_WORDS}|\d+)\b){{2,}}")
_CAPS_PREFIX = re.compile(
    rf"\b(?!AM\b|PM\b|OK\b|ID\b|US\b)([A-Z]{{2,3}})\s*(?=\d|(?:{NUMBER_WORDS})\b)", re.I
)
_HYPHENED_CODE = re.compile(r"\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]{2,4}(?:-[A-Z0-9]{2,4})+\b")
"""A written code an STT broke with a hyphen ("MGH-04B", "ZK3-FFW"): capitals and digits in
groups of two to four, one of each at least; read as the one code it is."""
_WRITTEN_CODE = re.compile(r"\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{2,}\b")
_NOT_WRITTEN_CODE = re.compile(r"^\d+(st|nd|rd|th|am|pm|s)$|^[a-z]+\d*$", re.I)


_PRONOUN_I = re.compile(rf"\bI(?=['’][a-z]|\s+(?!(?:{NUMBER_WORDS}|{'|'.join(NATO)})\b)[a-z]{{2,}})")
"""The pronoun ("F L three, I found a desk", "your I-nine, I also need", "I'm"): "I" before a
lower-case word that is no number or NATO word, or in a contraction; written lower-case so
the spelled-letter rules below do not take it as the letter closing a code before it."""
_LEADING_ZERO_GROUP = re.compile(r"(?<![\d.:,])\b0\d+\b(?![.:,]\d)")
"""A written digit group with a leading zero ("S H F 2026 0720 2300") is part of a code; the
normaliser would read it as a number and drop the zero inside the joined code, so its digits
are read one by one (a code's own leading zeros are dropped on both sides by canon_code)."""
_CHUNKED_DIGITS = re.compile(
    rf"\b((?:{_D1}\s+){{2,}}{_D1})\s*,?\s+then\s+(?=(?:{_D1}\s+){{2,}}{_D1}\b)", re.I
)
"""One number read back in chunks ("three three four two three, then three one four four
four"): the chunks are one digit run."""


def _spell_written(m: re.Match[str]) -> str:
    """A written code ("ZK3FFW", "21A") as NATO words and digit groups, so the normaliser
    cannot split or merge it ("zk 3 ffw")."""
    w = m.group(0)
    if _NOT_WRITTEN_CODE.match(w) and not w.isupper():
        return w
    parts = re.findall(r"\d+|[A-Za-z]", w)
    return " ".join(p if p.isdigit() else LETTER_WORD[p.lower()] for p in parts)


def _spelled_letters(m: re.Match[str]) -> str:
    """Inside a spelled run ("M L A T G two"), A and I are letters too."""
    toks = m.group(0).split()
    if sum(1 for x in toks if len(x) == 1 and x.isalpha()) < 2:
        return m.group(0)
    return " ".join(LETTER_WORD[x.lower()] if len(x) == 1 and x.isalpha() else x for x in toks)


def _split_caps(m: re.Match[str]) -> str:
    w = m.group(1)
    return " ".join(w) + " " if w.isupper() else m.group(0)


def clauses(text: str) -> list[str]:
    return list(_clauses(text))


@lru_cache(maxsize=4096)
def _clauses(text: str) -> tuple[str, ...]:
    """Split on punctuation that ends a phrase (not decimal points or times like 4:30); first
    `a.m.` -> am, "Y as in Yankee" -> Y, commas between spelled characters dropped, and an
    airline-style prefix split into letters ("SK nine hundred" -> "S K nine hundred")."""
    t = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)  # 1,500,000 -> 1500000
    t = _PRONOUN_I.sub("i", t)
    t = _LEADING_ZERO_GROUP.sub(lambda m: " ".join(m.group(0)), t)
    t = re.sub(r"\s*\bo['’]?\s?clock\b", "", t, flags=re.I)  # "ten o’clock A M" -> "ten A M"
    t = _CHUNKED_DIGITS.sub(r"\1 ", t)
    t = re.sub(r"\b([ap])\.\s?m\.?(?=\W|$)", r"\1m", t, flags=re.I)
    t = re.sub(r"\b(\d{1,2}):(\d\d)\b", r"\1\2", t)  # 2:00 -> 200 (the normaliser would drop "00")
    t = re.sub(r"(?<=\w),?\s+(?:dash|hyphen),?\s+(?=\w)", " ", t, flags=re.I)
    t = _HYPHENED_CODE.sub(lambda m: m.group(0).replace("-", ""), t)
    t = re.sub(
        rf"\b(\d+|{NUMBER_WORDS})\s+([AP])\s?M\b\.?",
        lambda m: f"{m.group(1)} {m.group(2).lower()}m",
        t,
        flags=re.I,
    )
    t = re.sub(r"\b(\d{1,2})\.(\d\d)(?=\s*[ap]m\b)", r"\1\2", t, flags=re.I)  # 8.05 am -> 805 am
    t = re.sub(rf"\b(\d+|{NUMBER_WORDS})\s+A\b", r"\1 alpha", t)
    t = _YEAR.sub(_year, t)
    t = _DIGIT_RUN.sub(
        lambda m: "".join(DIGIT[w.lower()] for w in re.findall(r"[a-z]+", m.group(0), re.I)), t
    )
    t = re.sub(rf"\b([A-Za-z]|{NUMBER_WORDS})\s+as\s+in\s+[A-Za-z-]+", r"\1", t, flags=re.I)
    t = _SPELL_SEP.sub(r"\1 ", t)
    t = _CAPS_PREFIX.sub(_split_caps, t)
    t = _SPELLED.sub(_spelled_letters, t)
    t = _WRITTEN_CODE.sub(_spell_written, t)
    # spelled capitals as NATO words, so the normaliser does not merge them with neighbours
    t = re.sub(r"\b(?<!')([B-HJ-Z])\b(?!')", lambda m: LETTER_WORD[m.group(1).lower()], t)
    return tuple(c for c in _CLAUSE.split(t) if c and c.strip())


def _merge_teens(toks: list[str]) -> list[str]:
    """The normaliser leaves "one hundred fifteen" as "100 15" (teens after a hundred):
    merge a multiple of 100 with a following number below 100."""
    out: list[str] = []
    for t in toks:
        if (
            out
            and t.isdigit()
            and int(t) < 100
            and out[-1].isdigit()
            and out[-1].endswith("00")
            and int(out[-1])
        ):
            out[-1] = str(int(out[-1]) + int(t))
        elif out and out[-1] in ("19", "20") and t.isdigit() and len(t) == 2 and int(t) >= 10:
            out[-1] = out[-1] + t  # "twenty twenty six" -> 2026
        else:
            out.append(t)
    return out


def _is_code_tok(t: str, nato_ok: bool) -> bool:
    if ORDINAL.match(t) or t in ("a", "i") or re.match(r"^\d+s$", t):  # "ones" -> "1s"
        return False
    if len(t) == 1 and t.isalnum():
        return True
    if t.isdigit():
        return True
    if nato_ok and t in NATO:
        return True
    return t.isalnum() and any(ch.isdigit() for ch in t) and any(ch.isalpha() for ch in t)


def time_key(h: int, m: int, ampm: str | None) -> str | None:
    if ampm == "pm" and h < 12:
        h += 12
    elif ampm == "am" and h == 12:
        h = 0
    if 0 <= h < 24 and 0 <= m < 60:
        return f"t:{h:02d}{m:02d}"
    return None


def _scan_clause(toks: Sequence[str]) -> Iterator[Value]:
    i = 0
    while i < len(toks):
        t = toks[i]
        # times: H [MM] am|pm, "noon" or "midnight"
        if t.isdigit() and len(t) <= 4:
            j = i + 1
            h, m = (int(t), 0) if len(t) <= 2 else (int(t[:-2]), int(t[-2:]))
            if len(t) <= 2 and j < len(toks) and toks[j].isdigit() and len(toks[j]) == 2:
                m, j = int(toks[j]), j + 1
            if j < len(toks) and toks[j] in ("am", "pm"):
                k = time_key(h, m, toks[j])
                if k:
                    yield Value(k, " ".join(toks[i : j + 1]))
                i = j + 1
                continue
        if t in ("noon", "midnight"):
            yield Value("t:1200" if t == "noon" else "t:0000", t)
        # dates: month + day(ordinal) or day + of + month
        # ("november" is also NATO's N: "november 5 foxtrot zulu" is a spelled code, not a date)
        in_code = t in NATO and i + 2 < len(toks) and toks[i + 2] in NATO
        if t in MONTHS and i + 1 < len(toks) and not in_code:
            d = ORDINAL.match(toks[i + 1]) or (re.match(r"^(\d{1,2})$", toks[i + 1]))
            # a compound ordinal the normaliser read in halves ("twenty ninth" -> "20 ninth")
            unit = (
                ORDINALS.get(toks[i + 2], 10)
                if d and i + 2 < len(toks) and toks[i + 1] in ("20", "30")
                else 10
            )
            if d and unit < 10 and int(d.group(1)) + unit <= 31:
                yield Value(f"d:{MONTHS[t]:02d}{int(d.group(1)) + unit:02d}", " ".join(toks[i : i + 3]))
                i += 3
                continue
            if d and 1 <= int(d.group(1)) <= 31:
                yield Value(f"d:{MONTHS[t]:02d}{int(d.group(1)):02d}", f"{t} {toks[i + 1]}")
                i += 2
                continue
        if (o := ORDINAL.match(t)) and i + 2 < len(toks) and toks[i + 1] == "of" and toks[i + 2] in MONTHS:
            yield Value(f"d:{MONTHS[toks[i + 2]]:02d}{int(o.group(1)):02d}", " ".join(toks[i : i + 3]))
            i += 3
            continue
        # codes: a run of letters / digit groups (NATO words only inside a run)
        if _is_code_tok(t, nato_ok=False) or (
            t in NATO and i + 1 < len(toks) and _is_code_tok(toks[i + 1], True)
        ):
            j = i
            while j < len(toks) and _is_code_tok(toks[j], nato_ok=True):
                if j > i and toks[j].isdigit() and j + 1 < len(toks) and toks[j + 1] in UNITS:
                    break  # "Mac O S, fourteen inch": a measure after the letters, not their code
                j += 1
            run = toks[i:j]
            yield from _run_values(run)
            i = j
            continue
        if NUM.match(t):
            yield Value(f"n:{num_text(t)}", t)
        i += 1


UNITS = frozenset(("inch", "inches", "in", "percent", "gb", "mb", "tb", "ghz", "hours", "hour", "minutes", "minute",
                   "days", "day", "weeks", "week", "months", "month", "years", "year", "pounds", "kg", "lbs",
                   "miles", "km", "seats", "people"))  # fmt: skip
"""Words that make the number before them a measure or a count, never part of a spoken code."""


def _run_values(run: Sequence[str]) -> Iterator[Value]:
    joined = canon_code("".join(NATO.get(x, x) for x in run))
    surface = " ".join(run)
    has_alpha = any(ch.isalpha() for ch in joined)
    has_digit = any(ch.isdigit() for ch in joined)
    if len(run) == 1:
        t = run[0]
        if t.isdigit():
            yield Value(f"n:{num_text(t)}", t)
        elif has_alpha and has_digit:
            yield Value(f"c:{canon_code(t)}", t)
        return
    if has_alpha and (has_digit or len(joined) >= 3):
        yield Value(f"c:{joined}", surface, spelled=True)
        return
    if not has_alpha:
        # several digit groups: a spoken code / flight number ("seven seventy") and its parts
        yield Value(f"c:{joined}", surface, spelled=True)
        for t in run:
            yield Value(f"n:{num_text(t)}", t)
        return
    for t in run:  # single letters that do not form a code ("a", "i")
        if t.isdigit():
            yield Value(f"n:{num_text(t)}", t)


def num_text(s: str) -> str:
    x = float(s)
    return str(int(x)) if x == int(x) else f"{x:.2f}".rstrip("0")


_DIGIT_BY_DIGIT_TIME = re.compile(r"\b\d(?:[- ]\d){2,3}(?= ?[ap]m\b)", re.I)
"""A clock time said digit by digit and written so by an STT ("5-2-0 p.m." for "five two zero
p m"): the digits are the time, as the same words spoken are read."""


class ValueReader:
    """Reads values out of text through one text normaliser (``normalise``: a clause's words
    as the normaliser writes them, number words as digits). Cached per reader: the same
    policy text and tool results are read for every conversation of a domain. Its tokens are
    not :func:`.text.tokens` (the caller's matching tokeniser): why the two stay apart is
    said there."""

    def __init__(self, normalise: Callable[[str], str]):
        self.normalise = normalise
        self._tokens = lru_cache(maxsize=8192)(self._read_tokens)
        self._values = lru_cache(maxsize=4096)(self._read_values)
        self._amounts = lru_cache(maxsize=4096)(self._read_amounts)
        self._keys = lru_cache(maxsize=512)(self._read_keys)

    def spoken_values(self, text: str) -> list[Value]:
        """Every value in a spoken (or written) utterance, clause by clause."""
        return list(self._values(text))

    def amount_values(self, text: str) -> list[Value]:
        """Money amounts only: numbers followed by dollars / bucks (after `$x` -> `x dollars`)."""
        return list(self._amounts(text))

    def text_keys(self, text: str) -> set[str]:
        """The keys of every value in ``text``."""
        return set(self._keys(text))

    def spoken_money(self, text: str) -> set[str]:
        """`m:<amount>` keys of the amounts of money in ``text``."""
        return {"m:" + v.key[2:] for v in self.amount_values(text)}

    def _read_tokens(self, clause: str) -> tuple[str, ...]:
        c = clause  # 4:30 -> 4 30
        c = re.sub(r"\b(\d{1,2})\s*([ap])\.?\s?m\b\.?", r"\1 \2m", c, flags=re.I)  # 8 a.m. -> 8 am
        c = re.sub(r"\bo'clock\b|\bo ?clock\b|(?<=\d) ?ock\b", "", c, flags=re.I)  # "3 o clock", "10 ock"
        c = _DIGIT_BY_DIGIT_TIME.sub(lambda m: re.sub(r"\D", "", m.group(0)), c)  # 5-2-0 pm -> 520 pm
        toks = _merge_teens([t for t in self.normalise(c).split() if t.isascii()])
        out: list[str] = []
        for i, t in enumerate(toks):
            prev = out[-1] if out else ""
            nxt = toks[i + 1] if i + 1 < len(toks) else ""
            if t in ("oh", "o", "0") and prev.isdigit() and len(nxt) == 1 and nxt.isdigit():
                out.append("0" + nxt)
                toks[i + 1] = ""
            elif not t:
                continue
            elif t in ("a", "p") and nxt == "m" and prev.isdigit():
                out.append(t + "m")
            elif t == "m" and prev in ("am", "pm"):
                continue
            else:
                out.append(t)
        return tuple(out)

    def _read_values(self, text: str) -> tuple[Value, ...]:
        out: list[Value] = []
        for c in _clauses(text):
            out.extend(_scan_clause(self._tokens(c)))
        return tuple(out)

    def _read_amounts(self, text: str) -> tuple[Value, ...]:
        out: list[Value] = []
        for c in _clauses(text):
            toks = self._tokens(c)
            for i, t in enumerate(toks[:-1]):
                if NUM.match(t) and toks[i + 1] in ("dollars", "dollar", "bucks", "usd"):
                    out.append(Value(f"n:{num_text(t)}", f"{t} {toks[i + 1]}"))
        return tuple(out)

    def _read_keys(self, text: str) -> frozenset[str]:
        return frozenset(v.key for v in self.spoken_values(text))
