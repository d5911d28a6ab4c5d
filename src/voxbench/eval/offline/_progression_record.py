"""What the progression method reads from a record besides the agent's words: where the
successful writes are, what each successful tool response returned, which call each response
answered, and which values a sentence carries. The re-ask flag (``_progression_flags``) reads the
record's calls from the same reading.

A call with several requests repeats its procedure for each: the read-back template with the
next request's number, "I found Datadog, catalog ID APP-1002" after "I found Confluence,
catalog ID APP-1001", the go-ahead question asked again for the next action. EVA's
progression rubric counts none of these ("stating information for the first time" is no
redundant statement); what tells them apart from a sentence said again is in the record: a
value a tool returned after the earlier sentence, or a write that finished the earlier request
in between.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from voxbench.eval.offline._trace import as_dict, infer_tool_kind, response_failed, tool_kinds
from voxbench.eval.offline._values import code_supported, data_keys, spoken_values
from voxbench.eval.offline.lang import word_set

_WORD = re.compile(r"[a-z][a-z0-9]{2,}")
_FREE_TEXT_KEY = re.compile(r"message|description|summary|reason|note|comment|details|instructions", re.I)
MAX_VALUE_WORDS = 4
"""A string of more words than this in a tool call or result is prose (a message, a
description), not a value."""


@dataclass(frozen=True)
class Answered:
    """A tool call and the response that answered it."""

    call: int
    """Trace position of the call."""
    at: int
    """Trace position of the response."""
    tool: str
    params: dict[str, Any]
    response: dict[str, Any]
    write: bool
    """The tool writes (by its schema's kind, else by its name)."""

    @property
    def failed(self) -> bool:
        return response_failed(self.response)


@dataclass
class Record:
    """The tool side of a conversation trace, by trace position."""

    answered: list[Answered] = field(default_factory=list)
    """Every call a response answered, in the responses' order, failed ones too."""

    writes: list[int] = field(default_factory=list)
    """Positions of the calls of write tools whose response succeeded."""
    written: list[int] = field(default_factory=list)
    """Positions of those writes' responses."""
    results: list[tuple[int, set[str]]] = field(default_factory=list)
    """(position, value keys) of every successful tool response."""
    vocabulary: frozenset[str] = frozenset()
    """The words of the short string values tools were called with or returned (an
    application's name, a request type): the record's values as words."""

    def write_between(self, start: int, end: int) -> bool:
        """A successful write at a position in [start, end)."""
        return any(start <= w < end for w in self.writes)

    def next_request_between(self, start: int, end: int) -> bool:
        """A write finished in [start, end) and, after its response and before `end`, a tool
        returned values no response up to it had: the call went on to another request's lookup
        (a write alone is no sign: the same request's next step may follow it)."""
        done = [r for w, r in zip(self.writes, self.written, strict=True) if start <= w < end]
        if not done:
            return False
        seen = {k for at, ks in self.results if at <= max(done) for k in ks}
        return any(max(done) < at < end and ks - seen for at, ks in self.results)

    def returned_between(self, value: str, start: int, end: int) -> bool:
        """A successful tool response between positions `start` and `end` holds `value` (a code
        also inside a longer id: "LIC710805" in "CASE-LIC-710805")."""
        keys = {k for at, ks in self.results if start < at < end for k in ks}
        return value in keys or (value.startswith("c:") and code_supported(value, keys))


def _strings(obj: Any, key: str = "") -> list[str]:
    if isinstance(obj, dict):
        return [s for k, v in obj.items() for s in _strings(v, str(k))]
    if isinstance(obj, list):
        return [s for v in obj for s in _strings(v, key)]
    if isinstance(obj, str) and not _FREE_TEXT_KEY.search(key):
        return [obj]
    return []


_NOT_VALUES = word_set("_progression", "not_values")


def _value_words(values: list[str]) -> set[str]:
    stop = _NOT_VALUES
    out: set[str] = set()
    for v in values:
        words = [w for w in re.split(r"[\s_\-/.,:]+", v.lower()) if w]
        if len(words) <= MAX_VALUE_WORDS:
            out |= {w for w in words if _WORD.fullmatch(w) and w not in stop}
    return out


def read_record(trace: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Record:
    """The answered calls, the successful writes, the responses' values and the value words of
    `trace`. A response answers the earliest unanswered call of its tool: calls made together are
    run, and answered, in the order they were made; a response no call is open for answers none."""
    kinds = tool_kinds(tools)
    rec = Record()
    open_calls: dict[str, list[int]] = {}
    strings: list[str] = []
    responses: list[tuple[int, dict[str, Any]]] = []
    for i, e in enumerate(trace):
        name = str(e.get("tool_name"))
        if e.get("type") == "tool_call":
            open_calls.setdefault(name, []).append(i)
            strings += _strings(as_dict(e.get("parameters")))
        elif e.get("type") == "tool_response" and open_calls.get(name):
            at = open_calls[name].pop(0)
            resp = as_dict(e.get("tool_response"))
            strings += _strings(resp)
            a = Answered(at, i, name, as_dict(trace[at].get("parameters")), resp,
                         (kinds.get(name) or infer_tool_kind(name)) == "write")  # fmt: skip
            rec.answered.append(a)
            if a.failed:
                continue
            responses.append((i, resp))
            if a.write:
                rec.writes.append(at)
                rec.written.append(i)
    rec.vocabulary = frozenset(_value_words(strings))
    rec.results = [(i, data_keys(r) | {f"w:{w}" for w in _value_words(_strings(r))}) for i, r in responses]
    return rec


def sentence_values(sentence: str, rec: Record) -> set[str]:
    """The values a sentence carries: the keys of the codes, numbers, dates, times and amounts
    it says, and the words it shares with the record's values."""
    keys = {v.key for v in spoken_values(sentence)}
    return keys | {f"w:{w}" for w in set(_WORD.findall(sentence.lower())) & rec.vocabulary}
