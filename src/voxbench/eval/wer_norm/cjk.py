"""CJK numerals -> Arabic digits for ja, zh and ko (EVA converts them before CER).

A run of numeral characters is read positionally when it has a unit (十 百 千 and the
myriads 万/萬 億/亿 兆: "三百二十五" -> 325, "一万二千" -> 12000, "3万5000" -> 35000) and digit
by digit when it has none ("二〇二四" -> 2024). Korean Sino-Korean numerals written in Hangul
(삼백이십오) are read only as a whole word of at least two numeral syllables with a unit or
of three or more, since single syllables (이, 일, 사) are ordinary words.
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


def _hangul_word(w: str) -> str:
    chars = {**_HANGUL_DIGITS, **_HANGUL_UNITS, **_HANGUL_BIG}
    if len(w) < 2 or any(c not in chars for c in w):
        return w
    has_unit = any(c in _HANGUL_UNITS or c in _HANGUL_BIG for c in w)
    if not has_unit and len(w) < 3:
        return w
    return read_number(w, _HANGUL_DIGITS, _HANGUL_UNITS, _HANGUL_BIG) or w


def cjk_numerals(text: str, korean: bool = False) -> str:
    text = _RUN.sub(lambda m: read_number(m[0], _DIGITS, _UNITS, _BIG) or m[0], text)
    if korean:
        text = " ".join(_hangul_word(w) for w in text.split(" "))
    return text
