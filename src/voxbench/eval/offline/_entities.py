"""Key entities in what the caller meant to say, found by pattern (EVA's entity definition:
a concrete value a program could take as input: names and places, dates, clock times, codes
and reference numbers, flight and seat numbers, amounts, phone numbers, emails).

Each entity keeps the words it was spoken with (the `value`, as EVA's judge reports it) and
its comparable keys (`voxbench.eval.offline._values`), so correctness against the STT text is
a key comparison, not a string guess. Vague times ("tomorrow morning") are not entities.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from voxbench.eval.offline._values import MONTHS, NATO, spoken_values

_NW = (
    r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|"
    r"thousand|\d+(?:[.,:]\d+)*)"
)
_ORDW = (
    r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|"
    r"fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth|\d{1,2}(?:st|nd|rd|th))"
)
_NUMSEQ = rf"{_NW}(?:[\s-]+(?:and\s+)?{_NW})*"
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?"
_DAY = rf"(?:(?:twenty|thirty)[\s-]+{_ORDW}|{_ORDW}|{_NUMSEQ})"
_AMPM = r"(?:a\.?\s?m\.?|p\.?\s?m\.?)(?![a-z])"
_ZONE = r"(?:\s+(?:EST|EDT|PST|PDT|CST|CDT|MST|MDT|ET|PT|CT|Eastern|Pacific|Central|Mountain))?"
_SPELL_TOK = (
    r"(?:(?i:double\s+|triple\s+)?(?:[A-Z]|(?i:zero|oh|one|two|three|four|five|six|seven|eight|nine)|\d+))"
)
_NATO_WORD = (
    r"(?:Alpha|Alfa|Bravo|Charlie|Delta|Echo|Foxtrot|Golf|Hotel|India|Juliet|Juliett|Kilo|Lima|Mike|November|"
    r"Oscar|Papa|Quebec|Romeo|Sierra|Tango|Uniform|Victor|Whiskey|X-?ray|Yankee|Zulu)"
)
_D1 = r"(?i:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
# a code spelled in NATO words ("Kilo seven Papa three Quebec Foxtrot"): two NATO words at least,
# three tokens at least, so its digits and letters are not read as a seat ("three Quebec")
_NATO_CODE = (
    rf"\b(?i:{_NATO_WORD})(?:[\s,\-]+(?:(?i:{_NATO_WORD})|{_SPELL_TOK})\b)*"
    rf"[\s,\-]+(?i:{_NATO_WORD})\b(?:[\s,\-]+(?:(?i:{_NATO_WORD})|{_SPELL_TOK})\b)*"
)
_PH1 = rf"(?:[A-Z0-9]|{_D1})\s+as\s+in\s+\w+"
_PHONETIC = rf"\b{_PH1}(?:(?:\s*,\s*(?:and\s+)?|\s+)(?:{_PH1}|{_D1}|\d))+"

PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "email",
        re.compile(
            r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b\w+(?:\s+dot\s+\w+)*\s+at\s+\w+(?:\s+dot\s+\w+)*\s+dot\s+"
            r"(?:com|org|net|edu|gov|io|co|us|uk|ca)\b",
            re.I,
        ),
    ),
    (
        "phone",
        re.compile(r"\b(?:(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|\d)[\s,.\-…]*){7,}", re.I),
    ),
    (
        "date",
        re.compile(
            rf"\b{_MONTH}\s+(?:the\s+)?{_DAY}\b|\b(?:the\s+)?(?:(?:twenty|thirty)[\s-]+)?{_ORDW}\s+of\s+{_MONTH}",
            re.I,
        ),
    ),
    ("time", re.compile(rf"\b{_NUMSEQ}\s*(?:{_AMPM}|o['’]clock){_ZONE}|\b(?:noon|midnight)\b", re.I)),
    ("amount", re.compile(rf"\$\s?\d[\d,]*(?:\.\d+)?|\b{_NUMSEQ}\s+(?:dollars?|bucks)\b", re.I)),
    ("code_phonetic", re.compile(_PHONETIC)),
    ("code", re.compile(_NATO_CODE)),
    (
        "seat",
        re.compile(
            rf"(?<![A-Z]\s)(?<![A-Z],\s)\b(?:{_NUMSEQ})\s*(?:[A-K]|{_NATO_WORD})\b(?!['’])"
            rf"(?![\s,\-]*(?:[A-Z]\b|{_D1}\b|\d))"
        ),
    ),
    (
        "flight_number",
        re.compile(rf"\b(?:[Ff]light\s+)?(?:[A-Z][a-zA-Z]+|[A-Z]{{2}})\s*(?:{_NUMSEQ})(?=\W|$)"),
    ),
    (
        "code",
        re.compile(
            rf"\b{_SPELL_TOK}(?:(?:\s*[,\-]\s*|\s+(?:dash\s+)?){_SPELL_TOK}){{1,}}\b|\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{{3,}}\b"
        ),
    ),
    ("airport_code", re.compile(r"\b[A-Z]{3}\b")),
    ("number", re.compile(rf"\b{_NUMSEQ}\b", re.I)),
    (
        "name",
        re.compile(
            r"\b(?:[A-Z][a-z]*['’][A-Z][a-z]+|[A-Z][a-z]+)(?:[\s-]+(?:[A-Z][a-z]*['’][A-Z][a-z]+|[A-Z][a-z]+))*"
        ),
    ),
]
_NOT_CODES = {
    "EST",
    "EDT",
    "PST",
    "PDT",
    "CST",
    "CDT",
    "MST",
    "MDT",
    "THE",
    "AND",
    "YES",
    "USA",
    "ETA",
    "ASAP",
}
_NOT_NAMES = {
    "i", "hi", "hello", "yes", "no", "yeah", "okay", "ok", "sure", "please", "thanks", "thank", "great", "good",
    "sorry", "goodbye", "bye", "my", "the", "a", "an", "and", "but", "or", "so", "if", "that", "this", "it",
    "is", "are", "can", "could", "would", "will", "what", "which", "when", "where", "how", "why", "do", "does",
    "also", "then", "just", "actually", "perfect", "fine", "alright", "not", "none", "nope", "wait",
    "let", "let's", "i'm", "i'd", "i'll", "i've", "there", "they", "we", "you", "your", "our", "their", "me",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "today", "tomorrow",
    "main", "cabin", "economy", "business", "first", "premium", "basic", "class", "eastern", "pacific",
    "central", "mountain", "time", "standard", "skyway", "flight", "seat", "confirmation", "last", "name",
    "verify", "confirm", "take", "book", "keep", "move", "change", "cancel", "look", "find", "check", "go",
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "correct", "right", "done",
    "option", "any", "all", "both", "either", "neither", "after", "before", "same", "new", "old",
}  # fmt: skip
_NAME_SEQ = ("first name", "last name", "surname", "name is", "spelled")
_SENT_START = re.compile(r"(?:^|[.!?—–]\s+|\n)\s*$")


@dataclass
class Entity:
    type: str
    value: str
    start: int
    end: int
    keys: set[str] = field(default_factory=set)
    mentions: int = 1


def _keys(kind: str, text: str) -> set[str]:
    if kind == "name":
        return {"w:" + re.sub(r"[^a-z]", "", text.lower())}
    if kind == "email":
        return {"e:" + email_canon(text)}
    if kind == "airport_code":
        return {"w:" + text.lower()}
    keys = {v.key for v in spoken_values(text)}
    if kind == "phone" or (kind == "code" and _DIGITS_ONLY.match(text)):
        # digits said one by one ("zero one two three"): compared as a digit string, so a
        # leading zero counts and the STT's spacing ("0 1 2 3", "0123") does not
        return {"p:" + "".join(re.findall(r"\d", _digits(text)))}
    return keys or {"w:" + re.sub(r"[^a-z0-9]", "", text.lower())}


_DIGITS_ONLY = re.compile(r"^(?:(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|\d)[\s,\-]*)+$", re.I)
_DW = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
       "seven": "7", "eight": "8", "nine": "9"}  # fmt: skip


def _digits(text: str) -> str:
    return re.sub(r"[a-z]+", lambda m: _DW.get(m.group(0), ""), text.lower())


def email_canon(text: str) -> str:
    t = text.lower()
    t = re.sub(r"\s+dot\s+", ".", t)
    t = re.sub(r"\s+at\s+", "@", t)
    return re.sub(r"[^a-z0-9@.]", "", t)


def _is_sentence_start(text: str, i: int) -> bool:
    return bool(_SENT_START.search(text[:i]))


def _name_ok(text: str, m: re.Match[str]) -> str | None:
    """Trim a capitalised-word run to the part that is a name (drop stop words and the
    sentence-initial word unless a name cue precedes it)."""
    words = m.group(0).split()
    start = m.start()
    before = re.split(r"[.!?—–]", text[max(0, start - 24) : start])[-1].lower()
    cue = any(c in before for c in _NAME_SEQ)
    while words and (
        words[0].lower().strip("’'") in _NOT_NAMES
        or words[0].lower() in NATO
        or (start == m.start() and _is_sentence_start(text, start) and not cue and len(words) == 1)
    ):
        start = text.index(words[0], start) + len(words[0])
        words = words[1:]
    words = [w for w in words if w.lower() not in MONTHS]
    while words and words[-1].lower() in _NOT_NAMES:
        words = words[:-1]
    return " ".join(words) if words else None


def extract(text: str) -> list[Entity]:
    """Entities of one caller turn, first pattern wins on overlapping spans, deduplicated by
    key (a repeated code is one entity mentioned several times)."""
    taken: list[tuple[int, int]] = []
    found: list[Entity] = []
    for kind, pat in PATTERNS:
        for m in pat.finditer(text):
            s, e = m.start(), m.end()
            val = m.group(0).strip(" ,.-…")
            if not val or any(s < b and e > a for a, b in taken):
                continue
            if kind == "name":
                name = _name_ok(text, m)
                if not name:
                    continue
                val = name
            elif (
                (kind == "airport_code" and val in _NOT_CODES)
                or (kind == "seat" and _inside_spelling(text, s))
                or (kind == "code" and not _code_ok(val))
                or (kind == "flight_number" and not _flight_ok(val))
                or (kind == "number" and not _number_ok(val))
            ):
                continue
            taken.append((s, e))
            keys = _keys(kind, val)
            found.append(Entity(kind, _with_canonical(kind, val, keys), s, e, keys))
    return _dedupe(sorted(found, key=lambda x: x.start))


def _with_canonical(kind: str, val: str, keys: set[str]) -> str:
    """The spoken words plus the written form in brackets, as EVA's labels often give both
    ("X T R F three Q (XTRF3Q)", "one hundred forty five dollars ($145)")."""
    canon = ""
    if kind in ("code", "code_phonetic", "seat"):
        codes = sorted(k[2:] for k in keys if k[:2] in ("c:", "n:", "p:"))
        canon = max(codes, key=len).upper() if codes else ""
    elif kind == "flight_number":
        nums = [k[2:] for k in keys if k.startswith(("n:", "c:"))]
        head = val.split()[0] if val.split()[0][:1].isupper() and not val.split()[0].isupper() else ""
        canon = f"{head} {max(nums, key=len).upper()}".strip() if nums else ""
    elif kind == "time":
        t = next((k[2:] for k in keys if k.startswith("t:")), "")
        if t:
            h, m = int(t[:2]), t[2:]
            canon = f"{(h - 1) % 12 + 1}:{m} {'PM' if h >= 12 else 'AM'}"
    elif kind == "amount":
        n = next((k[2:] for k in keys if k.startswith("n:")), "")
        canon = f"${n}" if n else ""
    elif kind == "email" or kind == "phone":
        canon = next(iter(keys))[2:]
    plain = re.sub(r"[^a-z0-9]", "", val.lower())
    if kind in ("time", "amount") and re.search(r"\d", val):
        return val  # already written with digits
    return f"{val} ({canon})" if canon and re.sub(r"[^a-z0-9]", "", canon.lower()) != plain else val


_SPELLED_WORD = re.compile(rf"^(?:[A-Z]|{_D1}|\d+|(?i:{_NATO_WORD}))$")


def _inside_spelling(text: str, start: int) -> bool:
    """A seat-like "four B" that ends a spelled run ("M G H zero four B") is the code's tail:
    the words before it, back to the first that is not spelled, include a letter."""
    for w in reversed(re.split(r"[\s,\-]+", text[:start].strip())[-4:]):
        if not _SPELLED_WORD.match(w):
            return False
        if not re.match(rf"^(?:{_D1}|\d+)$", w):
            return True
    return False


def _code_ok(val: str) -> bool:
    toks = re.split(r"[\s,\-]+", val)
    letters = [t for t in toks if len(t) == 1 and t.isalpha()]
    if len(toks) == 1:
        return True  # written code with letters and digits
    if letters and all(x in ("A", "I") for x in letters) and len(toks) < 3:
        return len(toks) == 2 and toks[-1] in ("A", "I") and toks[0][:1].isalnum() and toks[0] not in ("I",)
    return bool(letters) or len(toks) >= 3


_NOT_FLIGHT = (_NOT_NAMES - {"skyway", "flight"}) | {
    "at",
    "by",
    "under",
    "over",
    "about",
    "around",
    "is",
    "to",
}


def _flight_ok(val: str) -> bool:
    words = [w for w in val.split() if w.lower() != "flight"]
    m = re.match(r"[A-Za-z]+", val)
    head = words[0] if len(words) > 1 else (m.group(0) if m else "")
    return head.lower() not in _NOT_FLIGHT and head.lower() not in MONTHS and head.lower() not in NATO


def _number_ok(val: str) -> bool:
    """Bare numbers count when they carry a value: several number words ("two hundred
    fifty") or a multi-digit figure; single small words ("one", "two") do not."""
    toks = val.split()
    digits = re.sub(r"\D", "", val)
    return len(toks) >= 2 or len(digits) >= 2


def _dedupe(ents: list[Entity]) -> list[Entity]:
    out: list[Entity] = []
    for e in ents:
        same = next(
            (o for o in out if o.keys & e.keys and (o.type == e.type or "number" in (o.type, e.type))), None
        )
        if same is not None:
            same.mentions += 1
        else:
            out.append(e)
    return out
