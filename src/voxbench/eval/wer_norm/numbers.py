"""Spoken numbers -> digits, driven by one language's table (EVA's inner normaliser).

A left-to-right state machine over words (the shape of Whisper's English number
normaliser, generalised by the table fields; our own code). The running `value` is an int
while it is a composed number ("one hundred fifteen" -> 115) and a digit string once words
are read digit by digit ("nine one nine" -> "919", "seven zero three" -> "703"):

* a zero appends "0"; a cardinal after a cardinal, or after a string value, appends its
  digits, except a unit after a tens word replaces that word's trailing 0 ("twenty twenty
  four" -> "2024"); a unit adds to a value ending in 0; a value >= 10 adds when
  `value % 100` is additive (0, or 60/80 in French), else appends;
* a scaling unit multiplies the part below the last thousand ("two hundred" -> 200,
  "lakh" too); tens add to a value ending in 00, else append;
* a vigesimal word multiplies a value whose `% 100` is a residual ("quatre vingt" -> 80);
* the conjunction passes after a category in `conjunction_ignore_prev`, else ends the number;
* the decimal word, prefix and suffix words ("dollars" -> $, "percent" -> %), and
  double/triple follow the table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction

from voxbench.eval.wer_norm.config import NumberConfig

_NUMERIC = re.compile(r"^\d+(\.\d+)?$")
_ASCII_DIGIT = re.compile(r"[0-9]")


def _frac(s: str) -> Fraction | None:
    try:
        return Fraction(s)
    except (ValueError, ZeroDivisionError):
        return None


class NumberNormalizer:
    """Converts number words in one language; build once per table."""

    def __init__(self, cfg: NumberConfig):
        self.cfg = cfg
        self.zeros = set(cfg.zeros)
        self.ones = {**cfg.cardinals, **cfg.cardinal_variants}
        self.tens = dict(cfg.tens)
        self.mult = dict(cfg.scaling_units)
        self.ones_sfx = dict(cfg.cardinals_suffixed)
        self.tens_sfx = dict(cfg.tens_suffixed)
        self.mult_sfx = dict(cfg.scaling_units_suffixed)
        self.prefixes = {*cfg.preceding_prefixers.values(), *cfg.following_prefixers.values()}
        self.specials = {w for w in (cfg.conjunction_word, cfg.decimal_word, *cfg.repeat_words) if w}
        self.decimals = {*self.ones, *self.tens, *self.zeros}
        self.words = {
            *self.zeros, *self.ones, *self.tens, *self.mult, *self.ones_sfx, *self.tens_sfx,
            *self.mult_sfx, *cfg.preceding_prefixers, *cfg.following_prefixers, *cfg.suffixers,
            *self.specials,
        }  # fmt: skip
        self.vigesimal = set(cfg.vigesimal_trigger_words)
        self.additive = {0, *cfg.additive_teen_residuals}
        self.categories = {"scaling_units": set(self.mult), "tens": set(self.tens)}
        # compiled once per table (scoring normalises tens of texts per record); each is
        # run only when the text has what it needs (a digit, a currency sign, "1")
        letters = cfg.letter_class
        self._half = re.compile(cfg.half_pattern) if cfg.half_pattern and cfg.half_replacement else None
        self._letter_digit = re.compile(rf"([{letters}])([0-9])")
        self._digit_letter = re.compile(rf"([0-9])([{letters}])")
        self._ordinal = (
            re.compile(rf"([0-9])\s+({cfg.ordinal_suffix_pattern})\b") if cfg.ordinal_suffix_pattern else None
        )
        conn = rf"(?:{re.escape(cfg.cents_connector)} )?" if cfg.cents_connector else ""
        self._cents = re.compile(rf"([€£$])([0-9]+) {conn}¢([0-9]{{1,2}})\b")
        self._under_one = re.compile(r"[€£$]0\.([0-9]{1,2})\b")
        self._one = re.compile(r"\b1(s?)\b")

    # ---- preprocessing: hyphens, glued compounds, reversed units, "and a half"

    def split_token(self, w: str) -> list[str]:
        """A token that is not a word but is made of number words is split into them
        ("quatre-vingt-dix", German "zweihundertdreiundvierzig")."""
        if w in self.words or not w:
            return [w]
        if self.cfg.split_hyphenated_numbers and "-" in w:
            parts = [p for p in w.split("-") if p]
            if parts and all(p in self.words or _NUMERIC.match(p) for p in parts):
                return parts
        if self.cfg.reversed_units and w.isalpha():
            return self._segment(w) or [w]
        return [w]

    def _segment(self, w: str) -> list[str] | None:
        """Split a glued word into number words (longest first), or None if it is not one."""
        vocab = {*self.ones, *self.tens, *self.mult, *self.zeros, *self.ones_sfx, *self.tens_sfx,
                 *self.mult_sfx, *(x for x in [self.cfg.conjunction_word] if x)}  # fmt: skip
        best: list[list[str] | None] = [None] * (len(w) + 1)
        best[len(w)] = []
        for i in range(len(w) - 1, -1, -1):
            for j in range(len(w), i, -1):
                rest = best[j]
                if rest is not None and w[i:j] in vocab:
                    best[i] = [w[i:j], *rest]
                    break
        out = best[0]
        return out if out and len(out) > 1 else None

    def _reverse_units(self, words: list[str]) -> list[str]:
        """German order: "<unit> und <tens>" -> "<tens> <unit>"."""
        conj = self.cfg.conjunction_word
        out: list[str] = []
        i = 0
        while i < len(words):
            w = words[i]
            if (
                i + 2 < len(words)
                and words[i + 1] == conj
                and self.ones.get(w, 10) < 10
                and (words[i + 2] in self.tens or words[i + 2] in self.tens_sfx)
            ):
                out += [words[i + 2], w]
                i += 3
            else:
                out.append(w)
                i += 1
        return out

    def preprocess(self, s: str) -> str:
        cfg = self.cfg
        if self._half is not None and cfg.half_pattern and cfg.half_replacement:
            segs = self._half.split(s)
            res: list[str] = []
            for i, seg in enumerate(segs):
                if not seg.strip():
                    continue
                res.append(seg)
                if i < len(segs) - 1:
                    last = seg.rsplit(maxsplit=2)[-1]
                    whole = last in self.decimals or last in self.mult
                    res.append(cfg.half_replacement if whole else re.sub(r"\\[bs]\+?", " ", cfg.half_pattern))
            s = " ".join(res)
        if _ASCII_DIGIT.search(s):
            s = self._letter_digit.sub(r"\1 \2", s)
            s = self._digit_letter.sub(r"\1 \2", s)
            if self._ordinal is not None:
                s = self._ordinal.sub(r"\1\2", s)
        words = [p for w in s.split() for p in self.split_token(w)]
        if cfg.reversed_units and cfg.conjunction_word:
            words = self._reverse_units(words)
        return " ".join(words)

    # ---- the state machine

    def process_words(self, words: list[str]) -> Iterator[str]:
        cfg = self.cfg
        prefix: str | None = None
        value: str | int | None = None
        prev_num: str | None = None  # the last word that fed `value` (skips a passed conjunction)
        skip = False

        def output(result: str | int) -> str:
            nonlocal prefix, value, prev_num
            text = str(result)
            if prefix is not None:
                text = prefix + text
            value, prefix, prev_num = None, None, None
            return text

        def join_digit(v: str | int, d: int) -> str:
            if prev_num in self.tens and d < 10 and str(v).endswith("0"):
                return str(v)[:-1] + str(d)  # "twenty twenty four" -> 2024
            return str(v) + str(d)

        def add_ones(v: str | int | None, d: int) -> str | int:
            if v is None:
                return d
            if isinstance(v, str) or (cfg.cardinal_continuation_on_prev_cardinal and prev_num in self.ones):
                return join_digit(v, d)
            if d < 10:
                return v + d if v % 10 == 0 else f"{v}{d}"
            return v + d if v % 100 in self.additive else f"{v}{d}"

        padded: list[str | None] = [None, *words, None]
        for idx in range(1, len(padded) - 1):
            prev, cur, nxt = padded[idx - 1], padded[idx], padded[idx + 1]
            assert cur is not None
            if skip:
                skip = False
                continue
            next_numeric = nxt is not None and bool(_NUMERIC.match(nxt))
            has_prefix = cur[0] in self.prefixes
            bare = cur[1:] if has_prefix else cur
            if _NUMERIC.match(bare):
                f = _frac(bare)
                if value is not None:
                    if isinstance(value, str) and value.endswith("."):
                        value = value + cur  # decimals, dotted groups
                        continue
                    yield output(value)
                prefix = cur[0] if has_prefix else prefix
                value = f.numerator if f is not None and f.denominator == 1 else bare
                prev_num = None
            elif cur not in self.words:
                if value is not None:
                    yield output(value)
                yield output(cur)
            elif cur in self.zeros:
                value = str(value if value is not None else "") + "0"
                prev_num = cur
            elif cur in self.ones:
                value = add_ones(value, self.ones[cur])
                prev_num = cur
            elif cur in self.ones_sfx:
                n, suffix = self.ones_sfx[cur]
                yield output(f"{add_ones(value, n)}{suffix}")
            elif cur in self.tens:
                t = self.tens[cur]
                if value is None:
                    value = t
                elif (
                    cur in self.vigesimal
                    and isinstance(value, int)
                    and value % 100 in cfg.vigesimal_residuals
                ):
                    value = value - value % 100 + (value % 100) * cfg.vigesimal_multiplier
                elif isinstance(value, str):
                    value = value + str(t)
                else:
                    value = value + t if value % 100 == 0 else f"{value}{t}"
                prev_num = cur
            elif cur in self.tens_sfx:
                t, suffix = self.tens_sfx[cur]
                if value is None:
                    yield output(f"{t}{suffix}")
                elif (
                    cur in self.vigesimal
                    and isinstance(value, int)
                    and value % 100 in cfg.vigesimal_residuals
                ):
                    yield output(f"{value - value % 100 + (value % 100) * cfg.vigesimal_multiplier}{suffix}")
                elif isinstance(value, str):
                    yield output(f"{value}{t}{suffix}")
                else:
                    yield output(f"{value + t if value % 100 == 0 else f'{value}{t}'}{suffix}")
            elif cur in self.mult:
                m = self.mult[cur]
                if value is None:
                    value = m
                elif isinstance(value, str) or value == 0:
                    f = _frac(str(value))
                    if f is not None and (f * m).denominator == 1:
                        value = (f * m).numerator
                    else:
                        yield output(value)
                        value = m
                else:
                    value = value // 1000 * 1000 + value % 1000 * m
                prev_num = cur
            elif cur in self.mult_sfx:
                m, suffix = self.mult_sfx[cur]
                if value is None:
                    yield output(f"{m}{suffix}")
                elif isinstance(value, str):
                    f = _frac(value)
                    if f is not None and (f * m).denominator == 1:
                        yield output(f"{(f * m).numerator}{suffix}")
                    else:
                        yield output(value)
                        yield output(f"{m}{suffix}")
                else:
                    yield output(f"{value // 1000 * 1000 + value % 1000 * m}{suffix}")
            elif cur in cfg.preceding_prefixers:
                if value is not None:
                    yield output(value)
                if nxt in self.words or next_numeric:
                    prefix = cfg.preceding_prefixers[cur]
                else:
                    yield output(cur)
            elif cur in cfg.following_prefixers:
                if value is not None:
                    prefix = cfg.following_prefixers[cur]
                    yield output(value)
                else:
                    yield output(cur)
            elif cur in cfg.suffixers:
                sfx = cfg.suffixers[cur]
                if value is None:
                    yield output(cur)
                elif isinstance(sfx, dict):
                    if nxt in sfx:
                        yield output(f"{value}{sfx[nxt]}")
                        skip = True
                    else:
                        yield output(value)
                        yield output(cur)
                else:
                    yield output(f"{value}{sfx}")
            elif nxt not in self.words and not next_numeric:
                # a special word that cannot start or continue a number here
                if value is not None:
                    yield output(value)
                yield output(cur)
            elif cur == cfg.conjunction_word:
                passes = any(prev in self.categories.get(c, ()) for c in cfg.conjunction_ignore_prev)
                if not passes or value is None:
                    if value is not None:
                        yield output(value)
                    yield output(cur)
            elif cur in cfg.repeat_words:
                if nxt in self.ones or nxt in self.zeros:
                    d = self.ones.get(nxt or "", 0)
                    value = str(value if value is not None else "") + str(d) * cfg.repeat_words[cur]
                    prev_num = nxt
                    skip = True
                else:
                    if value is not None:
                        yield output(value)
                    yield output(cur)
            elif cur == cfg.decimal_word:
                if nxt in self.decimals or next_numeric:
                    value = str(value if value is not None else "") + "."
                else:
                    if value is not None:
                        yield output(value)
                    yield output(cur)
            else:
                if value is not None:
                    yield output(value)
                yield output(cur)
        if value is not None:
            yield output(value)

    def postprocess(self, s: str, spell_one: bool = True) -> str:
        cfg = self.cfg
        if "¢" in s:
            s = self._cents.sub(lambda m: f"{m[1]}{m[2]}.{int(m[3]):02d}", s)
        if "0." in s:
            s = self._under_one.sub(lambda m: f"¢{int(m[1])}", s)
        if cfg.one_word and spell_one and "1" in s:
            s = self._one.sub(lambda m: cfg.one_word + (cfg.one_plural_suffix if m[1] else ""), s)  # type: ignore[operator]
        return s

    def __call__(self, s: str, spell_one: bool = True) -> str:
        """`spell_one=False` keeps a lone 1 as a digit (EVA writes it back as "one" for WER)."""
        s = self.preprocess(s)
        s = " ".join(w for w in self.process_words(s.split()) if w)
        return self.postprocess(s, spell_one)
