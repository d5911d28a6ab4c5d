"""Calendar dates as said ('March twenty-fifth, twenty twenty-six', '25 March', ISO digits) and how to say one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from voxbench.spoken.text import runs, tokens
from voxbench.spoken.words import MONTH_NAMES, MONTHS


@dataclass(frozen=True)
class Date:
    month: int
    day: int
    year: int | None = None


ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


def _month(toks: list[str], i: int) -> int:
    """The month token ``toks[i]`` names, or 0. 'may' counts only before a number ('May 5'):
    "may I have..." is far more common than the month."""
    t = toks[i]
    if t == "may":
        return 5 if i + 1 < len(toks) and toks[i + 1].isdigit() else 0
    return MONTHS.get(t, 0)


def dates(text: str) -> list[Date]:
    """Dates said as 'March 25', 'March twenty-fifth, twenty twenty-six', '25 March' or ISO digits."""
    return list(_dates(text))


@lru_cache(maxsize=8192)
def _dates(text: str) -> tuple[Date, ...]:
    toks = tokens(text)
    out: list[Date] = []
    for i in range(len(toks)):
        m = _month(toks, i)
        if not m:
            continue
        if i + 1 < len(toks) and toks[i + 1].isdigit() and 1 <= int(toks[i + 1]) <= 31:
            day = int(toks[i + 1])
            year = _year(toks[i + 2 : i + 4])
            out.append(Date(m, day, year))
        elif i > 0 and toks[i - 1].isdigit() and 1 <= int(toks[i - 1]) <= 31:
            out.append(Date(m, int(toks[i - 1]), _year(toks[i + 1 : i + 3])))
    for r in re.findall(r"\b(\d{4})-(\d{2})-(\d{2})\b", text):
        out.append(Date(int(r[1]), int(r[2]), int(r[0])))
    for r in runs(text):  # spelled digits: 2 0 2 6 dash 0 8 dash 1 0 -> 20260810
        if len(r) == 8 and r.isdigit() and r.startswith(("19", "20")) and 1 <= int(r[4:6]) <= 12:
            out.append(Date(int(r[4:6]), int(r[6:8]), int(r[:4])))
    return tuple(out)


def _year(toks: list[str]) -> int | None:
    if toks and toks[0].isdigit() and len(toks[0]) == 4:
        return int(toks[0])
    if len(toks) == 2 and toks[0] == "20" and toks[1].isdigit() and len(toks[1]) == 2:
        return 2000 + int(toks[1])
    return None


def say_date(value: str) -> str:
    """'2026-03-25' -> 'March 25, 2026' (anything else unchanged)."""
    m = ISO_DATE.match(value.strip())
    if not m:
        return value
    return f"{MONTH_NAMES[int(m.group(2)) - 1].capitalize()} {int(m.group(3))}, {m.group(1)}"
