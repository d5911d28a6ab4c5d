"""Faithfulness: tool-call values checked against the tool's schema and the record's sources.

`_faith_rules.fabricated_params` grounds identifiers (codes with digits) and person names.
This module covers the other values a tool call carries, by their form rather than their name:

* a value the schema enumerates must be one of the listed values (EVA: "verify enum values
  against the actual tool specification");
* a date (YYYY-MM-DD) or clock time (HH:MM) must be a real one;
* a word value that is neither free text nor a snake_case category the agent picks (a
  building, a department or group code, a state code: "Headquarters", "ENG", "GRP-DBREAD")
  must be held by a source: the caller's words, an earlier tool result or the policy text.

A fabricated value in a write tool is a 1, in a read-only tool a 2 (EVA's severity guidance).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import Any

from voxbench.eval.offline._faith_rules import FABRICATION, FREE_TEXT_WORDS, SNAKE_CASE, Finding
from voxbench.eval.offline._faith_times import durations, time_derivable
from voxbench.eval.offline._trace import Conversation, Step, enum_values, response_failed
from voxbench.eval.offline._values import canon_code

_FREE_TEXT = re.compile(rf"{FREE_TEXT_WORDS}|text|justification")  # a value's field, more than a code's
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_TIME = re.compile(r"^(\d{1,2}):(\d{2})$")
_WORD = re.compile(r"[A-Za-z]{2,}")
_LONG_WORD = re.compile(r"[A-Za-z]{4,}")


def _accepted(conv: Conversation, call: Step) -> bool:
    """The tool answered this call with success: it took the value (the schema at hand may be
    another version than the one the agent ran with). The caller also asks that the value's words
    are held by a source (``_word_grounded``): a value no version of the schema nor anything said
    could give is a fabricated category whatever the tool answered."""
    resp = next(
        (r for r in conv.steps[call.i + 1 :] if r.kind == "tool_response" and r.tool == call.tool), None
    )
    return resp is not None and not response_failed(resp.response)


def _real_date(v: str) -> bool:
    m = _DATE.match(v)
    if not m:
        return True
    try:
        date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return False
    return True


def _real_time(v: str) -> bool:
    m = _TIME.match(v)
    return not m or (int(m.group(1)) < 24 and int(m.group(2)) < 60)


def _word_grounded(value: str, s: Step) -> bool:
    """Said or returned before: the value itself, its code form, or each of its words."""
    low = value.lower()
    if low in s.known_text or f"c:{canon_code(value)}" in s.known:
        return True
    squashed = re.sub(r"[^a-z0-9]", "", low)
    if len(squashed) >= 4 and squashed in re.sub(r"[^a-z0-9]", "", s.known_text):
        return True  # "wifi" for the caller's "Wi-Fi"
    words = [w.lower() for w in _WORD.findall(value)]
    text = set(re.findall(r"[a-z0-9]+", s.known_text))
    return bool(words) and all(w in text for w in words)


def _time_grounded(conv: Conversation, s: Step, val: str) -> bool:
    """A clock time written to a system: said or returned before, or a known time shifted by
    whole hours, half hours within 3 h, or a duration the record holds (an end time an hour
    after the start the caller said)."""
    hh, mm = int(val.split(":")[0]), val.split(":")[1]
    key = f"t:{hh:02d}{mm}"
    # said without AM / PM ("from ten o'clock to eleven thirty"): read as the number 10 or 1130
    bare = {f"n:{h}{'' if mm == '00' else mm}" for h in {hh, hh - 12 if hh > 12 else hh}}
    return key in s.known or bool(bare & s.known) or time_derivable(key, s.known, durations(conv, s))


def _severity(conv: Conversation, tool: str) -> int:
    return 2 if conv.tool_kind(tool) == "read" else 1


def _checks(conv: Conversation, s: Step, name: str, val: str, allowed: set[str] | None) -> str | None:
    """Why `val` is fabricated, or None."""
    if allowed is not None:
        if val in allowed or (_accepted(conv, s) and _word_grounded(val.replace("_", " "), s)):
            return None
        return f"value not among the tool's allowed values ({len(allowed)})"
    if not _real_date(val) or not _real_time(val):
        return "not a real date or time"
    if _TIME.match(val) and conv.tool_kind(s.tool) == "write" and not _time_grounded(conv, s, val):
        return "clock time no caller statement or tool result gives (nor a known one shifted)"
    if _DATE.match(val) or _TIME.match(val) or any(ch.isdigit() for ch in val):
        return None  # dates and identifiers with digits: grounded by other rules
    if SNAKE_CASE.match(val) or _FREE_TEXT.search(name) or len(val) > 40 or not _LONG_WORD.search(val):
        return None  # the agent's own category, free text, or a short code (state, airport)
    if conv.tool_kind(s.tool) != "write":
        return None  # a lookup by a name the caller paraphrased fails harmlessly
    return None if _word_grounded(val, s) else "value no caller statement, tool result or policy holds"


def ungrounded_values(conv: Conversation, tools: list[dict[str, Any]]) -> Iterator[Finding]:
    """Tool-call values outside the schema's allowed values, impossible dates or times, and
    word values (places, codes without digits) no source holds."""
    allowed = enum_values(tools)
    for s in conv.steps:
        if s.kind != "tool_call":
            continue
        for name, val in s.params.items():
            if not isinstance(val, str) or not val.strip():
                continue
            why = _checks(conv, s, name, val.strip(), allowed.get((s.tool, name)))
            if why:
                yield Finding(FABRICATION, _severity(conv, s.tool), s.turn, f"{s.tool}({name}={val!r})", why)
