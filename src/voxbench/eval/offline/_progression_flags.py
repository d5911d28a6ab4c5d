"""Progression findings EVA's rubric names as flags outright, read from the record.

The fitted counts of `progression` price stalls that are often harmless (the same tool called
again, a sentence worded like an earlier one), so one of them alone rarely lowers a rating. Two
classes the rubric lists as flags need no pricing: the record shows them unambiguously, and a
flagged dimension means the conversation is not a 3 (EVA's overall rule: 3 only when nothing is
flagged):

* a premature call (`unnecessary_tool_calls`: "calling a tool ... with missing required
  parameters, causing a predictable error ... before asking the user for the required
  identifier"): a call made in the caller's opening turn, before the agent said anything to
  it, that failed and holds a value no caller line or earlier tool result holds (an identifier
  made up instead of asked for: "JFKLAX1", last name "Assumed");
* a re-asked fact (`information_loss`: "re-asking the user for information they already
  provided (e.g. ... after the user stated it and it was used successfully)"): an agent
  question for the caller's own field ("your" + the words of a tool parameter, no other owner
  between: "your colleague's employee ID" asks for another person's) after a successful call
  used the value the caller gave for that parameter. Not a flag: a question that carries a
  value (a read-back, or a choice naming its options), a go-ahead or read-back request, and a
  re-ask right after a caller line that was cut off (the rubric's speech-recognition
  exemption).
"""

from __future__ import annotations

import re
from typing import Any

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline._faith_rules import fabricated_params
from voxbench.eval.offline._trace import Conversation, Step, read_conversation, response_failed
from voxbench.eval.offline._values import spoken_values
from voxbench.eval.offline.lang import word_set

_TAILS = word_set("_progression", "field_tails")
"""A field's generic last word ("id", "number", "code"): "your employee number" asks for
`employee_id` as well."""
_CUT_OFF = word_set("_progression", "cut_off_marks")
"""Words marking a caller line cut off (an interruption tag: "[likely cut off by user]")."""
_CUT_OFF_ENDS = tuple(word_set("_progression", "cut_off_endings"))
"""How a line the recogniser cut short ends ("...", a dash)."""
_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
OWNER_GAP = 3
"""How far before the field's words "your" may stand ("your six-character confirmation
number": two words between)."""
SMALL_NUMBER = 4
"""A plain number key of at most this many characters ("n:1" in "one more time") is no value a
question reads back."""


def _words(text: str) -> list[str]:
    """Lower-case words, "I D" read as "id"."""
    return [w.replace("’", "'") for w in _WORD.findall(re.sub(r"\bi d\b", "id", text.lower()))]


def _response_of(conv: Conversation, k: int) -> Step | None:
    s = conv.steps[k]
    return next((r for r in conv.steps[k + 1 :] if r.kind == "tool_response" and r.tool == s.tool), None)


def premature_calls(conv: Conversation, placeholder: re.Pattern[str]) -> list[dict[str, Any]]:
    """Failed calls of the caller's opening turn, made before the agent answered it, holding a
    value nobody gave. A call already counted as a placeholder call (no parameters, or a value
    `placeholder` matches outside the schema's enums) is left to that count."""
    made_up = {(f.turn, f.claim.split("(")[0]) for f in fabricated_params(conv)}
    first = next((s.i for s in conv.steps if s.kind == "user"), None)
    out = []
    for k, s in enumerate(conv.steps):
        if s.kind != "tool_call" or first is None or s.i < first:
            continue
        if any(a.kind == "assistant" and a.i > first for a in conv.steps[:k]):
            break
        resp = _response_of(conv, k)
        if resp is None or not response_failed(resp.response) or (s.turn, s.tool) not in made_up:
            continue
        holes = [n for n, v in s.params.items() if isinstance(v, str) and placeholder.match(v.strip())]
        if not s.params or any((s.tool, n) not in conv.enums for n in holes):
            continue
        out.append({"feature": "premature_calls", "turn": s.turn, "claim": f"{s.tool}({s.params})"[:160],
                    "rule": "failed call with a value nobody gave, made before asking the caller"})  # fmt: skip
    return out


def asks_own_field(question: str, field: str) -> bool:
    """The question names `field` (a parameter name, "confirmation_number") as the caller's own:
    "your" at most `OWNER_GAP` words before the field's words, no possessive ("colleague's")
    between; the field's generic last word may be any generic word ("employee number")."""
    want = [w for w in field.lower().split("_") if w]
    if not [w for w in want if w not in _TAILS]:
        return False
    words = _words(question)
    n = len(want)
    for j in range(len(words) - n + 1):
        got = words[j : j + n]
        if got != want and not (want[-1] in _TAILS and got[:-1] == want[:-1] and got[-1] in _TAILS):
            continue
        before = words[max(0, j - OWNER_GAP) : j]
        if "your" in before and not any(w.endswith("'s") for w in before[before.index("your") :]):
            return True
    return False


def _carries_value(sentence: str) -> bool:
    return any(not v.key.startswith("n:") or len(v.key) > SMALL_NUMBER for v in spoken_values(sentence))


def _cut_off(line: str) -> bool:
    low = line.lower().rstrip()
    return any(m in low for m in _CUT_OFF) or low.endswith(_CUT_OFF_ENDS)


def _given(value: str, keys: set[str], said: str) -> bool:
    """The caller said `value`: one of its value keys, or (a name, a word value) its words."""
    own = {v.key for v in spoken_values(value)}
    if own:
        return bool(own & keys)
    words = " ".join(_words(value))
    return bool(words) and f" {words} " in said


def reasked_facts(conv: Conversation, confirm_step: re.Pattern[str]) -> list[dict[str, Any]]:
    """Agent questions for a field of the caller's whose value, given by the caller, a successful
    call already used (`confirm_step` matches a go-ahead or read-back request, never a flag)."""
    keys: set[str] = set()
    said, last_caller = " ", ""
    used: set[str] = set()
    out = []
    for k, s in enumerate(conv.steps):
        if s.kind == "user":
            keys |= {v.key for v in spoken_values(s.text)}
            said += " ".join(_words(s.text)) + " "
            last_caller = s.text
        elif s.kind == "tool_call":
            resp = _response_of(conv, k)
            if resp is not None and not response_failed(resp.response):
                used |= {
                    n
                    for n, v in s.params.items()
                    if isinstance(v, str) and v.strip() and _given(v, keys, said)
                }
        elif s.kind == "assistant" and used and not _cut_off(last_caller):
            for q in re.split(r"(?<=[.!?])\s+", strip_tags(s.text)):
                if not q.rstrip().endswith("?") or confirm_step.search(q) or _carries_value(q):
                    continue
                field = next((f for f in sorted(used) if asks_own_field(q, f)), None)
                if field:
                    out.append({"feature": "reasked_facts", "turn": s.turn, "claim": q[:160],
                                "rule": f"asks again for {field}, which the caller gave and a call used"})  # fmt: skip
    return out


def rubric_flags(
    ctx: ConversationContext, placeholder: re.Pattern[str], confirm_step: re.Pattern[str]
) -> list[dict[str, Any]]:
    """Both classes of finding, as {feature, turn, claim, rule}."""
    conv = read_conversation(ctx)
    return premature_calls(conv, placeholder) + reasked_facts(conv, confirm_step)
