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
from voxbench.eval.offline._progression_record import Record
from voxbench.eval.offline._trace import is_ancillary
from voxbench.eval.offline.lang import alt

_ASKS_AGAIN = re.compile(r"\b(?:" + alt("_progression", "ask_again") + r")\b", re.I)
"""A caller line asking for something to be done or sent again ("resend", "once more",
"another one"): a repeat of a write after it is what the caller asked for."""


def repeated_writes(trace: list[dict[str, Any]], rec: Record) -> list[dict[str, Any]]:
    """Write calls identical (tool and parameters) to an earlier write that succeeded before them,
    with no caller line asking again in between; ancillary writes excepted. The calls and their
    responses are the record's (`rec`: ``read_record``'s pairing and write kinds)."""
    asks = [i for i, e in enumerate(trace)
            if e.get("role") == "user" and _ASKS_AGAIN.search(strip_tags(str(e.get("content", ""))))]  # fmt: skip
    writes = sorted((a for a in rec.answered if a.write and not is_ancillary(a.tool)), key=lambda a: a.call)
    out: list[dict[str, Any]] = []
    for a in writes:
        key = json.dumps(a.params, sort_keys=True, default=str)
        done = next((b for b in writes if not b.failed and b.at < a.call and b.tool == a.tool
                     and b.params == a.params and not any(b.at < k < a.call for k in asks)), None)  # fmt: skip
        if done is not None:
            out.append({"feature": "repeated_writes", "turn": trace[a.call].get("turn_id"), "claim": f"{a.tool}({key[:120]})",
                        "rule": f"write done again with the same parameters (succeeded in turn {trace[done.at].get('turn_id')})"})  # fmt: skip
    return out
