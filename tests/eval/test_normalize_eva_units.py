"""Normaliser rules from EVA's unit tests (issue 35), each with values beyond the issue's."""

from __future__ import annotations

import pytest

from voxbench.eval.normalize import normalize_text


def N(text: str, lang: str = "en") -> str:
    return normalize_text(text, lang)


# ---- French ordinals: written and spoken forms normalise alike, for every number


@pytest.mark.parametrize("lang", ["fr", "fr-CA"])
@pytest.mark.parametrize(
    ("written", "spoken"),
    [
        ("1er", "premier"),
        ("1ère", "première"),
        ("3e", "troisième"),
        ("21e", "vingt-et-unième"),
        ("80e", "quatre-vingtième"),
        ("81e", "quatre-vingt-unième"),
        ("90e", "quatre-vingt-dixième"),
        ("92e", "quatre-vingt-douzième"),
        ("99e", "quatre-vingt-dix-neuvième"),
        # other values than the issue's
        ("2e", "deuxième"),
        ("17e", "dix-septième"),
        ("71e", "soixante-et-onzième"),
        ("100e", "centième"),
        ("200e", "deux centième"),
        ("1100e", "mille centième"),
        ("2024e", "deux mille vingt-quatrième"),
        ("le 5e étage", "le cinquième étage"),
        # written abbreviations the table does not produce
        ("3ème", "troisième"),
        ("1re", "première"),
    ],
)
def test_french_ordinals_written_and_spoken_alike(lang: str, written: str, spoken: str) -> None:
    assert N(written, lang) == N(spoken, lang)


def test_french_ordinal_suffix_is_kept_only_when_glued() -> None:
    assert N("deux de ces billets", "fr") == N("2 de ces billets", "fr") == "2 de ces billets"
    assert N("ZK3FFW", "fr") == "zk 3 ffw"  # other letters after digits still split


def test_a_scaling_word_after_a_round_thousand_adds() -> None:
    assert N("mille cent", "fr") == "1100"
    assert N("un million mille", "fr") == "1001000"
    assert N("two thousand three hundred", "en") == "2300"


# ---- Korean numerals, Sino-Korean and native, to digits


@pytest.mark.parametrize(
    ("korean", "digits"),
    [
        ("십", "10"),
        ("아홉", "9"),
        ("열", "10"),
        ("열다섯", "15"),
        ("스물하나", "21"),
        ("서른", "30"),
        ("아흔아홉", "99"),
        ("열 하나", "11"),
        # other values
        ("여든일곱", "87"),
        ("마흔 둘", "42"),
        ("예순", "60"),
        ("백", "100"),
        ("천", "1000"),
        ("구천구백구십구", "9999"),
        ("이천이십사", "2024"),
        ("삼만 오천", "35000"),
    ],
)
def test_korean_numerals(korean: str, digits: str) -> None:
    assert N(korean, "ko") == digits


def test_korean_numerals_in_text_with_markup_removed() -> None:
    assert N("<b>열다섯</b> 명입니다", "ko") == "15 명입니다"
    assert N("<speak>스물 셋</speak>", "ko") == "23"
    # ordinary words made of numeral syllables stay words
    assert N("네 알겠습니다", "ko") == "네 알겠습니다"
    assert N("이사 가요", "ko") == "이사 가요"


def test_markup_is_removed_in_every_language() -> None:
    assert N("<break time='1s'/>twenty <b>four</b>") == "24"
    assert N("<em>trois</em>", "fr") == "3"


# ---- Japanese and Chinese


def test_japanese_digits_keep_a_leading_zero() -> None:
    assert N("〇一二三", "ja") == "0123"
    assert N("〇九〇", "ja") == N("090", "ja") == "090"


@pytest.mark.parametrize(
    ("lang", "with_fillers", "without"),
    [
        ("ja", "えーと、三時です", "三時です"),
        ("ja", "あのー、予約番号はえっと五です", "予約番号は五です"),
        ("zh", "嗯，我要两个", "我要两个"),
        ("zh", "呃，航班是三点", "航班是三点"),
    ],
)
def test_japanese_and_chinese_fillers_are_removed(lang: str, with_fillers: str, without: str) -> None:
    assert N(with_fillers, lang) == N(without, lang)


# ---- English: a list comma ends a spoken number


@pytest.mark.parametrize(
    ("spoken", "written"),
    [
        ("nineteen ninety four, zero two, eleven", "1994-02-11"),
        ("twenty twenty six, zero three, twenty five", "2026-03-25"),
        ("two thousand one, twelve, thirty one", "2001-12-31"),
    ],
)
def test_spoken_date_with_commas_equals_the_iso_date(spoken: str, written: str) -> None:
    assert N(spoken) == N(written)


def test_comma_inside_digits_is_still_a_separator() -> None:
    assert N("1,250 dollars, please") == "1250 please"
    assert N("trois virgule cinq, merci", "fr") == "3.5 merci"


def test_comma_after_a_scaling_word_stays_inside_the_number() -> None:
    """Written number words put a comma after "thousand"; that comma is not a list comma."""
    assert N("one thousand, two hundred and thirty four") == "1234"
    assert N("deux mille, trois cents", "fr") == "2300"
    assert N("two thousand, and then some") == "2000 and then some"


def test_a_date_read_digit_by_digit_with_commas_equals_the_iso_date() -> None:
    assert N("twenty twenty six, zero eight, one five") == N("2026-08-15") == "2026 8 15"
