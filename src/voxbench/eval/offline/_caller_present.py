"""The present moment is the caller's knowledge: a value read from the scenario's current date
and time is grounded, not invented.

EVA's caller is told the date and time of the call ("Today is {current_date_time}." in its
system prompt) and the goal caller answers a question about the present from it
(``pipelines/caller/goal/present.py``), so a date, a clock time or a year the caller says that
is the scenario's ``current_date_time`` comes from what it was given, as its facts do. Found
live (airline 2.2.4): asked "What's the current date and time?", the caller said "It's June
30, 2026, 10:15 AM." and the gate flagged '2026 1015' and '1015' as invented.

The present is keyed by the same reader as the caller's line, from its written form and from
the forms it is said in (``phrases._caller_present.said`` in ``lang/en.json``: the date, the
time, the date then the time), so whatever the reader makes of the present said in words
("2026, 10:15 AM" reads as a code 2026 1015 and the number 1015, the year and the clock time
joined over the comma), a caller line saying it reads the same.
"""

from __future__ import annotations

from voxbench.eval.offline._values import text_keys
from voxbench.eval.offline.lang import phrase_list
from voxbench.spoken.moment import written_moment


def present_said(current_date_time: str) -> list[str]:
    """The present as a caller says it, one string per form of the table (a form naming the
    time is left out when the scenario gives none); empty when the scenario gives no date."""
    now = written_moment(current_date_time)
    if now is None:
        return []
    parts = now.said()
    return [
        form.format(**parts)
        for form in phrase_list("_caller_present", "said")
        if parts["time"] or "{time}" not in form
    ]


def present_known(current_date_time: str) -> tuple[set[str], str]:
    """The keys of the present moment as it is said and the lower-cased text of it, written and
    said, as the caller's knowledge; nothing for a scenario without a current date. The written
    value gives no keys of its own: read as digit groups, "2026-06-30" would ground any number
    06 or 30 the caller says."""
    said = present_said(current_date_time)
    keys: set[str] = set().union(*(text_keys(x) for x in said)) if said else set()
    return keys, " ".join([current_date_time, *said]).lower() if said else ""
