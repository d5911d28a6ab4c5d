"""Which of a table's fillers and replacers can match a text, found without running them.

Why (issue 18, speed): English has 49 replacers (abbreviations, contractions) applied in
order, and a text of ~100 characters went through all 49 literal checks plus a regex run
for every short literal found inside a longer word ("st" in "first", "dr" in "address"):
~10 us of the normaliser's ~63 per text. Most of them are `\\bWORD\\b` with WORD made of
word characters, which matches exactly when WORD is one of the text's maximal `\\w+` runs:
the set of runs (for ASCII text from one bytes translate and split) and a set intersection
answer all of them at once. The filler pattern `\\b(hmm|um|...)\\b` is the same test. The
other replacers keep their literal check. Measured on the synthetic run's 21,564 texts
(en): fillers and replacers 11.2 -> 5.0 us per text.

Every shortcut is exact: a replacer that is skipped could not have matched the text it
would have run on, so `apply` gives the text the in-order loop gives (a test compares).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_RUN = re.compile(r"\w+")
_ALTERNATION = re.compile(r"\\b\((\w+(?:\|\w+)*)\)\\b")


Runs = set[str] | set[bytes]


def word_runs(t: str) -> Runs:
    """The maximal runs of word characters: what `\\bWORD\\b` can match. ASCII text gives
    them as bytes (its non-word bytes made spaces and split, ~2.5x faster than `findall`;
    the same runs), other text as str: look them up with `both_forms` keys."""
    if t.isascii():
        return set(t.encode("ascii").translate(_ASCII_NON_WORD).split())
    return set(_RUN.findall(t))


_ASCII_NON_WORD = bytes(c if c < 128 and re.match(r"\w", chr(c)) else 32 for c in range(256))


def both_forms(words: Iterable[str]) -> frozenset[str | bytes]:
    """`words`, plus the bytes of each ASCII one (what `word_runs` gives for ASCII text)."""
    ws = list(words)
    return frozenset([*ws, *(w.encode("ascii") for w in ws if w.isascii())])


def whole_word(pat: re.Pattern[str], literal: str) -> str | None:
    """`literal` when `pat` is exactly `\\b<literal>\\b` over word characters, else None."""
    if literal and _RUN.fullmatch(literal) and pat.pattern == rf"\b{literal}\b":
        return literal
    return None


def alternation_words(pat: re.Pattern[str] | None) -> frozenset[str | bytes] | None:
    """The words of a `\\b(w1|w2|...)\\b` pattern over word characters (it matches exactly
    when one of them is a maximal `\\w+` run), else None."""
    if pat is None or pat.flags & re.IGNORECASE:
        return None
    m = _ALTERNATION.fullmatch(pat.pattern)
    return both_forms(m[1].split("|")) if m else None


@dataclass(frozen=True)
class ReplacerGate:
    """A table's replacers (pattern, replacement, required literal) in order, indexed.

    `words` maps the WORD of each `\\bWORD\\b` replacer (and its bytes when ASCII, see
    `word_runs`) to its positions; `others` are the positions of the rest, run only when
    the text holds their literal and, checked first, a character all their literals hold
    (`common`, "" when there is none: English's contractions all hold an apostrophe)."""

    replacers: tuple[tuple[re.Pattern[str], str, str], ...]
    words: dict[str | bytes, tuple[int, ...]]
    keys: frozenset[str | bytes]  # the words' keys, for a set intersection
    others: tuple[int, ...]
    common: str

    @classmethod
    def build(cls, replacers: Sequence[tuple[re.Pattern[str], str, str]]) -> ReplacerGate:
        words: dict[str | bytes, list[int]] = {}
        others: list[int] = []
        for i, (pat, _rep, lit) in enumerate(replacers):
            w = whole_word(pat, lit)
            if w is not None:
                for key in both_forms([w]):
                    words.setdefault(key, []).append(i)
            else:
                others.append(i)
        lits = [set(replacers[i][2]) for i in others]
        common = set.intersection(*lits) if lits and all(lits) else set()
        return cls(
            tuple(replacers),
            {w: tuple(ix) for w, ix in words.items()},
            frozenset(words),
            tuple(others),
            min(common) if common else "",
        )

    def candidates(self, t: str, start: int, runs: Runs) -> list[int]:
        """Positions >= `start` whose replacer may match `t` (`runs`: `word_runs(t)`); the
        others cannot."""
        out = [i for w in runs & self.keys for i in self.words[w] if i >= start]
        if self.others and (not self.common or self.common in t):
            reps = self.replacers
            out += [i for i in self.others if i >= start and reps[i][2] in t]
        out.sort()
        return out

    def apply(self, t: str, runs: Runs | None = None) -> str:
        """Every replacer in order, as `for pat, rep, _ in replacers: t = pat.sub(rep, t)`."""
        start = 0
        if runs is None:
            runs = word_runs(t)
        while True:
            for i in self.candidates(t, start, runs):
                pat, rep, _ = self.replacers[i]
                u = pat.sub(rep, t)
                if u != t:  # the text changed: what can match the rest is found again
                    t, start, runs = u, i + 1, word_runs(u)
                    break
            else:
                return t
