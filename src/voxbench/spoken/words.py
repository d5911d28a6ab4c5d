"""The word tables of spoken values: number words, ordinals, digits, NATO letters, months.

Data only, shared by every reader in this package (the caller's matcher in
:mod:`.text`/:mod:`.match`, the offline judges' keyed reader in :mod:`.keys`) and by the
sayers (:mod:`.codes`, :mod:`.say`), so a word added here is heard and said the same way
everywhere. English; another language gets its own tables.
"""

from __future__ import annotations

UNITS: dict[str, int] = {
    "zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
"""Number words below twenty ('oh' is zero as said inside codes and times: 'four oh five')."""

TENS: dict[str, int] = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90,
}  # fmt: skip

ORDINALS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
    "twentieth": 20, "thirtieth": 30,
}  # fmt: skip

SCALES: dict[str, int] = {"hundred": 100, "thousand": 1000, "million": 1_000_000}

DIGIT_WORDS: list[str] = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
"""How a digit is said when a code or a phone number is spelled."""

DIGIT: dict[str, str] = {w: str(v) for w, v in UNITS.items() if v < 10}
"""A digit word as its digit ('oh' included)."""

TEENS_TENS: dict[str, int] = {w: v for w, v in UNITS.items() if v >= 10} | TENS

NUMBER_WORDS = "|".join([*UNITS, *TENS])
"""Regex alternation of the number words below one hundred."""

NATO: dict[str, str] = {
    "alpha": "a", "alfa": "a", "bravo": "b", "charlie": "c", "delta": "d", "echo": "e", "foxtrot": "f",
    "golf": "g", "hotel": "h", "india": "i", "juliet": "j", "juliett": "j", "kilo": "k", "lima": "l",
    "mike": "m", "november": "n", "oscar": "o", "papa": "p", "quebec": "q", "romeo": "r", "sierra": "s",
    "tango": "t", "uniform": "u", "victor": "v", "whiskey": "w", "xray": "x", "yankee": "y", "zulu": "z",
}  # fmt: skip
"""NATO spelling words as their letter (both spellings of alfa/alpha and juliet/juliett)."""

LETTER_WORD: dict[str, str] = {v: k for k, v in NATO.items() if k not in ("alfa", "juliett")}
"""A letter as its NATO word."""

MONTH_NAMES: list[str] = [
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
]  # fmt: skip

MONTHS: dict[str, int] = {
    m: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
            ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
            ("october", "oct"), ("november", "nov"), ("december", "dec"),
        ]
    )
    for m in names
}  # fmt: skip
"""Month names and their abbreviations as the month's number."""

MONEY_FIELD_WORDS: frozenset[str] = frozenset(
    ("fare", "fee", "price", "amount", "cost", "total", "credit", "refund", "difference", "collected",
     "balance", "charge", "paid", "due", "voucher", "value", "rate", "limit", "salary", "pay",
     "deductible", "premium")
)  # fmt: skip
"""Words that, as the head of a field name ("change_fee", "total_cost", "fare_paid"), make the
number held under it an amount of money (plurals too: "fares", "fees")."""

FIELD_TAIL_WORDS: frozenset[str] = frozenset(
    ("usd", "eur", "gbp", "cad", "dollars", "cents", "eligible", "exclusive", "inclusive", "max", "min")
)  # fmt: skip
"""Words after the head of a field name that qualify it without naming another thing: a
currency ("amount_usd") or a bound ("refund_amount_eligible", "cost_usd_exclusive")."""
