"""A stall the record shows outright, which caps the progression rating instead of being weighed.

The fitted counts of `progression` price findings that are often harmless (the same tool called
again, a sentence worded like an earlier one). `repeated_writes` needs no price: EVA's
progression rubric names it as a flag (`unnecessary_tool_calls`), and the record shows it
without reading intent: a write called again with the same parameters after the same call
succeeded. The action was done twice (a second rebooking, a second charge), EVA's "single
severe issue", so one caps the rating at 1.

Not a repeat:
* a write retried after it failed, or the same tool with other parameters (the next request's);
* a repeat the caller asked for: a caller line between the two calls asks for it again
  ("can you send it once more?"; words in `lang/en.json`, `_progression.ask_again`): the
  caller wanted the action twice;
* an ancillary write (`_trace.is_ancillary`: bags, seats, meals, vouchers, notes), where two
  identical calls are an ordinary quantity (two checked bags, two meals), not an action redone.

Each finding is {feature, turn, claim, rule}.
"""

from __future__ import annotations

import json
import re
from typing import Any

from voxbench.eval.context import strip_tags
from voxbench.eval.offline._trace import as_dict, infer_tool_kind, is_ancillary, response_failed
from voxbench.eval.offline.lang import alt

_ASKS_AGAIN = re.compile(r"\b(?:" + alt("_progression", "ask_again") + r")\b", re.I)
"""A caller line asking for something to be done or sent again ("resend", "once more",
"another one"): a repeat of a write after it is what the caller asked for."""


def _key(e: dict[str, Any]) -> str:
    return json.dumps(as_dict(e.get("parameters")), sort_keys=True, default=str)


def repeated_writes(trace: list[dict[str, Any]], kinds: dict[str, str]) -> list[dict[str, Any]]:
    """Write calls identical (tool and parameters) to an earlier write that succeeded, with no
    caller line asking again in between; ancillary writes excepted. A response answers the
    latest unanswered call of its tool, as `_progression_record.read_record` reads."""
    open_calls: dict[str, list[str]] = {}
    done: dict[tuple[str, str], Any] = {}
    out: list[dict[str, Any]] = []
    for e in trace:
        if e.get("role") == "user" and _ASKS_AGAIN.search(strip_tags(str(e.get("content", "")))):
            done.clear()  # the caller asked again: what was done may be done once more
            continue
        name = str(e.get("tool_name"))
        if (kinds.get(name) or infer_tool_kind(name)) != "write" or is_ancillary(name):
            continue
        if e.get("type") == "tool_call":
            key = _key(e)
            if (name, key) in done:
                out.append({"feature": "repeated_writes", "turn": e.get("turn_id"), "claim": f"{name}({key[:120]})",
                            "rule": f"write done again with the same parameters (succeeded in turn {done[name, key]})"})  # fmt: skip
            open_calls.setdefault(name, []).append(key)
        elif e.get("type") == "tool_response" and open_calls.get(name):
            key = open_calls[name].pop()
            if not response_failed(as_dict(e.get("tool_response"))):
                done.setdefault((name, key), e.get("turn_id"))
    return out
