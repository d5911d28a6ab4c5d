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
from fractions import Fraction

from voxbench.eval.wer_norm.config import NumberConfig
from voxbench.eval.wer_norm.literal import required_literal
from voxbench.eval.wer_norm.ordinals import GluedOrdinals

_NUMERIC = re.compile(r"^\d+(\.\d+)?$")
_ASCII_DIGIT = re.compile(r"[0-9]")


def _frac(s: str) -> Fraction | None:
    try:
        return Fraction(s)
    except (ValueError, ZeroDivisionError):
        return None


def _scale(v: int, m: int) -> int:
    """`v` followed by the scaling word `m`: the part below the last thousand is multiplied
    ("two hundred thousand"); with nothing below it the word adds ("mille cent" -> 1100,
    "un million mille" -> 1001000), as a bare "cent" or "mille" counts one."""
    below = v % 1000
    return v + m if below == 0 else v - below + below * m


class _State:
    """The running number: its value (int while composed, str once read digit by digit),
    a pending prefix ($, -), the last word that fed it, and whether to skip the next word."""

    def __init__(self) -> None:
        self.value: str | int | None = None
        self.prefix: str | None = None
        self.prev_num: str | None = None
        self.skip = False

    def emit(self, result: str | int) -> str:
        """`result` with the pending prefix; the running number is reset."""
        text = str(result) if self.prefix is None else self.prefix + str(result)
        self.value, self.prefix, self.prev_num = None, None, None
        return text

    def flush(self, out: list[str]) -> None:
        """Append the running number, if any, to `out`."""
        if self.value is not None:
            out.append(self.emit(self.value))


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
        # no hyphen splitting, glued compounds or reversed units: every token stays whole
        self._tokens_whole = not cfg.split_hyphenated_numbers and not cfg.reversed_units
        # compiled once per table (scoring normalises tens of texts per record); each is
        # run only when the text has what it needs (a digit, a currency sign, "1")
        letters = cfg.letter_class
        self._half = re.compile(cfg.half_pattern) if cfg.half_pattern and cfg.half_replacement else None
        self._half_literal = required_literal(self._half) if self._half is not None else ""
        # a space between a letter and a digit: matched as a position (the table's letter
        # class never holds an ASCII digit, so the pair matches could not overlap either)
        # (the digit is looked for first: most positions fail there, the cheaper test)
        self._letter_digit = re.compile(rf"(?=[0-9])(?<=[{letters}])")
        self._glued = GluedOrdinals(cfg, letters)  # "3e", "1er" stay whole (French)
        self._digit_letter = (
            self._glued.digit_letter if self._glued.active else re.compile(rf"(?<=[0-9])(?=[{letters}])")
        )
        self._ordinal = (
            re.compile(rf"([0-9])\s+({cfg.ordinal_suffix_pattern})\b") if cfg.ordinal_suffix_pattern else None
        )
        conn = rf"(?:{re.escape(cfg.cents_connector)} )?" if cfg.cents_connector else ""
        self._cents = re.compile(rf"([€£$])([0-9]+) {conn}¢([0-9]{{1,2}})\b")
        self._under_one = re.compile(r"[€£$]0\.([0-9]{1,2})\b")
        # `\b1(s?)\b` starting with the literal (the engine jumps from "1" to "1"): the
        # lookbehind says the character before the "1" is not a word character
        self._one = re.compile(r"1(?<!\w1)(s?)\b")

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

    def preprocess_words(self, s: str) -> list[str]:
        """The words the state machine reads: hyphen groups and glued compounds split,
        "and a half" and letter-digit joins spread out. (It returned them joined by
        spaces, which `__call__` split again: no word is empty or holds a space, each is
        a piece of one whitespace-split token, so the list is the same.)"""
        cfg = self.cfg
        # without the pattern's literal the split is [s]: only blanks would change, and the
        # words below are the same either way
        if self._half is not None and cfg.half_pattern and cfg.half_replacement and self._half_literal in s:
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
            s = self._glued.rewrite(s)
            s = self._letter_digit.sub(" ", s)
            s = self._digit_letter.sub(" ", s)
            if self._ordinal is not None:
                s = self._ordinal.sub(r"\1\2", s)
        if self._tokens_whole:
            return s.split()  # split_token keeps every token whole
        words = [p for w in s.split() for p in self.split_token(w)]
        if cfg.reversed_units and cfg.conjunction_word:
            words = self._reverse_units(words)
        return words

    # ---- the state machine

    def process_words(self, words: list[str]) -> list[str]:
        """Words in, words out: number words become digit strings, the rest pass through."""
        st = _State()
        out: list[str] = []
        prefixes, vocab = self.prefixes, self.words
        padded: list[str | None] = [None, *words, None]
        for idx in range(1, len(padded) - 1):
            cur = padded[idx]
            assert cur is not None
            if st.skip:
                st.skip = False
                continue
            c0 = cur[0]
            if cur == "," and st.value is not None and self._comma_inside(st, padded[idx + 1]):
                continue
            if c0 not in prefixes and not c0.isdigit() and cur not in vocab:
                # the common word: no prefix, cannot be numeric (`\d` is a subset of
                # isdigit), not a number word: it ends the running number (st.emit inline)
                if st.value is not None:
                    out.append(st.emit(st.value))
                if st.prefix is not None:
                    cur = st.prefix + cur
                    st.prefix = None
                st.prev_num = None
                out.append(cur)
                continue
            self._dispatch(out, st, cur, c0, padded[idx - 1], padded[idx + 1])
        st.flush(out)
        return out

    def _comma_inside(self, st: _State, nxt: str | None) -> bool:
        """A list comma ends a spoken number (step 6: "nineteen ninety four, zero two,
        eleven" and "twenty twenty six, zero eight, one five" are dates; a code read in
        comma groups is read as groups too). It stays inside one only after a scaling word
        ("one thousand, two hundred", as written number words put it)."""
        return st.prev_num in self.mult and nxt in self.words

    def _dispatch(
        self, out: list[str], st: _State, cur: str, c0: str, prev: str | None, nxt: str | None
    ) -> None:
        """One word that may be part of a number (a prefix, digits or a number word)."""
        bare = cur[1:] if c0 in self.prefixes else cur
        if _NUMERIC.match(bare):
            self._digits(out, st, cur, bare)
        elif cur not in self.words:
            st.flush(out)
            out.append(st.emit(cur))
        elif cur in self.zeros or cur in self.ones or cur in self.tens or cur in self.mult:
            self._compose(out, st, cur)
        elif cur in self.ones_sfx or cur in self.tens_sfx or cur in self.mult_sfx:
            self._suffixed(out, st, cur)
        else:
            self._affix_or_special(out, st, prev, cur, nxt)

    def _digits(self, out: list[str], st: _State, cur: str, bare: str) -> None:
        """Written digits: continue a decimal ("3." + "5"), else start a new number."""
        if st.value is not None:
            if isinstance(st.value, str) and st.value.endswith("."):
                st.value += cur
                return
            st.flush(out)
        if bare is not cur:
            st.prefix = cur[0]
        if "." not in bare and len(bare) < 4000:  # digits only: Fraction(bare).numerator,
            st.value = int(bare)  # cheaper (under int's digit limit, where Fraction fails)
        else:
            f = _frac(bare)
            st.value = f.numerator if f is not None and f.denominator == 1 else bare
        st.prev_num = None

    def _add_ones(self, st: _State, d: int) -> str | int:
        """`value` followed by a cardinal `d`: add, append its digits, or fill a tens zero."""
        v = st.value
        if v is None:
            return d
        if isinstance(v, str) or (
            self.cfg.cardinal_continuation_on_prev_cardinal and st.prev_num in self.ones
        ):
            if st.prev_num in self.tens and d < 10 and str(v).endswith("0"):
                return str(v)[:-1] + str(d)  # "twenty twenty four" -> 2024
            return str(v) + str(d)
        if d < 10:
            return v + d if v % 10 == 0 else f"{v}{d}"
        return v + d if v % 100 in self.additive else f"{v}{d}"

    def _add_tens(self, v: str | int | None, word: str, t: int) -> str | int:
        if v is None:
            return t
        if word in self.vigesimal and isinstance(v, int) and v % 100 in self.cfg.vigesimal_residuals:
            return v - v % 100 + (v % 100) * self.cfg.vigesimal_multiplier  # quatre vingt -> 80
        if isinstance(v, str):
            return v + str(t)
        return v + t if v % 100 == 0 else f"{v}{t}"

    def _compose(self, out: list[str], st: _State, cur: str) -> None:
        """Zeros, cardinals, tens and scaling units extend the running value."""
        if cur in self.zeros:
            st.value = str(st.value or "") + "0"
        elif cur in self.ones:
            st.value = self._add_ones(st, self.ones[cur])
        elif cur in self.tens:
            st.value = self._add_tens(st.value, cur, self.tens[cur])
        else:
            m = self.mult[cur]
            v = st.value
            if v is None:
                st.value = m
            elif isinstance(v, str) or v == 0:
                f = _frac(str(v))
                if f is not None and (f * m).denominator == 1:
                    st.value = (f * m).numerator
                else:
                    st.flush(out)
                    st.value = m
            else:
                st.value = _scale(v, m)
        st.prev_num = cur

    def _suffixed(self, out: list[str], st: _State, cur: str) -> None:
        """Ordinals and plurals ("third", "twenties", "hundredth") end the number with a suffix."""
        v = st.value
        if cur in self.ones_sfx:
            n, suffix = self.ones_sfx[cur]
            out.append(st.emit(f"{self._add_ones(st, n)}{suffix}"))
        elif cur in self.tens_sfx:
            t, suffix = self.tens_sfx[cur]
            out.append(st.emit(f"{self._add_tens(v, cur, t)}{suffix}"))
        else:
            m, suffix = self.mult_sfx[cur]
            if v is None:
                out.append(st.emit(f"{m}{suffix}"))
            elif isinstance(v, str):
                f = _frac(v)
                if f is not None and (f * m).denominator == 1:
                    out.append(st.emit(f"{(f * m).numerator}{suffix}"))
                else:
                    st.flush(out)
                    out.append(st.emit(f"{m}{suffix}"))
            else:
                out.append(st.emit(f"{_scale(v, m)}{suffix}"))

    def _affix_or_special(
        self, out: list[str], st: _State, prev: str | None, cur: str, nxt: str | None
    ) -> None:
        """Prefix/suffix words ($, %), then the conjunction, repeat and decimal words."""
        cfg = self.cfg
        next_numeric = nxt is not None and bool(_NUMERIC.match(nxt))
        if cur in cfg.preceding_prefixers:
            st.flush(out)
            if nxt in self.words or next_numeric:
                st.prefix = cfg.preceding_prefixers[cur]
            else:
                out.append(st.emit(cur))
        elif cur in cfg.following_prefixers:
            if st.value is not None:
                st.prefix = cfg.following_prefixers[cur]
                st.flush(out)
            else:
                out.append(st.emit(cur))
        elif cur in cfg.suffixers:
            sfx = cfg.suffixers[cur]
            if st.value is None:
                out.append(st.emit(cur))
            elif not isinstance(sfx, dict):
                out.append(st.emit(f"{st.value}{sfx}"))
            elif nxt in sfx:
                out.append(st.emit(f"{st.value}{sfx[nxt]}"))
                st.skip = True
            else:
                st.flush(out)
                out.append(st.emit(cur))
        elif nxt not in self.words and not next_numeric:
            st.flush(out)  # a special word that cannot lead into a number here
            out.append(st.emit(cur))
        else:
            self._special(out, st, prev, cur, nxt, next_numeric)

    def _special(
        self, out: list[str], st: _State, prev: str | None, cur: str, nxt: str | None, next_numeric: bool
    ) -> None:
        cfg = self.cfg
        if cur == cfg.conjunction_word:
            passes = any(prev in self.categories.get(c, ()) for c in cfg.conjunction_ignore_prev)
            if not passes or st.value is None:
                st.flush(out)
                out.append(st.emit(cur))
        elif cur in cfg.repeat_words and (nxt in self.ones or nxt in self.zeros):
            d = self.ones.get(nxt or "", 0)
            st.value = str(st.value or "") + str(d) * cfg.repeat_words[cur]
            st.prev_num, st.skip = nxt, True
        elif cur == cfg.decimal_word and (nxt in self.decimals or next_numeric):
            st.value = str(st.value or "") + "."
        else:
            st.flush(out)
            out.append(st.emit(cur))

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
        s = " ".join([w for w in self.process_words(self.preprocess_words(s)) if w])
        return self.postprocess(s, spell_one)
