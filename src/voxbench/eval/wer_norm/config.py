"""The per-language number/text normalisation table (EVA's `<lang>.json` schema), typed.

The tables in `data/` are EVA-Bench's (MIT, see `data/NOTICE.md`). Field meanings, from
EVA's config reference:

* vocabulary buckets, checked in this order: `cardinals` (+ `cardinal_variants`: other
  surface forms), `tens` (multiples of ten), `scaling_units` (true multipliers: hundred,
  thousand, lakh); each has a `*_suffixed` twin `{word: [value, suffix]}` for ordinals and
  plurals ("third" -> 3rd); `zeros` concatenate a "0" instead of adding;
* connectives: `conjunction_word` ("and", "et", "und") passes inside a number only after a
  word of a category in `conjunction_ignore_prev`; `decimal_word` ("point", "virgule");
* structure: `reversed_units` (German "einundzwanzig" = 1 and 20), `split_hyphenated_numbers`
  ("quatre-vingt-dix"), vigesimal multiplication (`vigesimal_trigger_words` times a value
  whose `% 100` is in `vigesimal_residuals`), `additive_teen_residuals` (60 + "dix" adds);
  `cardinal_continuation_on_prev_cardinal` (English "one oh one" -> 101);
* text level: `ignore_patterns` (fillers), `replacers` (abbreviations, contractions),
  thousand/decimal separators, `spelling_map_path`, `preserve_combining_marks` (Devanagari).
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field

# Letters NFKD does not decompose; stripped like accents when marks are not preserved.
EXTRA_FOLDS = {"œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ß": "ss", "ẞ": "SS",
               "ð": "d", "Ð": "D", "þ": "th", "Þ": "th", "ł": "l", "Ł": "L"}  # fmt: skip

SHIPPED = ("en", "de", "es", "fr", "fr-CA", "hi")


def fold(s: str) -> str:
    """Strip diacritics (NFKD, drop combining marks) and fold ß/œ/æ-style letters."""
    s = "".join(EXTRA_FOLDS.get(c, c) for c in s)
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


class NumberConfig(BaseModel):
    """One language's table; unknown fields are kept out (extra="ignore")."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    code: str
    zeros: list[str] = Field(default_factory=list)
    cardinals: dict[str, int] = Field(default_factory=dict)
    cardinal_variants: dict[str, int] = Field(default_factory=dict)
    cardinals_suffixed: dict[str, tuple[int, str]] = Field(default_factory=dict)
    tens: dict[str, int] = Field(default_factory=dict)
    tens_suffixed: dict[str, tuple[int, str]] = Field(default_factory=dict)
    scaling_units: dict[str, int] = Field(default_factory=dict)
    scaling_units_suffixed: dict[str, tuple[int, str]] = Field(default_factory=dict)
    preceding_prefixers: dict[str, str] = Field(default_factory=dict)
    following_prefixers: dict[str, str] = Field(default_factory=dict)
    suffixers: dict[str, str | dict[str, str]] = Field(default_factory=dict)
    conjunction_word: str | None = None
    conjunction_ignore_prev: list[str] = Field(default_factory=lambda: ["scaling_units", "tens"])
    repeat_words: dict[str, int] = Field(default_factory=dict)
    decimal_word: str | None = None
    reversed_units: bool = False
    split_hyphenated_numbers: bool = False
    vigesimal_trigger_words: list[str] = Field(default_factory=list)
    vigesimal_multiplier: int = 20
    vigesimal_residuals: list[int] = Field(default_factory=list)
    additive_teen_residuals: list[int] = Field(default_factory=lambda: [0])
    cardinal_continuation_on_prev_cardinal: bool = False
    half_pattern: str | None = None
    half_replacement: str | None = None
    letter_class: str = "a-z"
    ordinal_suffix_pattern: str = ""
    one_word: str | None = None
    one_plural_suffix: str = ""
    cents_connector: str | None = None
    ignore_patterns: str = ""
    replacers: dict[str, str] = Field(default_factory=dict)
    strip_space_before_apostrophe: bool = False
    thousand_separators: list[str] = Field(default_factory=list)
    decimal_separator: str = "dot"
    spelling_map_path: str | None = None
    preserve_combining_marks: bool = False

    def folded(self) -> NumberConfig:
        """The table with diacritics stripped from every word (and suffix), as the text is."""
        if self.preserve_combining_marks:
            return self

        def words(d: dict[str, int]) -> dict[str, int]:
            return {fold(k): v for k, v in d.items()}

        def sfx(d: dict[str, tuple[int, str]]) -> dict[str, tuple[int, str]]:
            return {fold(k): (v, fold(s)) for k, (v, s) in d.items()}

        return self.model_copy(
            update={
                "zeros": [fold(z) for z in self.zeros],
                "cardinals": words(self.cardinals),
                "cardinal_variants": words(self.cardinal_variants),
                "cardinals_suffixed": sfx(self.cardinals_suffixed),
                "tens": words(self.tens),
                "tens_suffixed": sfx(self.tens_suffixed),
                "scaling_units": words(self.scaling_units),
                "scaling_units_suffixed": sfx(self.scaling_units_suffixed),
                "vigesimal_trigger_words": [fold(w) for w in self.vigesimal_trigger_words],
                "conjunction_word": fold(self.conjunction_word) if self.conjunction_word else None,
                "decimal_word": fold(self.decimal_word) if self.decimal_word else None,
            }
        )


def _data(name: str) -> str:
    return resources.files("voxbench.eval.wer_norm").joinpath("data", name).read_text(encoding="utf-8")


def config_code(language: str) -> str | None:
    """The shipped table for a language tag: exact (fr-CA), else its base language (en-US -> en)."""
    tag = (language or "en").replace("_", "-")
    for code in SHIPPED:
        if tag.lower() == code.lower():
            return code
    base = tag.split("-")[0].lower()
    return base if base in SHIPPED else None


@lru_cache(maxsize=16)
def load_config(code: str) -> NumberConfig:
    return NumberConfig.model_validate(json.loads(_data(f"{code}.json"))).folded()


@lru_cache(maxsize=4)
def load_spelling(name: str) -> dict[str, str]:
    return {str(k): str(v) for k, v in json.loads(_data(name)).items()}
