"""Clock times as said ('1 PM', 'two twenty-five PM', '9:25 AM', '7.30pm', noon) and how to say one."""

from __future__ import annotations

import re
from functools import lru_cache

from voxbench.spoken.text import tokens

HHMM = re.compile(r"^(\d{1,2}):(\d{2})(?:\s*([ap])\.?m\.?)?", re.IGNORECASE)


def times(text: str) -> list[tuple[int, int]]:
    """Clock times with AM/PM ('1 PM', 'two twenty-five PM', '9:25 AM') or 24-hour 'HH:MM', as (h, m)."""
    return list(_times(text))


_DOT_CLOCK = re.compile(r"(\d)\.(\d{2})(?=\s*[ap]\.?m\b)", re.I)
_GLUED_MERIDIEM = re.compile(r"(\d)(?=[ap]\.?m\b)", re.I)


@lru_cache(maxsize=8192)
def _times(text: str) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    # whisper writes the agent's '7:30 PM' as '7.30pm' or '7pm': hour and minutes apart, the
    # meridiem its own word (else neither the options' times nor a reply's are read)
    text = _GLUED_MERIDIEM.sub(r"\1 ", _DOT_CLOCK.sub(r"\1 \2", text))
    toks = tokens(text.replace(":", " "))
    for i, t in enumerate(toks):
        if t in ("am", "pm", "noon") and i > 0:
            if t == "noon":
                out.append((12, 0))
                continue
            h, m = None, 0
            a, b = toks[i - 1], toks[i - 2] if i > 1 else ""
            if a.isdigit() and b.isdigit() and 1 <= int(b) <= 12 and int(a) < 60:
                h, m = int(b), int(a)
            elif a.isdigit() and 1 <= int(a) <= 12:
                h = int(a)
            elif a.isdigit() and len(a) in (3, 4) and int(a[:-2]) <= 12:
                h, m = int(a[:-2]), int(a[-2:])
            if h is None:
                continue
            out.append(((h % 12) + (12 if t == "pm" else 0), m))
    for h, m in re.findall(r"\b(\d{1,2}):(\d{2})\b(?!\s*[ap]\.?m)", text, re.IGNORECASE):
        if int(h) > 12 or int(h) == 0:
            out.append((int(h), int(m)))
    if re.search(r"\bnoon\b", text, re.IGNORECASE):
        out.append((12, 0))
    return tuple(out)


def parse_time_value(value: str) -> tuple[int, int] | None:
    m = HHMM.match(value.strip())
    if not m:
        return None
    h, mi = int(m.group(1)), int(m.group(2))
    if m.group(3):
        h = (h % 12) + (12 if m.group(3).lower() == "p" else 0)
    return h, mi


def say_time(value: str) -> str:
    hm = parse_time_value(value)
    if hm is None:
        return value
    h, m = hm
    suffix = "AM" if h < 12 else "PM"
    h12 = h % 12 or 12
    return f"{h12} {suffix}" if m == 0 else f"{h12}:{m:02d} {suffix}"
