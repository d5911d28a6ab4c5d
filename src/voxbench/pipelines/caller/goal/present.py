"""Asks about the present moment ('What's the current date and time?', 'What day is it?'): a
question about the world, not about the caller's facts.

A head noun qualified by a word that anchors it at the time of the call ('current date', "today's
date", 'the time now': ``asks.present_moment``) is not a fact whose key has a qualifier of its own
('date_of_birth', 'shift_date'): matched by the head alone, 'What's the current date and time?'
was answered 'The date of birth is August 22, 1991. The date is September 14, 2026. The time is
3 PM.' EVA's caller is told the date and time of the call ('Today
is {current_date_time}.' in ``user_simulator.system_prompt_<domain>``), so the caller says them
from the scenario's ``current_date_time``; a scenario without one leaves it not sure.
"""

from __future__ import annotations

import re

from voxbench.pipelines.caller.goal.asks import has_word, words_of
from voxbench.pipelines.caller.goal.facts import Fact, FactBook
from voxbench.pipelines.caller.goal.lang import phrases
from voxbench.pipelines.caller.goal.phrases import Phrasing
from voxbench.spoken.moment import written_moment

_PRESENT = [re.compile(p, re.I) for p in phrases("asks", "present_moment")]
_KIND_OF = {w: part for part in ("date", "time") for w in phrases("asks", f"{part}_words")}
"""A word of the present moment asked -> the part of it ("day" is the date)."""
_PART = re.compile(rf"\b({'|'.join(_KIND_OF)})\b", re.I)


def present_asked(sentences: list[str]) -> list[str]:
    """The parts of the present moment the request sentences ask ('date', 'time'), in order."""
    out: list[str] = []
    for s in sentences:
        for m in sorted((m for p in _PRESENT for m in p.finditer(s)), key=lambda m: m.start()):
            out += [_KIND_OF[w.lower()] for w in _PART.findall(m.group(0))]
    return list(dict.fromkeys(out))


def not_the_present(
    asked: dict[str, str], book: FactBook, present: list[str], sentences: list[str]
) -> dict[str, str]:
    """The asked facts without those named only by a head the request anchors at the present
    ('current date' is no 'date_of_birth'): a fact stays when the request also says one of its
    own qualifiers ('your date of birth and today's date'; not the 's' of "husband's", which
    "today's" says too)."""
    if not present:
        return asked
    ws, flat = words_of(" ".join(sentences))
    out: dict[str, str] = {}
    for k, rule in asked.items():
        f = book.get(k)
        heads = {_KIND_OF.get(h, h) for h in f.heads} if f is not None else set()
        if (
            f is not None
            and heads & set(present)
            and not any(has_word(w, ws, flat) for w in f.distinctive if len(w) > 1)
        ):
            continue
        out[k] = rule
    return out


_NOW_WORDS = frozenset(phrases("asks", "now_words"))


def still_present(present: list[str], asked: dict[str, str], book: FactBook) -> list[str]:
    """The parts of the present asked that no asked fact holds: a fact keyed as the present one
    ('current_date_of_travel', asked 'your current date of travel') answers it itself."""
    held = {_KIND_OF.get(h, h) for k in asked if (f := book.get(k)) is not None and set(f.words) & _NOW_WORDS
            for h in f.heads}  # fmt: skip
    return [p for p in present if p not in held]


def present_line(present: list[str], current_date_time: str, phr: Phrasing) -> str:
    """The date and time of the call as the caller says them ('It's June 12, 2026, about 2:15 PM.');
    not sure when the scenario gives none."""
    now = written_moment(current_date_time)
    if now is None or ("time" in present and not now.time):
        return phr.say("not_sure")
    date = Fact("current_date", now.date, ("current", "date")).spoken()
    time = Fact("current_time", now.time, ("current", "time")).spoken() if now.time else ""
    if "date" in present and "time" in present:
        return phr.say("present_both", date=date, time=time)
    return phr.say("present_time", time=time) if "time" in present else phr.say("present_date", date=date)
