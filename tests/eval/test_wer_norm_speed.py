"""The normaliser's shortcuts give what its general path gives (issue 18: speed).

The shortcuts: a regex is not run when the text lacks a literal every match needs; ASCII
text goes through str.translate tables instead of per-character unicodedata loops."""

from __future__ import annotations

import random
import re
import string

import pytest

from voxbench.eval.wer_norm import text as T
from voxbench.eval.wer_norm.config import SHIPPED
from voxbench.eval.wer_norm.ordinals import table_suffixes

ASCII = [chr(c) for c in range(128)]


def _random_texts(seed: int, alphabet: str, n: int = 400) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(n)]


@pytest.mark.parametrize("keep", [T._KEEP, T._KEEP + "-", ""])
@pytest.mark.parametrize("fold_marks", [True, False])
def test_ascii_symbol_table_matches_the_character_loop(keep: str, fold_marks: bool) -> None:
    for t in ["".join(ASCII), *_random_texts(1, string.printable)]:
        assert T._symbols(t, keep, fold_marks) == T._symbols_unicode(t, keep, fold_marks)


def test_ascii_punctuation_table_matches_the_character_loop() -> None:
    for t in ["".join(ASCII), *_random_texts(2, string.printable)]:
        assert t.translate(T._ascii_table(".", "SP")) == T._punctuation_unicode(t)


@pytest.mark.parametrize("code", SHIPPED)
def test_replacers_never_match_without_their_literal(code: str) -> None:
    _, _, reps, _ = T._engine(code)
    rng = random.Random(3)
    for pat, _rep, lit in reps:
        assert lit == "" or lit in pat.pattern.replace("\\", "")
        # texts built around the pattern's own words, with the literal removed
        words = [*re.findall(r"[\w']+", pat.pattern.replace("\\b", " ")), "a", "s", "'", " "]
        for _ in range(200):
            t = " ".join(rng.choice(words) for _ in range(rng.randint(1, 6)))
            if lit and lit not in t:
                assert pat.search(t) is None, (pat.pattern, t)


def test_required_literal_of_common_shapes() -> None:
    assert T.required_literal(re.compile(r"\bmr\b")) == "mr"
    assert T.required_literal(re.compile(r"'d been\b")) == "'d been"
    assert T.required_literal(re.compile(r"\band\s+a\s+half\b")) == "half"
    assert T.required_literal(re.compile(r"\b(hmm|mm)\b")) == ""
    assert T.required_literal(re.compile(r"\bmr\b", re.IGNORECASE)) == ""
    assert T.required_literal(re.compile(r"(?i)\bmr\b")) == ""


# outputs of the general path before the shortcuts existed (main at a3d4760)
BEFORE = [
    (("Mr. O'Neil won't go; y'all gonna pay $1,250.50 for 2026-03-25 flights?", "en", False),
     "mister 0 neil will not go you all going to pay 1250.50 for 2026 3 25 flights"),
    (("Mr. O'Neil won't go; y'all gonna pay $1,250.50 for 2026-03-25 flights?", "en", True),
     "mister 0 neil will not go you all going to pay 1250.50 dollars for 2026 3 25 flights"),
    (("Café crème, it's 3:30 p.m.; the co-pilot's ID is AB-12-34! Z K 3 F F W, dash one two", "en", False),
     "cafe creme it is 3 30 p m the co pilot is id is ab 1234 z k 3 ffw 12"),
    (("I'd been there, she's got one oh one and a half, the 3 rd; hmm [slow] (aside) \\u00e9t\\u00e9", "en", False),
     "i had been there she has got 101.5 the 3rd ete"),
    # issue 35 changed this one on purpose: a list comma ends a spoken number (was "7021")
    (("quatre-vingt-dix-sept personnes, soixante-dix, vingt et un", "fr", False), "97 personnes 70 21"),
    (("Ich möchte dreiundzwanzig Euro und fünfzig Cent, Straße Nr. 5", "de", False),
     "ich mochte 23 euro und 50 cent strasse nr 5"),
    (("Dr. García pagó 1.250,50 euros, veintiún", "es", False), "doctor garcia pago 1250.50 euros 21"),
    (("मेरा नंबर नौ आठ सात है, और ५० रुपये", "hi", False), "मेरा नंबर 987 है और 50 रुपये"),
    (("三千五百円です。電話番号は〇九〇", "ja", False), "3500円です電話番号は090"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "want"), BEFORE)
def test_normalize_text_outputs_unchanged(args: tuple[str, str, bool], want: str) -> None:
    text, lang, values = args
    assert T.normalize_text(text, lang, values=values) == want


def _word_texts(seed: int, n: int = 600) -> list[str]:
    """Texts of words, digits, hyphens, dots and letters glued to digits."""
    rng = random.Random(seed)
    parts = ["a", "b2", "3c", "899-787", "2026-03-25", "x-ray", "co-pilot", "-", "--", ".", "..", "...",
             "3.5", "4..5", "one", "and", "a", "half", "é", "ß1", "ab12cd", " ", "\n", "_", "9_9", "५",
             ",", "1,5", "a,b", "1", "1s", "x1", "_1", "é1", "21", "3 rd", "1 st", "th", "s", "`", "’"]  # fmt: skip
    return [
        "".join(rng.choice(parts) + rng.choice(["", " "]) for _ in range(rng.randint(0, 12)))
        for _ in range(n)
    ]


def test_rewritten_patterns_match_the_originals() -> None:
    """The faster equivalents used on the hot path give the original patterns' text."""
    texts = [*_word_texts(4), *_random_texts(5, string.printable + "é५")]
    hyphen_old = re.compile(r"\w+(?:-\w+)+")
    for t in texts:
        assert T._HYPHEN_GROUP.findall(t) == hyphen_old.findall(t)
        want = re.sub(r"\.([^0-9]|$)", r" \1", t)
        if ".." not in t:
            assert T._DOT_NOT_BEFORE_NONDIGIT.sub(" ", t) == want
        for code in SHIPPED:
            numbers = T._engine(code)[1]
            letters = numbers.cfg.letter_class
            # a table whose ordinals are glued (French "3e", issue 35) keeps "<digit><suffix>"
            keep = "|".join(table_suffixes(numbers.cfg)) if numbers._glued.active else "(?!)"
            glued = rf"(?!(?:{keep})(?![{letters}]))"
            old = re.sub(
                rf"([0-9]){glued}([{letters}])", r"\1 \2", re.sub(rf"([{letters}])([0-9])", r"\1 \2", t)
            )
            assert numbers._digit_letter.sub(" ", numbers._letter_digit.sub(" ", t)) == old
        for w in t.split():
            if w.isdigit():
                assert T._leading_zeros(w) == re.sub(r"^0+(?=\d)", "", w)
        assert T._HYPHEN_GROUP.sub("X", t) == re.sub(r"(?<!\w)\w+(?:-\w+)+", "X", t)
        assert T._LIST_COMMA.sub(" ", t) == re.sub(r",(?!\d)|(?<!\d),", " ", t)
        assert T._apostrophes(t) == re.sub(r"[\u2019\u2018\u02bc\u0060\u00b4]", "'", t)
        for code in SHIPPED:
            numbers = T._engine(code)[1]
            assert numbers._one.sub(r"<\1>", t) == re.sub(r"\b1(s?)\b", r"<\1>", t)
            ordinal = T._extras(code).ordinal
            if ordinal is not None:  # the hint finds every text the rejoin changes
                assert ordinal[1].search(t) or ordinal[0].sub(r"\1\2", t) == t
        if "0" not in t:  # no word loses leading zeros
            assert all(T._leading_zeros(w) == w for w in t.split() if w.isdigit())


def test_memo_gives_what_normalising_again_gives() -> None:
    texts = [*_word_texts(6, 300), *(t for (t, _, _), _ in BEFORE)]
    calls = [
        (t, lang, values)
        for t in texts
        for lang in ("en", "de", "fr", "hi", "ja")
        for values in (False, True)
    ]
    try:
        T.set_cache_size(0)
        fresh = [T.normalize_text(*c) for c in calls]
        T.set_cache_size(64)  # small: entries are evicted and computed again
        assert [T.normalize_text(*c) for c in calls] == fresh
        assert [T.normalize_text(*c) for c in reversed(calls)] == fresh[::-1]
    finally:
        T.set_cache_size(T.CACHE_SIZE)


def _number_texts(seed: int, vocab: list[str], n: int = 300) -> list[str]:
    """Texts of a table's number words, digits and joiners: what the number pass reads."""
    rng = random.Random(seed)
    pool = [*vocab, "1", "07", "3.5", "12", "-", "sk549", "3rd", "a", "$", "%", "\t", "und"]
    joins = [" ", " ", "", "-", "  "]
    return [
        "".join(rng.choice(pool) + rng.choice(joins) for _ in range(rng.randint(0, 12))) for _ in range(n)
    ]


@pytest.mark.parametrize("code", ["en", "de", "es", "fr", "fr-CA", "hi"])
def test_number_words_are_the_split_of_their_joined_text(code: str) -> None:
    """`preprocess_words` hands the state machine a word list instead of a string it split
    again; that is the same only if no word is empty or holds whitespace."""
    _, numbers, _, _ = T._engine(code)
    vocab = sorted(numbers.words)
    for t in _number_texts(len(code), vocab):
        words = numbers.preprocess_words(t)
        assert " ".join(words).split() == words, t


def test_strip_tags_is_the_regex_collapse() -> None:
    from voxbench.eval.context import strip_tags

    spaces = "".join(chr(c) for c in range(0x110000) if re.match(r"\s", chr(c)))
    texts = [
        spaces,
        f"a{spaces}b",
        "[tag] x [y]  z ",
        "[unclosed x",
        *_random_texts(3, string.printable + "[]\u00a0\u2028"),
    ]
    for t in texts:
        assert strip_tags(t) == re.sub(r"\s+", " ", re.sub(r"\[[^\]]*\]", " ", t)).strip()
