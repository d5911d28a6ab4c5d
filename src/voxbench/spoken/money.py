"""Amounts of money as said or written ('$120', '120 dollars', 'two million dollars')."""

from __future__ import annotations

import re

from voxbench.spoken.text import tokens


def money(text: str) -> list[float]:
    """Amounts of money: '$120', '120 dollars', 'seventy-five dollar fee', 'two million dollars',
    '79 dollars and 99 cents', '50 cents'."""
    out = [float(x.replace(",", "")) for x in re.findall(r"\$\s?(\d[\d,]*(?:\.\d+)?)", text)]
    toks = tokens(text)
    for i, t in enumerate(toks):
        if t in ("dollar", "dollars", "usd") and i > 0 and toks[i - 1].isdigit():
            out.append(float(toks[i - 1]) + _cents_after(toks, i + 1))
        elif t in ("cent", "cents") and i > 0 and toks[i - 1].isdigit() and not _after_dollars(toks, i - 1):
            out.append(float(toks[i - 1]) / 100)
    return out


def _cents_after(toks: list[str], i: int) -> float:
    """'... dollars and 99 cents': the cents that follow a dollar amount (0 when none do)."""
    if (
        toks[i : i + 1] == ["and"]
        and i + 2 < len(toks)
        and toks[i + 1].isdigit()
        and toks[i + 2] in ("cent", "cents")
    ):
        return float(toks[i + 1]) / 100
    return 0.0


def _after_dollars(toks: list[str], i: int) -> bool:
    """Whether the number at ``i`` is the cents of '... dollars and 99 cents'."""
    return i >= 3 and toks[i - 1] == "and" and toks[i - 2] in ("dollar", "dollars") and toks[i - 3].isdigit()


_WRITTEN = re.compile(
    r"(?:\b(an?\s+))?\$\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(?![\d.,]\d)(\s+(?:thousand|million|billion)\b)?",
    re.IGNORECASE,
)


def _said(m: re.Match[str]) -> str:
    article, whole, cents, scale = m.group(1) or "", m.group(2), m.group(3), m.group(4)
    if scale:  # '$2.5 million' -> '2.5 million dollars'
        return f"{article}{whole}{'.' + cents if cents else ''}{scale} dollars"
    n = int(whole.replace(",", ""))
    c = int(cents.ljust(2, "0")) if cents else 0
    # after 'a'/'an' the amount qualifies a noun: 'a 15 dollar voucher', never 'a 15 dollars'
    unit = "dollar" if n == 1 or article else "dollars"
    parts = [f"{whole} {unit}"] if n or not c else []
    if c:
        parts.append(f"{c} {'cent' if c == 1 or article else 'cents'}")
    return article + " and ".join(parts)


def said_amounts(text: str) -> str:
    """Amounts written with a dollar sign, rewritten in the order a person says them, for a TTS.

    Why: the espeak-ng front end of both local voices (Piper, and Kokoro's fallback) reads '$15'
    as 'dollar fifteen' and '$79.99' as 'dollar seventy nine point nine nine'; the recogniser on
    the other end of the call then hears '$1.50' (measured with Piper and Kokoro through
    faster-whisper tiny.en and base). '15 dollars', '79 dollars and 99 cents' are read as said.
    """
    return _WRITTEN.sub(_said, text)
