"""Clock times the agent says or writes, against the times the record holds: a time is
derivable when it is a known one shifted by whole hours, by half hours within 3 h, or by a
duration the record holds (arrival = departure + duration; time zones)."""

from __future__ import annotations

import re

from voxbench.eval.offline._trace import Conversation, Step
from voxbench.eval.offline._values import spoken_values
from voxbench.eval.offline.lang import alt, word_set
from voxbench.spoken.data import name_parts


def time_derivable(key: str, known: set[str], durations: set[int]) -> bool:
    """A time equal to a known time plus or minus whole or half hours, or a known duration
    (arrival = departure + duration; time zones)."""
    t = int(key[2:4]) * 60 + int(key[4:6])
    times = [int(k[2:4]) * 60 + int(k[4:6]) for k in known if k.startswith("t:")]
    for a in times:
        if (t - a) % 60 == 0 or ((t - a) % 30 == 0 and abs(t - a) <= 180):
            return True
        if any((a + m) % 1440 == t or (a - m) % 1440 == t for m in durations):
            return True
    return False


_DURATION_FIELDS = word_set("_faith_times", "duration_fields")
"""Name words of a field holding a duration ('delay_minutes', 'layover_duration'); whole words,
singular or plural ('waitlist_position' and 'admins' hold none)."""
_SPOKEN_MINUTES = re.compile(rf"((?:[\w-]+\s+){{1,3}})(?:{alt('_faith_times', 'minute')})\b", re.I)


def _duration_field(name: str) -> bool:
    return any(p in _DURATION_FIELDS or p.removesuffix("s") in _DURATION_FIELDS for p in name_parts(name))


def durations(conv: Conversation, s: Step) -> set[int]:
    """Durations of 20 minutes to a day the record holds before step `s`: numbers under a
    duration-like field of a tool result (`duration_minutes`, `delay_minutes`) and "N minutes"
    said by the caller or written in the policy. Only these shift a known time: any number
    taken as a duration (a fare, a flight number) makes almost every time derivable."""
    out: set[int] = set()
    for x in conv.steps[: s.i]:
        if x.kind == "tool_response":
            out |= field_durations(x.response)
    for m in _SPOKEN_MINUTES.finditer(s.known_text):
        out |= {int(float(v.key[2:])) for v in spoken_values(m.group(0)) if v.kind == "n"}
    return {m for m in out if 20 <= m < 24 * 60}


def field_durations(obj: object, under: bool = False) -> set[int]:
    if isinstance(obj, dict):
        return {n for k, v in obj.items() for n in field_durations(v, _duration_field(str(k)))}
    if isinstance(obj, list):
        return {n for v in obj for n in field_durations(v, under)}
    if under and isinstance(obj, int | float) and not isinstance(obj, bool):
        return {int(obj)}
    return set()
