"""The caller's requests: did it ask for something its goal does not hold? (`extra_modifications`)

A caller line that opens a further request ("while I have you, I'd also like to ...") is
outside the goal when what it asks for is new to the call. "New" is read two ways, on light
word stems (`stem`: "assignment" / "assigned" / "assign" alike, "complaint" apart from
"complete"):

* its content words are mostly absent from the goal and from what the agent said before;
* or its *head* (the request's first two content words: the action and its object, "change
  phone", "file complaint") never occur together in one clause of the goal (one string of its
  instructions, or one fact with its field name) or in one sentence the agent said before. A request's
  words can each be familiar ("phone" from a verification question, "change" from the task)
  while the request is not: a goal that asks to add a bag and verifies by phone number does
  not ask to change the phone number.

Function words, spoken digits and short words are not content (`STOP_WORDS`).
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline._caller_end import caller_turns, ev
from voxbench.eval.offline.lang import alt, word_set

_FURTHER_REQUEST = re.compile(
    rf"\b({alt('_caller_requests', 'further_request')})\b"
    r"(?P<rest>[^?.!]*)",
    re.I,
)


STOP_WORDS = word_set("_caller_requests", "stop_words")
INQUIRIES = word_set("_caller_requests", "inquiries")
"""Actions that ask about the task or for its information rather than change anything: "can
you also confirm the refund goes to my card?", "could you also send me the confirmation?" are
not further modifications; such a request is read by its words only, not by its head."""
_SUFFIXES = ("ations", "ation", "ments", "ment", "ings", "ing", "ies", "ied", "ed", "es", "s", "ly")
HEAD = 2
"""Content words that make a request's head (its action and object)."""


def stem(w: str) -> str:
    """A light stem: one inflectional or derivational suffix off, then a final e / y."""
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 3 and not (suf == "s" and w.endswith("ss")):
            w = w[: -len(suf)] + ("y" if suf in ("ies", "ied") else "")
            break
    return w[:-1] if len(w) > 4 and w[-1] in "ey" else w


def content(text: str) -> list[str]:
    """Content words as stems, in order: not function words, not spoken digits or code
    letters (values are the facts checks' business), not contractions."""
    words = re.findall(r"[a-z][a-z']+", text.lower().replace("-", " ").replace("_", " "))
    return [stem(w) for w in words if w not in STOP_WORDS and "'" not in w and "’" not in w and len(w) > 2]


def _clauses(obj: Any) -> list[list[str]]:
    """The goal's clauses as stem lists: each instruction string, and each fact (its field
    name with its value)."""
    if isinstance(obj, dict):
        info = obj.get("information_required")
        rest = [_clauses(v) for k, v in obj.items() if k != "information_required"]
        facts = (
            [content(f"{k} {json.dumps(v, ensure_ascii=False)}") for k, v in info.items()]
            if isinstance(info, dict)
            else []
        )
        return [*facts, *(c for r in rest for c in r)]
    if isinstance(obj, list):
        return [c for v in obj for c in _clauses(v)]
    return [content(str(obj))] if isinstance(obj, str) else []


def _sentences(text: str) -> list[list[str]]:
    return [content(s) for s in re.split(r"(?<=[.!?])\s+", text)]


def _pairs(clauses: list[list[str]]) -> set[frozenset[str]]:
    return {frozenset(p) for c in clauses for p in itertools.combinations(set(c), 2)}


def extra_requests(ctx: ConversationContext) -> list[dict[str, Any]]:
    """A further request mostly new to the call, or whose head is."""
    goal = _clauses(ctx.user_goal)
    known_words = {w for c in goal for w in c}
    known_pairs = _pairs(goal)
    agent = {t: strip_tags(x) for t, x in ctx.intended_assistant_turns.items()}
    out = []
    for t, text in caller_turns(ctx).items():
        said = [s for a, x in agent.items() if a < t for s in _sentences(x)]
        words_now = known_words | {w for s in said for w in s}
        pairs_now = known_pairs | _pairs(said)
        for m in _FURTHER_REQUEST.finditer(text):
            words = content(m.group("rest"))
            new = [w for w in words if w not in words_now]
            head = words[:HEAD]
            new_head = (
                len(words) > HEAD
                and len(set(head)) == HEAD
                and head[0] not in {stem(w) for w in INQUIRIES}
                and frozenset(head) not in pairs_now
            )
            if len(words) >= 2 and (len(new) * 2 > len(words) or new_head):
                why = ", ".join(new[:4]) if len(new) * 2 > len(words) else f"{' '.join(head)} together"
                out.append(ev(t, m.group(0)[:160], f"caller asked for something outside its goal ({why})"))
    return out
