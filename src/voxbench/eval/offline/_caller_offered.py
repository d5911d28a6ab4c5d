"""A choice among options the agent listed: which of the caller's facts it asks for.

"The available durations are thirty, sixty, or ninety days. Which one would you like?" names no
field: "one" is a part word, not a field's head (`caller-rules` 0.9 stopped reading the field the
line mentions from it, which was right for "which one" after a line that only states fields). But
when one of the options listed is the caller's own value (its goal holds `extension_days: 60`),
the question asks the caller for that value: a caller answering "I don't know" withholds it. So
the field is read from the options, and only from them: the question is a choice question that
names no thing of its own ("which", "which one", "which of those" before its verb: `choice_q` in
`lang/en.json`), an enumeration in the same agent turn or the agent's turn before lists two or
more options, one option (and only one) holds the value of one of the caller's facts, and no
other value of the caller's is one of the options (a read-back of several facts is no list of
choices).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from voxbench.eval.offline._values import text_keys
from voxbench.eval.offline.lang import alt

_CHOICE_Q = re.compile(alt("_caller_facts", "choice_q"), re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_ITEM_SEP = re.compile(r",\s*(?:(?:or|and)\s+)?|\s+or\s+", re.I)


def _window(line: str, before: str) -> list[str]:
    """Where the options of a choice question are: the question and the sentence before it in
    the agent's line (the last choice question of it), else the last two sentences of the
    agent's turn before; empty when the line asks no choice."""
    sentences = _SENTENCE.split(line.strip())
    at = [i for i, x in enumerate(sentences) if _CHOICE_Q.search(x) and x.rstrip().endswith("?")]
    if not at:
        return []
    return [
        " ".join(sentences[max(at[-1] - 1, 0) : at[-1] + 1]),
        " ".join(_SENTENCE.split(before.strip())[-2:]),
    ]


def listed_options(text: str) -> list[list[str]]:
    """Each enumeration in `text` as its items: a sentence's run of two or more items split
    by commas and a last "or" / "and" ("thirty, sixty, or ninety days"; "Mac or Windows"); a
    list joined by "and" alone needs three items. The first item is cut to as many words as
    the longest other item and one more, so the words leading up to the list ("The available
    durations are") are not an option."""
    out = []
    for sentence in _SENTENCE.split(text):
        has_or = bool(re.search(r"\bor\b", sentence, re.I))
        items = [x.strip(" ?.!") for x in _ITEM_SEP.split(sentence) if x.strip(" ?.!")]
        if len(items) < 2 or not (has_or or (len(items) >= 3 and re.search(r",\s*and\b", sentence, re.I))):
            continue
        width = max(len(x.split()) for x in items[1:]) + 1
        out.append([" ".join(items[0].split()[-width:]), *items[1:]])
    return out


def _offers(item: str, value: str, holds: Callable[[str, str], bool]) -> bool:
    """The option states the value: a plain number as the option's one number ("sixty days"
    for 60, not the 4 of "2026-11-04"); an ISO date ("2026-09-14") also as the month and day
    an agent says ("September fourteenth"); another value of three characters or more as the
    gate reads a value in a line (a two-letter code, "OH", is no option's words)."""
    v = value.strip()
    if re.fullmatch(r"\d+(?:\.\d+)?", v):
        return bool(keys := text_keys(v)) and text_keys(item) == keys
    if len(v) < 3:
        return False
    if holds(item, v):
        return True
    m = re.fullmatch(r"\d{4}-(\d{2})-(\d{2})", v)
    return m is not None and f"d:{m[1]}{m[2]}" in text_keys(item)


def offered_field(
    line: str, before: str, fields: dict[str, Any], holds: Callable[[str, str], bool]
) -> str | None:
    """The caller's fact a choice question in the agent's `line` asks for: the one whose value
    one option holds (in two or more, it is common to the options: a floor both desks are on).
    The options are the nearest listed: in the question or the sentence before it, else (when
    those list none) at the end of the agent's turn `before`. No other value of the caller's
    among the options (two fields holding the same value are one value: the first is named).
    None otherwise. `holds(text, value)` is the gate's reading of a value in a line (written or
    spoken)."""
    values = {
        k: str(v) for k, v in fields.items()
        if isinstance(v, str | int | float) and not isinstance(v, bool) and str(v).strip()
    }  # fmt: skip
    lists = next((found for part in _window(line, before) if (found := listed_options(part))), [])
    for items in lists:  # the nearest options: the question's own, else those of the turn before
        fits = sorted(k for k, v in values.items() if any(_offers(x, v, holds) for x in items))
        one_value = bool(fits) and len({values[k] for k in fits}) == 1  # two fields may share it
        if one_value and sum(_offers(x, values[fits[0]], holds) for x in items) == 1:
            return fits[0]
    return None
