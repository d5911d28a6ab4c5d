"""Words as a voice call carries them: normalising heard text, finding a fact's value in it, saying codes.

Agents and callers speak codes letter by letter with digits as words ("E M P zero six seven
five two one"), dates as words ("October fifteenth, twenty twenty-six") and times with AM/PM.
A caller that matches facts against what it heard, and a bench that checks what a caller
disclosed, both need one normal form: :func:`tokens` turns number words into digits and
:func:`runs` joins spelled sequences back into codes, so ``EMP067521``, ``E M P 0 6 7 5 2 1``
and the words above all meet. :func:`say_value` goes the other way, for the caller's TTS.

Pure functions; nothing here knows a domain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from voxbench.pipelines.caller.goal.airports import AIRPORT_NAMES, airport_codes

_UNITS = {
    "zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
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
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
    "twentieth": 20, "thirtieth": 30,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
MONTHS = {
    m: i + 1
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ]
    )
}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS.pop("may", None)  # "may I have..." is far more common than the month; "May 5" is caught below
_SEPARATORS = {"dash", "hyphen", ","}
_DIGIT_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_WORD = re.compile(r"[a-z0-9]+|[.?!;]|,")


def _is_number_word(w: str) -> bool:
    return w in _UNITS or w in _TENS or w in _ORDINALS or w in _SCALES


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
        if w == "oh" and out and out[-1].isdigit() and nxt in _UNITS and 1 <= _UNITS[nxt] <= 9:
            out.append(f"0{_UNITS[nxt]}")  # "four oh five" -> 4 05 (4:05), "seven oh three" -> 7 03
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
            if x in _SCALES:
                if not last:
                    break
                cur = max(cur, 1) * _SCALES[x]
                if _SCALES[x] > 100:
                    total, cur = total + cur, 0
                last = "scale"
            elif x in _TENS:
                if last in ("unit", "tens", "ord"):
                    break
                cur += _TENS[x]
                last = "tens"
            else:
                v = _UNITS.get(x, _ORDINALS.get(x, 0))
                if last == "unit" or last == "ord" or (last == "tens" and (v >= 10 or cur % 10)):
                    break
                cur += v
                last = "ord" if x in _ORDINALS else "unit"
            j += 1
        if j == i:  # a lone scale word
            out.append(w)
            i += 1
            continue
        out.append(str(total + cur))
        i = j
    return out


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens with number words as digit strings and a few separators kept."""
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

    "E M P zero six seven" -> "emp067"; "P O L, two zero two five" -> "pol2025"; a sentence end
    or an ordinary word breaks a run (an ordinary word is its own run, so all-letter codes like
    "KOLTSF" count too).
    """
    out: list[str] = []
    cur = ""
    for tok in tokens(text):
        if tok in _SEPARATORS:
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


@dataclass(frozen=True)
class Date:
    month: int
    day: int
    year: int | None = None


ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
HHMM = re.compile(r"^(\d{1,2}):(\d{2})(?:\s*([ap])\.?m\.?)?", re.IGNORECASE)


def dates(text: str) -> list[Date]:
    """Dates said as 'March 25', 'March twenty-fifth, twenty twenty-six', '25 March' or ISO digits."""
    return list(_dates(text))


@lru_cache(maxsize=8192)
def _dates(text: str) -> tuple[Date, ...]:
    toks = tokens(text)
    out: list[Date] = []
    for i, t in enumerate(toks):
        m = MONTHS.get(t) or (5 if t == "may" and i + 1 < len(toks) and toks[i + 1].isdigit() else 0)
        if not m:
            continue
        if i + 1 < len(toks) and toks[i + 1].isdigit() and 1 <= int(toks[i + 1]) <= 31:
            day = int(toks[i + 1])
            year = _year(toks[i + 2 : i + 4])
            out.append(Date(m, day, year))
        elif i > 0 and toks[i - 1].isdigit() and 1 <= int(toks[i - 1]) <= 31:
            out.append(Date(m, int(toks[i - 1]), _year(toks[i + 1 : i + 3])))
    for r in re.findall(r"\b(\d{4})-(\d{2})-(\d{2})\b", text):
        out.append(Date(int(r[1]), int(r[2]), int(r[0])))
    for r in runs(text):  # spelled digits: 2 0 2 6 dash 0 8 dash 1 0 -> 20260810
        if len(r) == 8 and r.isdigit() and r.startswith(("19", "20")) and 1 <= int(r[4:6]) <= 12:
            out.append(Date(int(r[4:6]), int(r[6:8]), int(r[:4])))
    return tuple(out)


def _year(toks: list[str]) -> int | None:
    if toks and toks[0].isdigit() and len(toks[0]) == 4:
        return int(toks[0])
    if len(toks) == 2 and toks[0] == "20" and toks[1].isdigit() and len(toks[1]) == 2:
        return 2000 + int(toks[1])
    return None


def times(text: str) -> list[tuple[int, int]]:
    """Clock times with AM/PM ('1 PM', 'two twenty-five PM', '9:25 AM') or 24-hour 'HH:MM', as (h, m)."""
    return list(_times(text))


_DOT_CLOCK = re.compile(r"(\d)\.(\d{2})(?=\s*[ap]\.?m\b)", re.I)
_GLUED_MERIDIEM = re.compile(r"(\d)(?=[ap]\.?m\b)", re.I)


@lru_cache(maxsize=8192)
def _times(text: str) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    # whisper writes the agent's '7:30 PM' as '7.30pm' or '7pm': hour and minutes apart, the
    # meridiem its own word (else neither the options' times nor a reply's are read)
    text = _GLUED_MERIDIEM.sub(r"\1 ", _DOT_CLOCK.sub(r"\1 \2", text))
    toks = tokens(text.replace(":", " "))
    for i, t in enumerate(toks):
        if t in ("am", "pm", "noon") and i > 0:
            if t == "noon":
                out.append((12, 0))
                continue
            h, m = None, 0
            a, b = toks[i - 1], toks[i - 2] if i > 1 else ""
            if a.isdigit() and b.isdigit() and 1 <= int(b) <= 12 and int(a) < 60:
                h, m = int(b), int(a)
            elif a.isdigit() and 1 <= int(a) <= 12:
                h = int(a)
            elif a.isdigit() and len(a) in (3, 4) and int(a[:-2]) <= 12:
                h, m = int(a[:-2]), int(a[-2:])
            if h is None:
                continue
            out.append(((h % 12) + (12 if t == "pm" else 0), m))
    for h, m in re.findall(r"\b(\d{1,2}):(\d{2})\b(?!\s*[ap]\.?m)", text, re.IGNORECASE):
        if int(h) > 12 or int(h) == 0:
            out.append((int(h), int(m)))
    if re.search(r"\bnoon\b", text, re.IGNORECASE):
        out.append((12, 0))
    return tuple(out)


def money(text: str) -> list[float]:
    """Amounts of money: '$120', '120 dollars', 'seventy-five dollar fee', 'two million dollars'."""
    out = [float(x.replace(",", "")) for x in re.findall(r"\$\s?(\d[\d,]*(?:\.\d+)?)", text)]
    toks = tokens(text)
    for i, t in enumerate(toks):
        if t in ("dollar", "dollars", "usd") and i > 0 and toks[i - 1].isdigit():
            out.append(float(toks[i - 1]))
    return out


def parse_time_value(value: str) -> tuple[int, int] | None:
    m = HHMM.match(value.strip())
    if not m:
        return None
    h, mi = int(m.group(1)), int(m.group(2))
    if m.group(3):
        h = (h % 12) + (12 if m.group(3).lower() == "p" else 0)
    return h, mi


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
        if len(c) >= 8 and c in "".join(r for r in rs if r not in ("dot", "at")):
            return True
    elif 2 <= len(c) <= 4 and v.isalpha() and (c in rs or _initials(text, c)):
        return True  # 'LAX' said 'L A X' (a whole run); 'pto' said 'paid time off'
    if _abbreviated(text, v):
        return True
    words = [w for w in tokens(v) if w not in _SEPARATORS and w not in ".?!;"]
    toks = [w for w in tokens(text) if w not in _SEPARATORS]
    n = len(words)
    if n == 0:
        return False
    if "@" in v:  # email: said as 'john dot smith at gmail dot com' or written
        flat = "".join(t for t in toks if t not in ("dot", "at") and t not in ".?!;")
        return c.replace("@", "") in flat or c in flat
    if any(toks[i : i + n] == words for i in range(len(toks) - n + 1)):
        return True
    return _airports_said(toks, rs, v)


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
        names = [[w for w in tokens(n) if w not in _SEPARATORS] for n in AIRPORT_NAMES[code]]
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


def _spell(chunk: str) -> str:
    return " ".join(_DIGIT_WORDS[int(c)] if c.isdigit() else c.upper() for c in chunk if c.isalnum())


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
    return ", ".join(_spell(part) for part in re.split(r"[-_.\s]+", value.strip()) if part)


_MONTH_NAMES = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
]  # fmt: skip


def say_date(value: str) -> str:
    m = ISO_DATE.match(value.strip())
    if not m:
        return value
    return f"{_MONTH_NAMES[int(m.group(2)) - 1]} {int(m.group(3))}, {m.group(1)}"


def say_time(value: str) -> str:
    hm = parse_time_value(value)
    if hm is None:
        return value
    h, m = hm
    suffix = "AM" if h < 12 else "PM"
    h12 = h % 12 or 12
    return f"{h12} {suffix}" if m == 0 else f"{h12}:{m:02d} {suffix}"


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
    if "@" in v:
        return v.replace(".", " dot ").replace("@", " at ")
    if re.fullmatch(r"\+?[\d\s().-]{7,}", v):  # phone numbers: digit groups, digits as words
        return ", ".join(_spell(g) for g in re.split(r"[\s().-]+", v) if g)
    if is_code(v):
        return spell_code(v)
    return re.sub(r"(?<=\w)[_-](?=[a-z])|(?<=[a-z])[_-](?=\w)", " ", v).replace("_", " ")


def sentences_of(text: str) -> list[str]:
    """Sentences (and lines) of a turn or a criterion."""
    parts = re.split(r"(?<=[.?!])\s+|\n+", text.strip())
    return [p.strip() for p in parts if p.strip()]
