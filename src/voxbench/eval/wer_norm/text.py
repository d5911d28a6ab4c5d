"""The outer text normaliser for WER and entity matching (EVA's `normalize_text` steps).

In order (our code, EVA's semantics, reference §3.4):
1. drop bracketed tags (`[slow]`, `[user interrupts]`); turn literal `\\uXXXX` escapes in ASCII
   text into characters;
2. one apostrophe (’ ‘ ʼ ` -> ');
3. runs of >= 3 single letters become one token ("Z K F F W" -> "zkffw"; digits are not
   letters: "Z K three" keeps "z k 3");
4. digit-bearing hyphen groups join ("899-787" -> 899787), ISO dates split ("2026-03-25");
5. a spoken "dash" between two tokens is dropped ("A B C dash one two");
6. list commas split words ("red,green"); commas inside digits stay for step 7;
7. with a table (en, de, es, fr, fr-CA, hi): fillers removed, abbreviations and
   contractions expanded, thousand/decimal separators read, symbols and diacritics
   stripped (Devanagari keeps its marks), number words -> digits (`numbers.py`), British
   spellings -> American (en); without one: symbols stripped; ja/zh/ko CJK numerals ->
   digits (`cjk.py`); then lower-case, punctuation removed (a decimal point between digits
   stays), whitespace collapsed;
8. leading zeros of digit tokens stripped ("0148" -> 148);
9. a digit and its ordinal suffix rejoined ("3 rd" -> 3rd).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from voxbench.eval.wer_norm.cjk import cjk_numerals
from voxbench.eval.wer_norm.config import EXTRA_FOLDS, NumberConfig, config_code, load_config, load_spelling
from voxbench.eval.wer_norm.literal import required_literal
from voxbench.eval.wer_norm.numbers import NumberNormalizer

CJK_LANGS = ("ja", "zh", "ko")
_KEEP = ".%$¢€£"

# Speed (issue 18): scoring a record normalises ~40 texts, so the per-call work matters.
# Patterns are compiled once; a pattern that needs a character absent from the text is not
# run (`if "-" in t`); ASCII text, the common case, takes str.translate tables built from
# the same unicodedata rules as the per-character loops. Every shortcut gives the same
# string as the general path (tests/eval/test_wer_norm_speed.py compares them). The
# function is pure, so results are memoised (bounded LRU): a record normalises the same
# caller line for stt_wer and the failure analysis, an agent's code in several turns.
CACHE_SIZE = 4096


def _strip_tags(t: str) -> str:
    if "[" in t or "<" in t:
        t = _TAGS.sub(" ", t)
    if t.isascii() and "\\u" in t:
        t = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m[1], 16)), t)
    return t


# bracketed tags and markup: `[...]`, `<...>` (Whisper's rule, which EVA's normaliser keeps)
_TAGS = re.compile(r"[<\[][^>\]]*[>\]]")
_APOSTROPHES = re.compile(r"[\u2019\u2018\u02bc\u0060\u00b4]")


def _apostrophes(t: str) -> str:
    if t.isascii() and "`" not in t:  # the only ASCII one of the five
        return t
    return _APOSTROPHES.sub("'", t)


def _letter_runs(t: str) -> str:
    """Three or more single letters in a row, separated by spaces (each may carry a period
    or comma: "X. F. O.", "F F W,"), are one spelled token; the punctuation goes with them."""

    def join(m: re.Match[str]) -> str:
        return "".join(_LETTER.findall(m[0]))

    return _LETTER_RUN.sub(join, t)


_LETTER = re.compile(r"[^\W\d_]")
_RUN_END = r"[.,;:!?]?(?=\s|$|[;:!?)])"
_LETTER_RUN = re.compile(rf"(?<!\S)[^\W\d_]{_RUN_END}(?:\s+[^\W\d_]{_RUN_END}){{2,}}")


def _hyphen_groups(t: str) -> str:
    def fix(m: re.Match[str]) -> str:
        s = m[0]
        if _ISO_DATE.fullmatch(s):
            return s.replace("-", " ")
        return s.replace("-", "") if _DIGIT.search(s) else s

    return _HYPHEN_GROUP.sub(fix, t) if "-" in t else t


# A match can only start where a word starts (from inside a word, `\w+` reaches the same
# word end as from its start): the lookbehind skips the other positions, same matches.
# Possessive `\w++`: after a whole word only "-" can continue a match, and a shorter run
# would be followed by a word character, so giving characters back never helps (same
# matches, no backtracking through every word without a hyphen).
_HYPHEN_GROUP = re.compile(r"(?<!\w)\w++(?:-\w++)+")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DASH = re.compile(r"(?<=\S)\s+dash\s+(?=\S)", re.IGNORECASE)


def _dash_word(t: str) -> str:
    # in ASCII text only ASCII case variants can match (no long s, Kelvin sign)
    return _DASH.sub(" ", t) if not t.isascii() or "dash" in t.lower() else t


def _list_commas(t: str, boundary: bool) -> str:
    """List commas split words. With a number table the comma stays as a word of its own
    (`boundary`) until the numbers are read, so a spoken number never runs across it:
    "nineteen ninety four, zero two, eleven" is 1994 2 11 (the date 1994-02-11), not
    19940211; punctuation removal drops it afterwards."""
    if "," not in t:
        return t
    return _LIST_COMMA.sub(" , " if boundary else " ", t)


# a comma unless it has a digit on both sides (`,(?!\d)|(?<!\d),`), written to start
# with the comma so the regex engine jumps from comma to comma
_LIST_COMMA = re.compile(r",(?!(?<=\d,)\d)")


@lru_cache(maxsize=32)
def _ascii_table(keep: str, categories: str) -> dict[int, str]:
    """str.translate table: ASCII characters whose Unicode category starts with one of
    `categories` become a space, except those in `keep`."""
    return {
        c: " " for c in range(128) if chr(c) not in keep and unicodedata.category(chr(c))[0] in categories
    }


def _symbols(t: str, keep: str, fold_marks: bool) -> str:
    """Replace marks/symbols/punctuation with spaces (keeping `keep`); strip diacritics
    unless the script needs its combining marks."""
    if t.isascii():  # no folds, NFKD/NFC change nothing, no combining marks: one table
        return t.translate(_ascii_table(keep, "MSP" if fold_marks else "SP"))
    return _symbols_unicode(t, keep, fold_marks)


def _symbols_unicode(t: str, keep: str, fold_marks: bool) -> str:
    """`_symbols` character by character (any text)."""
    if fold_marks:
        t = "".join(EXTRA_FOLDS.get(c, c) for c in t)
        t = unicodedata.normalize("NFKD", t)
        out = []
        for c in t:
            if c in keep:
                out.append(c)
            elif unicodedata.combining(c) or unicodedata.category(c) == "Mn":
                continue
            elif unicodedata.category(c)[0] in "MSP":
                out.append(" ")
            else:
                out.append(c)
        return "".join(out)
    t = unicodedata.normalize("NFC", t)
    return "".join(" " if (c not in keep and unicodedata.category(c)[0] in "SP") else c for c in t)


def _ascii_digits(t: str) -> str:
    if t.isascii():
        return t
    return "".join(str(unicodedata.digit(c)) if c.isdigit() and not c.isascii() else c for c in t)


def _boundaries(pattern: str, cfg: NumberConfig) -> str:
    """`\\b` around words of scripts whose marks are not `\\w` (Devanagari) uses the table's
    letter class instead."""
    if not cfg.preserve_combining_marks:
        return pattern
    cls = f"0-9{cfg.letter_class}\u0900-\u097f"
    return pattern.replace(r"\b", rf"(?:(?<![{cls}])(?=[{cls}])|(?<=[{cls}])(?![{cls}]))")


@dataclass(frozen=True)
class _Extras:
    """What `_with_table` and the ordinal rejoin need per table besides `_engine`, compiled
    once instead of formatted and looked up in re's cache on every call."""

    separators: tuple[tuple[str, re.Pattern[str], str], ...]  # (raw separator, pattern, repl)
    ordinal: tuple[re.Pattern[str], re.Pattern[str]] | None
    """The ordinal rejoin and its hint: the same pattern without its leading `\\b`, which
    finds every text the rejoin changes, several times faster than running it."""
    spelling: dict[str, str] | None


@lru_cache(maxsize=16)
def _extras(code: str) -> _Extras:
    cfg = load_config(code)
    seps = {"comma": ",", "dot": ".", "space": " "}
    compiled = []
    for name in cfg.thousand_separators:
        raw = seps.get(name, name)
        sep = re.escape(raw)
        if name == "comma" and cfg.decimal_separator != "comma":
            compiled.append((raw, re.compile(rf"(\d){sep}(\d)"), r"\1\2"))
        else:
            compiled.append((raw, re.compile(rf"(?<=\d){sep}(?=\d{{3}}(?!\d))"), ""))
    sfx = cfg.ordinal_suffix_pattern
    return _Extras(
        separators=tuple(compiled),
        ordinal=(re.compile(rf"\b(\d+) ({sfx})\b"), re.compile(rf"\d (?:{sfx})\b")) if sfx else None,
        spelling=load_spelling(cfg.spelling_map_path) if cfg.spelling_map_path else None,
    )


@lru_cache(maxsize=16)
def _engine(
    code: str,
) -> tuple[NumberConfig, NumberNormalizer, list[tuple[re.Pattern[str], str, str]], re.Pattern[str] | None]:
    cfg = load_config(code)
    reps: list[tuple[re.Pattern[str], str, str]] = []
    for pat, rep in cfg.replacers.items():
        try:
            rx = re.compile(_boundaries(pat, cfg))
        except re.error:
            continue  # EVA drops invalid patterns silently
        reps.append((rx, rep, required_literal(rx)))
    ignore = None
    if cfg.ignore_patterns:
        try:
            ignore = re.compile(_boundaries(cfg.ignore_patterns, cfg))
        except re.error:
            ignore = None
    return cfg, NumberNormalizer(cfg), reps, ignore


def _with_table(t: str, code: str, values: bool = False) -> str:
    cfg, numbers, reps, ignore = _engine(code)
    t = t.lower()
    if "(" in t:
        t = _PAREN.sub(" ", t)
    if ignore is not None:
        t = ignore.sub(" ", t)
    if cfg.strip_space_before_apostrophe and "'" in t:
        t = _SPACE_APOSTROPHE.sub("'", t)
    for pat, rep, lit in reps:
        if lit in t:
            t = pat.sub(rep, t)
    t = _ascii_digits(t)
    extras = _extras(code)
    for raw, sep_rx, sep_rep in extras.separators:
        if raw in t:
            t = sep_rx.sub(sep_rep, t)
    if cfg.decimal_separator == "comma" and "," in t:
        t = _DECIMAL_COMMA.sub(".", t)
    if "." in t:
        # a dot not before a digit gets a space before it; without two dots in a row the
        # character the pattern consumes can never start the next match, so a lookahead
        # and a plain replacement (no template expansion) give the same text
        t = _DOT_NOT_BEFORE_DIGIT.sub(r" \1", t) if ".." in t else _DOT_NOT_BEFORE_NONDIGIT.sub(" ", t)
    keep = _KEEP + ",-" if cfg.split_hyphenated_numbers else _KEEP + ","  # "," ends numbers (step 6)
    t = _symbols(t, keep, not cfg.preserve_combining_marks)
    t = numbers(t, spell_one=not values)
    if extras.spelling is not None:
        ws = t.split()
        t = " ".join(map(extras.spelling.get, ws, ws))
    return t


_PAREN = re.compile(r"\(([^)]+?)\)")
_SPACE_APOSTROPHE = re.compile(r"\s+'")
_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d)")
_DOT_NOT_BEFORE_DIGIT = re.compile(r"\.([^0-9]|$)")
_DOT_NOT_BEFORE_NONDIGIT = re.compile(r"\.(?=[^0-9]|$)")


@lru_cache(maxsize=8)
def _fillers(lang: str) -> re.Pattern[str] | None:
    """The language's hesitation fillers (`data/cjk_fillers.json`, voxbench's table)."""
    raw = json.loads(
        resources.files("voxbench.eval.wer_norm").joinpath("data", "cjk_fillers.json").read_text("utf-8")
    )
    words = sorted(raw.get(lang, []), key=len, reverse=True)
    return re.compile("|".join(map(re.escape, words))) if words else None


def _basic(t: str, language: str) -> str:
    t = unicodedata.normalize("NFKC", t).lower()
    if (fillers := _fillers(language[:2].lower())) is not None:
        t = fillers.sub(" ", t)
    t = re.sub(r"\(([^)]+?)\)", " ", t)
    t = _ascii_digits(t)
    t = "".join(" " if unicodedata.category(c)[0] in "MSP" and c not in _KEEP else c for c in t)
    if language[:2].lower() in CJK_LANGS:
        t = cjk_numerals(t, korean=language[:2].lower() == "ko")
    return t


_AMOUNT = re.compile(r"([$€£¢])(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)%")
_SYMBOL_WORD = {"$": "dollars", "€": "euros", "£": "pounds", "¢": "cents"}


def _punctuation(t: str, values: bool = False) -> str:
    if values:  # "$340" -> "340 dollars", "5%" -> "5 percent": the unit stays a word
        t = _AMOUNT.sub(lambda m: f"{m[2]} {_SYMBOL_WORD[m[1]]}" if m[1] else f"{m[3]} percent", t)
    t = t.replace("-", " ")
    if "." in t:
        t = _LONE_DOT.sub(" ", t)
    return t.translate(_ascii_table(".", "SP")) if t.isascii() else _punctuation_unicode(t)


def _punctuation_unicode(t: str) -> str:
    """Symbols and punctuation but "." to spaces, character by character (any text)."""
    return "".join(" " if (c != "." and unicodedata.category(c)[0] in "SP") else c for c in t)


_LONE_DOT = re.compile(r"(?<!\d)\.|\.(?!\d)")


_LEADING_ZEROS = re.compile(r"^0+(?=\d)")
_DIGIT = re.compile(r"\d")


def normalize_text(text: str, language: str = "en", values: bool = False) -> str:
    """Normalise one caller/agent text for comparison in the conversation's language.

    `values=True` is for extracting values rather than scoring WER: amounts keep their unit
    as a word ("$340" -> "340 dollars") and a lone 1 stays a digit."""
    return _memo(text or "", language, values)


def set_cache_size(n: int) -> None:
    """Bound the memo at `n` texts (0: no memo, every call normalises; benchmarks use it
    to measure the normaliser itself). Clears what was memoised."""
    global _memo
    _memo = lru_cache(maxsize=n)(_normalize) if n > 0 else _normalize


def _leading_zeros(w: str) -> str:
    """ "0148" -> "148", "000" -> "0" (`^0+(?=\\d)`; for ASCII digits a plain strip)."""
    if w.isascii():
        return w.lstrip("0") or "0"
    return _LEADING_ZEROS.sub("", w)


def _normalize(text: str, language: str, values: bool) -> str:
    t = _apostrophes(_strip_tags(text))
    t = _letter_runs(t)
    t = _hyphen_groups(t)
    t = _dash_word(t)
    code = _config_code(language)
    t = _list_commas(t, boundary=code is not None)
    t = _with_table(t, code, values) if code else _basic(t, language)
    t = _punctuation(t.lower(), values)
    if "0" in t and language[:2].lower() not in CJK_LANGS:  # only a word starting with "0" can lose them
        # (ja/zh/ko keep them: "〇一二三" is read digit by digit, 0123, as EVA does)
        out = " ".join([_leading_zeros(w) if w.isdigit() else w for w in t.split()])
    else:
        out = " ".join(t.split())
    ordinal = _extras(code).ordinal if code else None
    if ordinal is not None and ordinal[1].search(out):
        out = ordinal[0].sub(r"\1\2", out)
    if language[:2].lower() in ("ja", "zh"):
        out = out.replace(" ", "")  # no word spaces in these scripts: they would count as characters
    return out


_config_code = lru_cache(maxsize=64)(config_code)
_memo: Callable[[str, str, bool], str] = lru_cache(maxsize=CACHE_SIZE)(_normalize)
