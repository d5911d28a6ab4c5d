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

import re
import unicodedata
from functools import lru_cache

from voxbench.eval.wer_norm.cjk import cjk_numerals
from voxbench.eval.wer_norm.config import EXTRA_FOLDS, NumberConfig, config_code, load_config, load_spelling
from voxbench.eval.wer_norm.numbers import NumberNormalizer

CJK_LANGS = ("ja", "zh", "ko")
_KEEP = ".%$¢€£"


def _strip_tags(t: str) -> str:
    t = re.sub(r"\[[^\]]*\]", " ", t)
    if t.isascii() and "\\u" in t:
        t = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m[1], 16)), t)
    return t


def _apostrophes(t: str) -> str:
    return re.sub(r"[\u2019\u2018\u02bc\u0060\u00b4]", "'", t)


def _letter_runs(t: str) -> str:
    """Three or more single letters in a row, separated by spaces (each may carry a period
    or comma: "X. F. O.", "F F W,"), are one spelled token; the punctuation goes with them."""

    def join(m: re.Match[str]) -> str:
        return "".join(re.findall(r"[^\W\d_]", m[0]))

    end = r"[.,;:!?]?(?=\s|$|[;:!?)])"
    one = rf"(?<!\S)[^\W\d_]{end}"
    return re.sub(rf"{one}(?:\s+[^\W\d_]{end}){{2,}}", join, t)


def _hyphen_groups(t: str) -> str:
    def fix(m: re.Match[str]) -> str:
        s = m[0]
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", s):
            return s.replace("-", " ")
        return s.replace("-", "") if re.search(r"\d", s) else s

    return re.sub(r"\w+(?:-\w+)+", fix, t)


def _dash_word(t: str) -> str:
    return re.sub(r"(?<=\S)\s+dash\s+(?=\S)", " ", t, flags=re.IGNORECASE)


def _list_commas(t: str) -> str:
    return re.sub(r",(?!\d)|(?<!\d),", " ", t)


def _symbols(t: str, keep: str, fold_marks: bool) -> str:
    """Replace marks/symbols/punctuation with spaces (keeping `keep`); strip diacritics
    unless the script needs its combining marks."""
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
    return "".join(str(unicodedata.digit(c)) if c.isdigit() and not c.isascii() else c for c in t)


def _boundaries(pattern: str, cfg: NumberConfig) -> str:
    """`\\b` around words of scripts whose marks are not `\\w` (Devanagari) uses the table's
    letter class instead."""
    if not cfg.preserve_combining_marks:
        return pattern
    cls = f"0-9{cfg.letter_class}\u0900-\u097f"
    return pattern.replace(r"\b", rf"(?:(?<![{cls}])(?=[{cls}])|(?<=[{cls}])(?![{cls}]))")


@lru_cache(maxsize=16)
def _engine(
    code: str,
) -> tuple[NumberConfig, NumberNormalizer, list[tuple[re.Pattern[str], str]], re.Pattern[str] | None]:
    cfg = load_config(code)
    reps: list[tuple[re.Pattern[str], str]] = []
    for pat, rep in cfg.replacers.items():
        try:
            reps.append((re.compile(_boundaries(pat, cfg)), rep))
        except re.error:
            continue  # EVA drops invalid patterns silently
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
    t = re.sub(r"\(([^)]+?)\)", " ", t)
    if ignore is not None:
        t = ignore.sub(" ", t)
    if cfg.strip_space_before_apostrophe:
        t = re.sub(r"\s+'", "'", t)
    for pat, rep in reps:
        t = pat.sub(rep, t)
    t = _ascii_digits(t)
    seps = {"comma": ",", "dot": ".", "space": " "}
    for name in cfg.thousand_separators:
        sep = re.escape(seps.get(name, name))
        if name == "comma" and cfg.decimal_separator != "comma":
            t = re.sub(rf"(\d){sep}(\d)", r"\1\2", t)
        else:
            t = re.sub(rf"(?<=\d){sep}(?=\d{{3}}(?!\d))", "", t)
    if cfg.decimal_separator == "comma":
        t = re.sub(r"(?<=\d),(?=\d)", ".", t)
    t = re.sub(r"\.([^0-9]|$)", r" \1", t)
    t = _symbols(t, _KEEP + ("-" if cfg.split_hyphenated_numbers else ""), not cfg.preserve_combining_marks)
    t = numbers(t, spell_one=not values)
    if cfg.spelling_map_path:
        spelling = load_spelling(cfg.spelling_map_path)
        t = " ".join(spelling.get(w, w) for w in t.split())
    return t


def _basic(t: str, language: str) -> str:
    t = unicodedata.normalize("NFKC", t).lower()
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
    t = re.sub(r"(?<!\d)\.|\.(?!\d)", " ", t)
    return "".join(" " if (c != "." and unicodedata.category(c)[0] in "SP") else c for c in t)


def normalize_text(text: str, language: str = "en", values: bool = False) -> str:
    """Normalise one caller/agent text for comparison in the conversation's language.

    `values=True` is for extracting values rather than scoring WER: amounts keep their unit
    as a word ("$340" -> "340 dollars") and a lone 1 stays a digit."""
    t = _apostrophes(_strip_tags(text or ""))
    t = _letter_runs(t)
    t = _hyphen_groups(t)
    t = _dash_word(t)
    t = _list_commas(t)
    code = config_code(language)
    t = _with_table(t, code, values) if code else _basic(t, language)
    t = _punctuation(t.lower(), values)
    toks = [re.sub(r"^0+(?=\d)", "", w) if w.isdigit() else w for w in t.split()]
    out = " ".join(toks)
    sfx = load_config(code).ordinal_suffix_pattern if code else ""
    if sfx:
        out = re.sub(rf"\b(\d+) ({sfx})\b", r"\1\2", out)
    if language[:2].lower() in ("ja", "zh"):
        out = out.replace(" ", "")  # no word spaces in these scripts: they would count as characters
    return out
