"""The agent asks the caller for the present moment: a control and its fault.

EVA's caller is told the date and time of the call, so asked "What's the current date and
time?" it answers from the scenario's ``current_date_time``: that answer is grounded and the
record must pass (`present_moment_asked`, `none`). The same question answered with another date
and time, values the caller was never given, is an invented value (`present_moment_invented`,
`caller`): the grounding is the present's values, not any date or time. Found live (airline
2.2.4), where the answer "It's June 30, 2026, 10:15 AM." was discarded as invented.

The question and the answers are the tables below; the answer says the date and time the way
the goal caller does (``spoken.dates.say_date``, ``spoken.times.say_time``). A scenario without
a current date and time has no place for either.
"""

from __future__ import annotations

import datetime as dt
import json
import random

from voxbench.eval.gateset._steps import Injected, Injector, Party, insert_exchange
from voxbench.eval.gateset.conversation import Line, RefConversation
from voxbench.eval.offline._values import data_keys, text_keys
from voxbench.spoken.dates import say_date
from voxbench.spoken.moment import written_moment
from voxbench.spoken.times import say_time

QUESTIONS = (
    "What's the current date and time?",
    "Before I go on, could you tell me today's date and the time?",
    "Can you confirm the date and time right now?",
)
ANSWERS = ("It's {date}, {time}.", "It's {date}, about {time}.", "Today's {date}, and it's {time}.")
SHIFTS = range(2, 9)
"""Days and hours an invented present is off by."""


def _now(conv: RefConversation) -> dt.datetime | None:
    now = written_moment(conv.dd.scenarios[conv.scenario_id].current_date_time)
    return None if now is None else now.when()


def _said(when: dt.datetime, rng: random.Random) -> str:
    date, time = say_date(when.strftime("%Y-%m-%d")), say_time(when.strftime("%H:%M"))
    return rng.choice(ANSWERS).format(date=date, time=time)


def _asked(conv: RefConversation, rng: random.Random, answer: str, what: str) -> Injected | None:
    return insert_exchange(conv, rng, [Line("agent", rng.choice(QUESTIONS)), Line("user", answer)], what)


def present_moment_asked(conv: RefConversation, rng: random.Random) -> Injected | None:
    """The agent asks for the date and time; the caller says the scenario's own."""
    now = _now(conv)
    if now is None:
        return None
    return _asked(conv, rng, _said(now, rng), "present asked, answered from the scenario's date and time")


def present_moment_invented(conv: RefConversation, rng: random.Random) -> Injected | None:
    """The agent asks for the date and time; the caller says others, some days and hours off,
    none of whose values its goal or the agent's lines hold."""
    now = _now(conv)
    if now is None:
        return None
    agent = [text_keys(conv.line(i).text) for i in conv.lines("agent")]
    known = data_keys(conv.goal) | text_keys(json.dumps(conv.goal)) | set().union(*agent)
    for _ in range(20):
        when = now + dt.timedelta(days=rng.choice(SHIFTS), hours=rng.choice(SHIFTS))
        answer = _said(when, rng)
        said = {k for k in text_keys(answer) if k[0] in "dt"}
        if said and not said & known:
            return _asked(conv, rng, answer, f"present asked, answered {when:%Y-%m-%d %H:%M}")
    return None


PRESENT_FAULTS: dict[str, tuple[Party, Injector]] = {
    "present_moment_asked": ("none", present_moment_asked),
    "present_moment_invented": ("caller", present_moment_invented),
}
