"""CJK numerals -> Arabic digits for ja, zh and ko (EVA converts them before CER).

A run of numeral characters is read positionally when it has a unit (十 百 千 and the
myriads 万/萬 億/亿 兆: "三百二十五" -> 325, "一万二千" -> 12000, "3万5000" -> 35000) and digit
by digit when it has none ("二〇二四" -> 2024). Korean Sino-Korean numerals written in Hangul
(삼백이십오, 구천구백구십구) are read as a whole word made only of numeral syllables that has a
unit (a lone 십, 백, 천 too) or three or more syllables, since digit syllables alone (이, 일,
사, 이사) are ordinary words. Native Korean numerals (1-99: 아홉 9, 열다섯 15, 아흔아홉 99) are
read as a whole word of a tens word and/or a unit word, or a tens word and a unit word
written apart (열 하나 11). The bare myriads 만, 억, 조 and the attributive forms 한, 두, 세,
네, 스무 stay words: they are far more often something else (만 "only", 네 "yes", 세 "age").
"""

from __future__ import annotations

import re

_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6,
           "七": 7, "八": 8, "九": 9}  # fmt: skip
_UNITS = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_BIG = {"万": 10**4, "萬": 10**4, "億": 10**8, "亿": 10**8, "兆": 10**12}
_HANGUL_DIGITS = {"영": 0, "공": 0, "일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "륙": 6,
                  "칠": 7, "팔": 8, "구": 9}  # fmt: skip
_HANGUL_UNITS = {"십": 10, "백": 100, "천": 1000}
_HANGUL_BIG = {"만": 10**4, "억": 10**8, "조": 10**12}

_CHARS = "".join([*_DIGITS, *_UNITS, *_BIG])
_RUN = re.compile(rf"(?:[0-9]+)?[{_CHARS}](?:[{_CHARS}0-9])*")


def read_number(run: str, digits: dict[str, int], units: dict[str, int], big: dict[str, int]) -> str | None:
    """The value of a run of numeral characters (ASCII digit groups allowed before units)."""
    toks = re.findall(r"[0-9]+|.", run)
    if not any(t in units or t in big for t in toks):
        out = "".join(str(digits[t]) if t in digits else t for t in toks)
        return out if out.isdigit() else None
    total = section = cur = 0
    for t in toks:
        if t.isdigit():
            cur = int(t)
        elif t in digits:
            cur = digits[t]
        elif t in units:
            section += (cur or 1) * units[t]
            cur = 0
        elif t in big:
            total += (section + cur or 1) * big[t]
            section = cur = 0
        else:
            return None
    return str(total + section + cur)


_NATIVE_TENS = {"열": 10, "스물": 20, "서른": 30, "마흔": 40, "쉰": 50, "예순": 60, "일흔": 70,
                "여든": 80, "아흔": 90}  # fmt: skip
_NATIVE_UNITS = {"하나": 1, "둘": 2, "셋": 3, "넷": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8,
                 "아홉": 9}  # fmt: skip


def _hangul_word(w: str) -> str:
    chars = {**_HANGUL_DIGITS, **_HANGUL_UNITS, **_HANGUL_BIG}
    if not w or any(c not in chars for c in w):
        return w
    has_unit = any(c in _HANGUL_UNITS or c in _HANGUL_BIG for c in w)
    if len(w) == 1 and w not in _HANGUL_UNITS:
        return w
    if not has_unit and len(w) < 3:
        return w
    return read_number(w, _HANGUL_DIGITS, _HANGUL_UNITS, _HANGUL_BIG) or w


def _native(w: str) -> int | None:
    """A native Korean numeral word (1-99) or None: tens word, unit word, or both glued."""
    if w in _NATIVE_UNITS:
        return _NATIVE_UNITS[w]
    for tens, t in _NATIVE_TENS.items():
        if w == tens:
            return t
        if w.startswith(tens) and w[len(tens) :] in _NATIVE_UNITS:
            return t + _NATIVE_UNITS[w[len(tens) :]]
    return None


def _korean_words(words: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        n = _native(w)
        if n is not None and w in _NATIVE_TENS and i + 1 < len(words) and words[i + 1] in _NATIVE_UNITS:
            out.append(str(n + _NATIVE_UNITS[words[i + 1]]))  # 열 하나 -> 11
            i += 2
            continue
        if n is None and _myriad_group(w) and i + 1 < len(words) and _numeral_syllables(words[i + 1]):
            words[i + 1] = w + words[i + 1]  # 삼만 오천 -> 35000: groups are written apart
            i += 1
            continue
        out.append(str(n) if n is not None else _hangul_word(w))
        i += 1
    return out


def _numeral_syllables(w: str) -> bool:
    return bool(w) and all(c in _HANGUL_DIGITS or c in _HANGUL_UNITS or c in _HANGUL_BIG for c in w)


def _myriad_group(w: str) -> bool:
    """A Sino-Korean numeral word ending in 만/억/조 with a count before it (삼만, 이억)."""
    return len(w) >= 2 and w[-1] in _HANGUL_BIG and _numeral_syllables(w)


def cjk_numerals(text: str, korean: bool = False) -> str:
    text = _RUN.sub(lambda m: read_number(m[0], _DIGITS, _UNITS, _BIG) or m[0], text)
    if korean and not _KOREAN_NUMERAL_CHARS.isdisjoint(text):  # most texts hold none: skip
        text = " ".join(_korean_words(text.split(" ")))
    return text


_KOREAN_NUMERAL_CHARS = frozenset(
    "".join([*_HANGUL_DIGITS, *_HANGUL_UNITS, *_HANGUL_BIG, *_NATIVE_TENS, *_NATIVE_UNITS])
)
