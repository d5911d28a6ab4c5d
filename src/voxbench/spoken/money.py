"""Amounts of money as said or written ('$120', '120 dollars', 'two million dollars')."""

from __future__ import annotations

import re

from voxbench.spoken.text import tokens


def money(text: str) -> list[float]:
    """Amounts of money: '$120', '120 dollars', 'seventy-five dollar fee', 'two million dollars'."""
    out = [float(x.replace(",", "")) for x in re.findall(r"\$\s?(\d[\d,]*(?:\.\d+)?)", text)]
    toks = tokens(text)
    for i, t in enumerate(toks):
        if t in ("dollar", "dollars", "usd") and i > 0 and toks[i - 1].isdigit():
            out.append(float(toks[i - 1]))
    return out
