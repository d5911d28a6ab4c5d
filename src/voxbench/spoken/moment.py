"""The moment of a call as a scenario writes it (EVA's ``current_date_time``: "2026-06-30 10:15
EST") and the forms it is said in.

EVA's caller is told the date and time of the call ("Today is {current_date_time}." in its
system prompt), so the goal caller answers a question about the present from it, the caller
check and the offline judges count a caller saying it as grounded, and the gate's present-moment
faults say it or shift it. Each of them read the written value with a pattern of its own; this
is the one reader, so they all see the same date and the same clock time.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from voxbench.spoken.dates import say_date
from voxbench.spoken.times import say_time

_WRITTEN = re.compile(r"\s*(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}:\d{2}))?")
"""An ISO date, then (when given) a 24-hour clock time; a zone or anything else after them is
not read."""


@dataclass(frozen=True)
class Moment:
    """The date and, when the scenario gives one, the clock time of a call, as written."""

    date: str
    """ISO 'YYYY-MM-DD'."""
    time: str = ""
    """The 24-hour clock time as written ('10:15', '09:05'), '' when none is given."""

    @property
    def clock12(self) -> str:
        """The clock time on a 12-hour clock without its half of the day ('14:15' -> '2:15'), as a
        caller reading '14:15' may say it; '' when no time is given."""
        if not self.time:
            return ""
        h, m = self.time.split(":")
        return f"{int(h) % 12 or 12}:{m}"

    def said(self) -> dict[str, str]:
        """The date and the time as a caller says them ('June 30, 2026', '10:15 AM'; the time ''
        when none is given): the parts the said forms of a table are filled with."""
        return {"date": say_date(self.date), "time": say_time(self.time) if self.time else ""}

    def when(self) -> dt.datetime | None:
        """The moment as a datetime (no zone), None when no time is given."""
        if not self.time:
            return None
        h, m = self.time.split(":")
        return dt.datetime.fromisoformat(f"{self.date} {int(h):02d}:{m}")


def written_moment(current_date_time: str | None) -> Moment | None:
    """The moment a scenario's ``current_date_time`` writes, None when it opens with no ISO date."""
    m = _WRITTEN.match(current_date_time or "")
    return None if m is None else Moment(m.group(1), m.group(2) or "")


def call_date(current_date_time: str) -> str:
    """The date of the call, as the tools read it (``db['_current_date']``) and the weak-turn bench
    says it: the moment's ISO date. A value opening with none (the scenario model rejects it; a
    template or a test may hold one) is kept up to its first space, as written, for the tools'
    own date checks to refuse."""
    now = written_moment(current_date_time)
    return now.date if now is not None else current_date_time.split(" ")[0]
