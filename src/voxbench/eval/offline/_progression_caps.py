"""Stalls the record shows outright, which cap the progression rating instead of being weighed.

The fitted counts of `progression` price findings that are often harmless (the same tool called
again, a sentence worded like an earlier one). The classes here need no price: EVA's
progression rubric names each as a flag, and the record shows it without reading intent:

* `repeated_writes` (`unnecessary_tool_calls`): a write called again with the same parameters
  after the same call succeeded. The action was done twice (a second rebooking, a second
  charge), EVA's "single severe issue", so one caps the rating at 1. A write retried after it
  failed, or the same write with other parameters (the next request's), is not one.
* `restatements` (`redundant_statements`): an agent sentence that announces it says again what
  was said ("Just to repeat what we confirmed: ...", "As I mentioned, ..."): the agent itself
  marks the content as not new. Not when the caller's line it answers asked a question or asked
  to hear it again (EVA: "when the user did not ask for it").
* `caller_already_said` (`information_loss`): after an agent line asking something, the caller
  says it already gave the answer ("I just told you.", "I already gave you that."): the
  caller's answer shows the agent asked for what it had been told, however the ask was worded.

The cue phrases are data (`lang/en.json`, `_progression`: `restatement_cues`,
`already_said_cues`). Each finding is {feature, turn, claim, rule}.
"""

from __future__ import annotations

import json
import re
from typing import Any

from voxbench.eval.context import strip_tags
from voxbench.eval.offline._trace import as_dict, infer_tool_kind, response_failed
from voxbench.eval.offline.lang import alt

_RESTATES = re.compile(
    r"\b(?:" + alt("_progression", "restatement_cues") + r")\b(?!\s+(?:\w+\s+)?back\b)", re.I
)
"""An agent's announcement that it repeats itself ("just to repeat", "as I mentioned"); not a
read-back ("let me repeat that back": policies ask for one before a write)."""
_ALREADY = re.compile(r"\b(?:" + alt("_progression", "already_said_cues") + r")\b", re.I)
"""A caller's protest that it already gave what is asked ("I just told you")."""
_ASKS_AGAIN = re.compile(r"\?|\b(?:" + alt("_conciseness", "repeat_ask") + r")\b", re.I)
"""A caller line that asks (a question, or to hear something again, by the conciseness judge's
table of such asks): what answers it was asked for."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def repeated_writes(trace: list[dict[str, Any]], kinds: dict[str, str]) -> list[dict[str, Any]]:
    """Write calls identical (tool and parameters) to an earlier write that succeeded. A response
    answers the latest unanswered call of its tool, as `_progression_record.read_record` reads."""
    open_calls: dict[str, list[str]] = {}
    done: dict[tuple[str, str], Any] = {}
    out: list[dict[str, Any]] = []
    for e in trace:
        name = str(e.get("tool_name"))
        if (kinds.get(name) or infer_tool_kind(name)) != "write":
            continue
        if e.get("type") == "tool_call":
            key = json.dumps(as_dict(e.get("parameters")), sort_keys=True, default=str)
            if (name, key) in done:
                out.append({"feature": "repeated_writes", "turn": e.get("turn_id"), "claim": f"{name}({key[:120]})",
                            "rule": f"write done again with the same parameters (succeeded in turn {done[name, key]})"})  # fmt: skip
            open_calls.setdefault(name, []).append(key)
        elif e.get("type") == "tool_response" and open_calls.get(name):
            key = open_calls[name].pop()
            if not response_failed(as_dict(e.get("tool_response"))):
                done.setdefault((name, key), e.get("turn_id"))
    return out


def restatements(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Agent sentences announcing a repeat, unless the caller's last line asked."""
    out: list[dict[str, Any]] = []
    asked = False
    for e in trace:
        role = e.get("role")
        if role == "user":
            asked = bool(_ASKS_AGAIN.search(strip_tags(str(e.get("content", "")))))
        elif role == "assistant" and not asked:
            for s in _SENTENCE.split(strip_tags(str(e.get("content", "")))):
                if _RESTATES.search(s):
                    out.append({"feature": "restatements", "turn": e.get("turn_id"), "claim": s[:160],
                                "rule": "the agent says it repeats what it said"})  # fmt: skip
    return out


def already_said(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Caller lines saying they already gave the answer to the agent line just before, which asked."""
    out: list[dict[str, Any]] = []
    ask: tuple[Any, str] | None = None
    for e in trace:
        role = e.get("role")
        if role == "assistant":
            text = strip_tags(str(e.get("content", "")))
            ask = (e.get("turn_id"), text) if "?" in text else None
        elif role == "user":
            line = strip_tags(str(e.get("content", "")))
            if ask is not None and _ALREADY.search(line):
                out.append({"feature": "caller_already_said", "turn": ask[0], "claim": ask[1][:160],
                            "rule": f"the caller answered that it already said it: {line[:80]!r}"})  # fmt: skip
            ask = None
    return out
