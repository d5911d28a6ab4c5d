"""The caller's facts: did it state a value it was not given?

`invented_information`: a code, email, phone number, name, amount, date or time the caller states
that is neither among its facts / goal (`user_goal`), nor the scenario's current date and time
(`_caller_present`: the caller is told it), nor something the agent said earlier in the call
(read-backs and offered options may be repeated). Its twin, a fact withheld when asked, is
`_caller_facts.missing_information`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline._caller_end import caller_turns, ev
from voxbench.eval.offline._caller_present import present_known
from voxbench.eval.offline._values import Value, code_supported, data_keys, spoken_values, text_keys
from voxbench.eval.offline.lang import alt
from voxbench.spoken.times import times

_NAME_SAID = re.compile(rf"\b(?:{alt('_caller_facts', 'name_said')})\s+is\s+([A-Z][A-Za-z'\-]+)")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")  # not a sentence's full stop after it


def _goal_keys(goal: dict[str, Any]) -> tuple[set[str], str]:
    text = json.dumps(goal, ensure_ascii=False)
    keys = data_keys(goal)
    for leaf in re.findall(r'"([^"]{2,})"', text):
        keys |= text_keys(leaf)
    return keys, text.lower()


def _agent_before(ctx: ConversationContext, turn: int) -> tuple[set[str], str]:
    keys: set[str] = set()
    texts: list[str] = []
    for t, x in ctx.intended_assistant_turns.items():
        if t < turn:
            keys |= text_keys(strip_tags(x))
            texts.append(x.lower())
    return keys, " ".join(texts)


def _value_supported(v: Value, keys: set[str], line: str, known_text: str) -> bool:
    """Whether the caller could have the value: among its facts or the agent's words, or
    derived from them the way a person does (a clock time without am/pm, the sum of two
    amounts the agent named, "the next day" after a date, a named rule's word and number). A
    clock time written "h:mm" is held against clock times only."""
    body = v.key[2:]
    if v.key in keys:
        return True
    if v.kind == "c":
        m = re.fullmatch(r"([a-z]+)(\d+)", body)
        return code_supported(v.key, keys) or bool(
            m and re.search(rf"\b{m[1]}\b", known_text) and f"n:{m[2]}" in keys
        )
    if v.kind == "n" and (hm := _clock_written(body, line)):
        return _clock_known(hm, keys, known_text)  # a time, not an amount to add up or a digit run
    if v.kind == "n":
        x = float(body)
        nums = sorted({float(k[2:]) for k in keys if k.startswith("n:") and _is_num(k[2:])})
        return (
            x < 10
            or f"c:{body}" in keys
            or any(abs(a + b - x) < 0.01 for a in nums for b in nums if a < b)
            or _in_digit_runs(body, known_text)
        )
    if v.kind == "t" and len(body) == 4:
        hh, mm = int(body[:2]), body[2:]
        return f"t:{(hh + 12) % 24:02d}{mm}" in keys
    if v.kind == "d" and _RELATIVE_DAY.search(line):
        return any(k in keys for k in _neighbour_days(body))
    return False


_RELATIVE_DAY = re.compile(alt("_caller_facts", "relative_day"), re.I)


def _clock_written(body: str, line: str) -> tuple[int, int] | None:
    """The clock time a number key stands for when the caller wrote it "h:mm" without am/pm
    ("my 1:30 flight"): the reader keys such a time as a bare number (n:130), so the time
    reading above never sees it."""
    if not body.isdigit() or len(body) not in (3, 4):
        return None
    h, m = int(body[:-2]), int(body[-2:])
    if h > 23 or m > 59 or not re.search(rf"(?<![\d:])0?{h}:{m:02d}\b(?!\s*[ap]\.?m)", line, re.I):
        return None
    return h, m


def _clock_known(hm: tuple[int, int], keys: set[str], known_text: str) -> bool:
    """A clock time said without am/pm is the caller's when the same time of either half of the
    day is among its facts or the agent's words ("1:30" for a 13:30 departure or "one thirty
    PM"), as a time key or a 24-hour "HH:MM" the reader keyed as a number."""
    h, m = hm
    hours = {h} if h == 0 or h > 12 else {h % 12, h % 12 + 12}
    known = {k[2:] for k in keys if k.startswith("t:")}
    known |= {f"{a:02d}{b:02d}" for a, b in times(known_text)}
    return any(f"{x:02d}{m:02d}" in known for x in hours)


def _in_digit_runs(body: str, known_text: str) -> bool:
    """A date or time said in parts ("twenty twenty-six dash zero four dash two two" -> 422,
    "ten o'clock" -> 100): its digits inside a date or time the caller's facts or the agent hold."""
    digits = body.split(".")[0]
    if len(digits) < 3 or not digits.isdigit():
        return False
    runs = re.findall(r"\d+", re.sub(r"(?<=\d)[-:/.](?=\d)", "", known_text))
    return any(digits in r for r in runs if len(r) > len(digits))


def _is_num(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def _neighbour_days(mmdd: str) -> list[str]:
    import datetime as dt

    try:
        day = dt.date(2024, int(mmdd[:2]), int(mmdd[2:]))  # a leap year: Feb 29 exists
    except ValueError:
        return []
    return [f"d:{(day + dt.timedelta(days=k)):%m%d}" for k in (-1, 1)]


ONE_LETTER_WORDS = ("i", "a")
"""Words of one letter a spelled run of capitals swallows: "the N P I I want" reads N P I I."""


def _letter_words(body: str) -> set[str]:
    """A run of spelled letters as the words it may be: itself, or without a one-letter word
    at either end."""
    out = {body}
    for w in ONE_LETTER_WORDS:
        if body.endswith(w) and len(body) > 3:
            out.add(body[:-1])
        if body.startswith(w) and len(body) > 3:
            out.add(body[1:])
    return out


def invented_information(ctx: ConversationContext) -> list[dict[str, Any]]:
    goal_keys, goal_text = _goal_keys(ctx.user_goal)
    placeholders = "<last_name>" in goal_text or "<first_name>" in goal_text
    now_keys, now_text = present_known(ctx.current_date_time)
    goal_keys, goal_text = goal_keys | now_keys, f"{goal_text} {now_text}"
    out: list[dict[str, Any]] = []
    for turn, text in caller_turns(ctx).items():
        agent_keys, agent_text = _agent_before(ctx, turn)
        known = goal_keys | agent_keys
        for v in spoken_values(text):
            body = v.key[2:]
            if v.kind == "c":
                mixed = any(c.isdigit() for c in body) and any(c.isalpha() for c in body)
                if not (4 <= len(body) <= 12) or not (mixed or v.spelled):
                    continue
                if body.isalpha() and any(w in goal_text or w in agent_text for w in _letter_words(body)):
                    continue  # a spelled word ("T R A I N") its facts contain
            if not _value_supported(v, known, text, f"{goal_text} {agent_text}"):
                out.append(
                    ev(
                        turn,
                        f"{v.surface!r} ({v.key})",
                        "caller stated a value not among its facts or the agent's words",
                    )
                )
        for m in _EMAIL.finditer(text):
            if m.group(0).lower() not in goal_text and m.group(0).lower() not in agent_text:
                out.append(ev(turn, m.group(0), "caller stated an email not among its facts"))
        if not placeholders:
            for m in _NAME_SAID.finditer(text):
                if m.group(1).lower() not in goal_text and m.group(1).lower() not in agent_text:
                    out.append(ev(turn, m.group(0), "caller stated a name not among its facts"))
    return out
