"""The bench's own reading of which goal facts a sentence says: EVA's normaliser on both sides.

The caller check must not grade the caller with the caller's own ear (``spoken.mentions``): a
misreading shared by both would pass unseen. Here each side is normalised by
:func:`voxbench.eval.wer_norm.normalize_text` (EVA's rules: numbers as digits, spelled letters
joined, punctuation dropped) and each fact value is looked for in two ways:

* **as words**: the value's normalised tokens appear in a row in the sentence's ('window',
  'AUS to LAX', 'August 23');
* **as a code**: a value holding a digit, squeezed to its letters and digits, equals some run of
  the sentence's tokens squeezed the same way ('ZK3FFW' in 'Z K three F F W'; '2026-07-06' in
  'two zero two six dash zero seven dash zero six'). Zeros are dropped on both sides and 'o'
  counts as zero, because the normaliser strips leading zeros ('07' -> '7') and reads a spoken
  'O' as a digit.

A date value (``YYYY-MM-DD``) is also looked for as month and day ('March 25th'), a clock time
as a person says it ('4 PM', 'twelve oh five PM'). A value of two or three capitals ('US', 'PTO')
is looked for in the sentence as written, in capitals or spelled ('U S', 'U.S.'): normalised it
is a word ('us' in "Let's" read 'let us'). A bare count ('4', '30') is said only as a number of its
own next to a word of its key, or asked for (:meth:`Value.count_said`): "I have four requests" says
no attendee count, "K four M two" holds none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from voxbench.bench.lang import words
from voxbench.eval.wer_norm import normalize_text

MONTHS = tuple(words("en").months)
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})\s*(am|pm|a\.m\.|p\.m\.)?\b", re.I)
_ORDINAL = re.compile(r"^(\d+)(st|nd|rd|th)$")
MAX_WORDS = 8
"""A value of more words than this is prose ('I can't connect to the Wi-Fi at all'), not a fact a
reply can be checked for word by word."""
_SPAN = 14
_COUNT = re.compile(r"\d{1,3}")
# Abbreviations a code spells out when a person says it ('FL2' -> 'floor 2').
ABBREVIATIONS = words("en").abbreviations
# One-word values a reply says for another reason ('Confirmed. Proceed.' for a booking's status).
NOT_VALUES = frozenset(words("en").not_values)


def words_of(text: str) -> list[str]:
    """The normalised tokens of a text, ordinals read as their number ('25th' -> '25')."""
    out = []
    for w in normalize_text(text).split():
        m = _ORDINAL.match(w)
        out.append(m.group(1) if m else w)
    return out


def squeeze(text: str) -> str:
    """Letters and digits only, 'o' as zero, zeros dropped (see the module docstring)."""
    s = re.sub(r"[^a-z0-9]", "", text.lower()).replace("o", "0")
    return s.replace("0", "")


def value_forms(value: str) -> list[str]:
    """The ways a person may say one value."""
    v = value.strip()
    forms = [v]
    parts = re.findall(r"[A-Za-z]+|\d+", v)
    if any(p.lower() in ABBREVIATIONS for p in parts) and len(parts) <= 3:
        forms.append(" ".join(ABBREVIATIONS.get(p.lower(), p) for p in parts))
    if re.fullmatch(r"[a-z]+(?:_[a-z]+)+", v):  # 'hr_portal' said 'H R portal' (two letters stay apart)
        forms.append(" ".join(" ".join(w) if len(w) <= 3 else w for w in v.split("_")))
    m = _ISO.match(v)
    if m:
        month, day = MONTHS[int(m.group(2)) - 1], int(m.group(3))
        forms += [f"{month} {day}", f"{day} {month}"]
    c = _CLOCK.match(v)
    if c:
        h, mm, ap = int(c.group(1)), int(c.group(2)), (c.group(3) or "").replace(".", "").lower()
        if not ap and h >= 12:
            ap = "pm"
        elif not ap:
            ap = "am"
        h12 = h % 12 or 12
        forms += [f"{h12} {ap}" if mm == 0 else f"{h12} {mm:02d} {ap}", f"{h12}:{mm:02d}"]
    return forms


@dataclass
class Said:
    """A sentence as the matcher reads it: its tokens, the squeezed form of every run of them, and
    the text as written."""

    words: list[str]
    runs: set[str] = field(default_factory=set)
    text: str = ""

    @classmethod
    def of(cls, text: str) -> Said:
        ws = words_of(text)
        digits = ["1" if w == "one" else w for w in ws]  # the normaliser leaves 'one' a word ('F L one')
        runs = {
            squeeze("".join(digits[i:j]))
            for i in range(len(ws))
            for j in range(i + 1, min(len(ws), i + _SPAN) + 1)
        }
        return cls(ws, runs, text)

    def has_words(self, form: list[str], not_before: str = "") -> bool:
        """``form``'s words in a row, not followed by ``not_before`` (a clock time's other half)."""
        n, ws = len(form), self.words
        return n > 0 and any(
            ws[i : i + n] == form
            and not (
                not_before
                and (ws[i + n : i + n + 1] == [not_before] or ws[i + n : i + n + 2] == list(not_before))
            )
            for i in range(len(ws) - n + 1)
        )


@dataclass(frozen=True)
class Value:
    """One fact value, precomputed for matching."""

    forms: tuple[tuple[str, ...], ...]
    codes: tuple[str, ...]
    capitals: re.Pattern[str] | None = None
    count: bool = False
    """A bare count ('4', '30'): said only as a number of its own, see :meth:`count_said`."""
    other_half: str = ""
    """For a clock time, the other half of the day ('am' for '7:00 PM'): a form said with it right
    after ('7:00 AM') is another time, not this one said without its half."""

    @classmethod
    def of(cls, value: str) -> Value | None:
        v = value.strip()
        if re.fullmatch(r"[A-Z]{2,3}", v):  # 'US' / 'U S' / 'U.S.' as written, not the word 'us'
            pattern = r"[\s.\-]*".join(v)
            return cls((), (), re.compile(rf"(?<![A-Za-z]){pattern}\.?(?![A-Za-z])"))
        forms, codes = [], []
        for f in value_forms(value):
            ws = words_of(f)
            if 0 < len(ws) <= MAX_WORDS:
                forms.append(tuple(ws))
            if _code_like(f) and len(sq := squeeze(f)) >= 3:
                codes.append(sq)
        if not forms and not codes:
            return None
        forms_t, codes_t = tuple(dict.fromkeys(forms)), tuple(dict.fromkeys(codes))
        return cls(forms_t, codes_t, count=bool(_COUNT.fullmatch(v)), other_half=_other_half(v))

    def said_in(self, said: Said) -> bool:
        if self.capitals is not None:
            return bool(self.capitals.search(said.text))
        return any(said.has_words(list(f), self.other_half) for f in self.forms) or any(
            c in said.runs for c in self.codes
        )

    def count_said(self, said: Said, key: str, asked: bool) -> bool:
        """A bare count is said where it stands as a number of its own (no spelled letter beside it:
        'K four M two' holds no count) and names its fact: a word of the fact's key within two words
        ('six attendees', 'a 90-day trial', 'attendee count is 3'), or the agent's turn asked for the
        field (``asked``: "How many attendees?" - "Six."). 'I have four requests' or 'the last four
        digits' says no ``attendee_count``."""
        n = self.forms[0][0]
        kws = key_words(key)
        ws = said.words
        for i, w in enumerate(ws):
            if w != n or any(
                len(x) == 1 and x.isalpha() and x not in "ai" for x in ws[max(0, i - 1) : i + 2]
            ):
                continue
            near = ws[max(0, i - 2) : i] + ws[i + 1 : i + 3]
            if asked or any(same_word_either(x, k) for x in near for k in kws):
                return True
        return False


def _other_half(value: str) -> str:
    """'am' for a clock time in the afternoon or evening ('7:00 PM', '19:00'), 'pm' for one in the
    morning; '' for any other value."""
    c = _CLOCK.match(value.strip())
    if not c:
        return ""
    ap = (c.group(3) or "").replace(".", "").lower() or ("pm" if int(c.group(1)) >= 12 else "am")
    return "am" if ap == "pm" else "pm"


def _code_like(text: str) -> bool:
    """A value said letter by letter or digit by digit: it holds a digit, or has no lower-case letter
    ('GRP-ENGCORE', 'AUS')."""
    return any(ch.isdigit() for ch in text) or (text.upper() == text and any(ch.isalpha() for ch in text))


@dataclass
class GoalFact:
    """A leaf of the caller's ``information_required``: its dotted key and the values to look for."""

    key: str
    values: list[Value]


def _leaves(prefix: str, obj: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(f"{prefix}.{k}" if prefix else str(k), v)
    elif isinstance(obj, list) and any(isinstance(x, (dict, list)) for x in obj):
        for i, v in enumerate(obj):
            yield from _leaves(f"{prefix}.{i}", v)
    else:
        yield prefix, obj


def goal_facts(information: dict[str, Any]) -> list[GoalFact]:
    """The gradeable facts of a goal: scalar leaves and lists of scalars, booleans and prose left out."""
    out = []
    for key, raw in _leaves("", information):
        items = raw if isinstance(raw, list) else [raw]
        vals = [
            v
            for x in items
            if not isinstance(x, bool)
            and x is not None
            and str(x).strip().lower() not in NOT_VALUES
            and (v := Value.of(str(x)))
        ]
        if vals:
            out.append(GoalFact(key, vals))
    return out


def facts_said(
    text: str, facts: list[GoalFact], unless_in: str = "", *, asked_in: str | None = None
) -> list[str]:
    """Keys of the facts ``text`` says, leaving out those ``unless_in`` (the agent's turn) already said.
    A bare count is said where the turn that asked names its key ('How many attendees?' - 'Four.'):
    that turn is ``asked_in``, ``unless_in`` when not given (a turn's words may ask a count without
    its values being left out)."""
    said = Said.of(text)
    before = Said.of(unless_in) if unless_in else None
    asked = words_of(unless_in if asked_in is None else asked_in)
    out = []
    for f in facts:
        for v in f.values:
            if not v.said_in(said) or (before and v.said_in(before)):
                continue
            if v.count and not v.count_said(
                said, f.key, any(same_word(w, k) for k in key_words(f.key) for w in asked)
            ):
                continue
            out.append(f.key)
            break
    return out


_KEY_FILLER = frozenset(words("en").key_filler)


def key_words(key: str) -> list[str]:
    """The words that name a fact in its dotted key ('original_travel_details.0.origin' -> ['origin']),
    its filler words and list indexes left out."""
    parts = re.split(r"[._\s()'-]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", key).lower())
    return [w for w in parts if w and not w.isdigit() and w not in _KEY_FILLER]


def same_word(w: str, k: str) -> bool:
    """'dates' for 'date', 'departing' for 'departure': equal, a plural, or the first five letters."""
    return w == k or (len(k) >= 4 and w.startswith(k)) or (len(k) >= 5 and w[:5] == k[:5])


def same_word_either(w: str, k: str) -> bool:
    """:func:`same_word` either way round, or the same but for a plural 's' ('day' for the key word 'days')."""
    return (
        same_word(w, k)
        or (len(w) >= 3 and same_word(k, w))
        or (len(w) >= 3 and w.rstrip("s") == k.rstrip("s"))
    )


_ENDINGS = ("ing", "ed", "es", "s", "d")
_CUT_ONLY_AFTER = {"es": re.compile(r"(?:[sxz]|ch|sh)es$"), "d": re.compile(r"ed$")}
"""An ending cut only where it is one ('boxes' -> 'box', 'noted' -> 'note'; not 'notes' -> 'not',
'card' -> 'car')."""


def word_roots(word: str) -> set[str]:
    """The roots of ``word`` with an inflection ending cut off ('noted' -> 'note', 'debugging' ->
    'debug'). A root of three letters is kept only where the cut is sure: an 'es' after s/x/z/ch/sh
    ('fixes' -> 'fix') or a doubled consonant ('added' -> 'add', 'running' -> 'run'); 'seed' gives
    no 'see', 'noted' no 'not'."""
    roots = set()
    for e in _ENDINGS:
        cut = _CUT_ONLY_AFTER.get(e)
        if word.endswith(e) and len(word) - len(e) >= 3 and (cut is None or cut.search(word)):
            roots.add((word[: -len(e)], e))
    out = {r for r, e in roots if len(r) >= 4 or e == "es" or _doubled(r)}
    return out | {r[:-1] for r, _ in roots if len(r) >= 4 and _doubled(r)}  # 'debugg' -> 'debug'


def _doubled(r: str) -> bool:
    return r[-1] == r[-2] and r[-1] not in "aeiouy"


def said_word(word: str, said: set[str]) -> bool:
    """Whether a content word of the goal's text is among a reply's words ``said``: itself, one of
    its :func:`word_roots` ('add' for 'added', 'run' for 'running': roots of three letters, which
    the five-letter rule misses), or the same word by :func:`same_word_either` ('marked' for 'mark').
    A reply word that is the goal's word less an ending of up to three letters says it only as a
    root ('plan' does not say 'planes', nor 'new' 'news'). The goal says what to answer in its own
    grammar ('say you want to be added'); a reply in another form of the same word says it."""
    if word in said:
        return True
    roots = word_roots(word)

    def says(w: str) -> bool:
        if w in roots:
            return True
        if word.startswith(w) and len(word) - len(w) <= 3:
            return False
        return same_word_either(w, word)

    return any(says(w) for w in said if len(w) >= 3)
