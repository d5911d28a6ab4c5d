"""A measured candidate for conversation_progression, not shipped: EVA's four progression
dimensions, each its own detector over the record (`benchmarks/progression_candidates.py`
measures it; docs/judges.md says what it showed and why the shipped method stays
`stall-count-ordinal` 3).

EVA's progression judge rates four dimensions (`unnecessary_tool_calls`, `information_loss`,
`redundant_statements`, `question_quality`) and combines them. Each detector here reads one of
them from what the record shows, stated for a class of inputs, and returns findings
`{feature, dimension, turn, claim, rule}`. Every finding is a stall (it can only make the
rating worse).

* unnecessary_tool_calls: a call identical to an earlier one that succeeded (a retry of a
  failed call is not unnecessary); the same for a write, counted once more (an action done
  twice); a call with empty or placeholder parameters (UNKNOWN, ABC123, ""; a value the
  tool's schema lists is a choice, not a placeholder).
* information_loss: the agent asking the caller to say again what the caller already said
  (not after a failed tool call: re-asking after "not found" is checking, not forgetting),
  the caller saying it already did ("I just told you"), a question repeating an earlier one
  (a go-ahead asked per action and the open offer of help are procedure).
* redundant_statements: an agent sentence repeating an earlier one with the same values (the
  same template with another request number is news; the closing turn's recap is the
  wrap-up), or announcing that it repeats ("just to repeat", "as I mentioned").
* question_quality: an open question ("anything else on your mind?") asked after the caller
  stated a request and before any tool call on it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rapidfuzz import fuzz

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline._trace import enum_params, infer_tool_kind, response_failed, tool_kinds
from voxbench.eval.offline.progression import (
    MIN_WORDS,
    OPEN_OFFER,
    PLACEHOLDER,
    SIMILAR_QUESTION,
    SIMILAR_STATEMENT,
    norm,
    params_of,
)
from voxbench.spoken.words import NATO, ORDINALS, SCALES, TENS, UNITS

PHRASES: dict[str, tuple[str, ...]] = {
    # the agent asking the caller to say again what was said (information loss)
    "re_ask": (
        r"remind me what you (said|told me|mentioned)",
        r"what (was|were|is) (that|the|your) [\w ]{0,30}again",
        r"(could|can|would) you (please )?(say|tell me|give me|repeat) (that|it|this|the [\w ]{0,30}) again",
        r"(could|can|would) you (please )?repeat (that|it|what you said)",
        r"what did you say (it|that) was",
        r"i didn'?t (catch|get) (that|it|your)",
    ),
    # the caller saying it already gave something (the agent lost it)
    "caller_already": (
        r"i (just|already) (told|gave|said|mentioned)",
        r"i (have )?told you (already|that|this)",
        r"(as|like) i (just |already )?(said|told you|mentioned)",
        r"same (\w+ )?i (just )?gave you",
        r"(please )?pay attention",
    ),
    # the agent announcing that it says something again (redundant statement)
    "restate_cue": (
        r"just to repeat",
        r"to repeat (it|that|this)",
        r"(as|like) i (said|mentioned|explained)( (before|earlier))?",
        r"^(once )?again, (you|your|the|i)\b",
        r"let me repeat",
    ),
    # an open or unrelated question (question quality, when asked before the request is worked on)
    "open_question": (
        r"anything else (on your mind|i can help|you need|you'?d like)",
        r"(any|other) (general )?concerns",
        r"how (can|may) i help",
        r"what else can i",
        r"is there anything (else )?(on your mind|you want to talk about)",
    ),
}
"""The phrase classes (regex branches, matched case-insensitively); the grammar is below."""


def _rx(name: str) -> re.Pattern[str]:
    return re.compile(r"\b(" + "|".join(PHRASES[name]) + r")", re.I)


RE_ASK, CALLER_ALREADY, RESTATE_CUE, OPEN_QUESTION = (
    _rx(n) for n in ("re_ask", "caller_already", "restate_cue", "open_question")
)
CONFIRM_STEP = re.compile(
    r"\b(read (that|those|it|them) back|say yes|is (that|this|all of that) correct|confirm (that|this) is"
    r"|approval to \w+|(shall|should|may) i (proceed|go ahead)|(want|like) me to (proceed|go ahead)"
    r"|(would you like|do you want) me to \w+ (that|it|this|them)( now)?\?)",
    re.I,
)
"""A read-back or a request for the go-ahead ("Would you like me to submit that?"): each action
of a multi-request call needs its own."""


def _finding(feature: str, dim: str, turn: Any, claim: str, rule: str) -> dict[str, Any]:
    return {"feature": feature, "dimension": dim, "turn": turn, "claim": claim[:160], "rule": rule}


def _calls(trace: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    """Each tool call with the response answering it (the next response of the same tool)."""
    out: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
    pending: dict[str, list[int]] = {}
    for e in trace:
        if e.get("type") == "tool_call":
            pending.setdefault(str(e.get("tool_name")), []).append(len(out))
            out.append((e, None))
        elif e.get("type") == "tool_response":
            q = pending.get(str(e.get("tool_name"))) or []
            if q:
                i = q.pop(0)
                r = e.get("tool_response")
                out[i] = (out[i][0], r if isinstance(r, dict) else {"value": r})
    return out


def unnecessary_tool_calls(ctx: ConversationContext) -> list[dict[str, Any]]:
    """Identical calls after a success, identical writes, placeholder calls."""
    dim = "unnecessary_tool_calls"
    categorical = enum_params(ctx.agent_tools or [])
    kinds = tool_kinds(ctx.agent_tools or [])
    done: dict[str, Any] = {}
    out = []
    for call, resp in _calls(ctx.conversation_trace):
        name, t = str(call.get("tool_name")), call.get("turn_id")
        p = params_of(call.get("parameters"))
        key = name + json.dumps(p, sort_keys=True, default=str)
        shown = f"{name}({key[len(name) :][:120]})"
        if key in done:
            out.append(_finding("identical_calls", dim, t, shown,
                                f"identical tool call repeated after it succeeded (turn {done[key]})"))  # fmt: skip
            if (kinds.get(name) or infer_tool_kind(name)) == "write":
                out.append(_finding("identical_writes", dim, t, shown, "an action already done done again"))
        holes = [k for k, v in p.items() if isinstance(v, str) and PLACEHOLDER.match(v.strip())]
        if not p or any((name, k) not in categorical for k in holes):
            out.append(
                _finding(
                    "placeholder_calls", dim, t, shown, "tool called with empty or placeholder parameters"
                )
            )
        if resp is not None and not response_failed(resp):
            done.setdefault(key, t)
    return out


def agent_sentences(trace: list[dict[str, Any]], closing: bool = True) -> list[tuple[int, str]]:
    """The agent's sentences with their turns; without the closing turn's when `closing` is
    False (a recap at the end of the call is the wrap-up, not a redundant statement)."""
    said = [e for e in trace if e.get("role") == "assistant"]
    last = said[-1].get("turn_id") if said and not closing else None
    out = []
    for e in said:
        if e.get("turn_id") != last:
            for s in re.split(r"(?<=[.!?])\s+", strip_tags(str(e.get("content", "")))):
                if s.strip():
                    out.append((int(e.get("turn_id", 0)), s.strip()))
    return out


VALUE_WORDS = frozenset([*UNITS, *TENS, *ORDINALS, *SCALES, *NATO, "dash"])
"""Words that carry a value when said (number words, ordinals, NATO letters; `spoken.words`)."""


def _values(normed: str) -> list[str]:
    """The sentence's values: digits, number words and single spelled letters, in order."""
    return [w for w in normed.split() if w.isdigit() or w in VALUE_WORDS or (len(w) == 1 and w not in "ai")]


def _repeats(
    items: list[tuple[int, str]], threshold: float, feature: str, dim: str, what: str
) -> list[dict[str, Any]]:
    """Items whose wording matches an earlier one (rapidfuzz's normalised Indel similarity) and
    that carry the same values: the same template with another request number or option is
    news (a multi-request call confirms each request in the same words)."""
    out = []
    normed = [norm(s) for _, s in items]
    for i, (t, s) in enumerate(items):
        for (t0, _), n0 in zip(items[:i], normed[:i], strict=True):
            if fuzz.ratio(normed[i], n0, score_cutoff=threshold * 100) and _values(normed[i]) == _values(n0):
                out.append(_finding(feature, dim, t, s, f"{what} (turn {t0})"))
                break
    return out


def checked(s: str) -> bool:
    return len(s.split()) >= MIN_WORDS and not OPEN_OFFER.search(s) and not CONFIRM_STEP.search(s)


def information_loss(ctx: ConversationContext) -> list[dict[str, Any]]:
    """Re-asking for what was said (not after a failed lookup), the caller saying so, repeated questions."""
    dim = "information_loss"
    out = []
    failed_since_caller = False
    for e in ctx.conversation_trace:
        t = e.get("turn_id")
        if e.get("role") == "user":
            failed_since_caller = False
            text = str(e.get("content", ""))
            if CALLER_ALREADY.search(text):
                out.append(
                    _finding("caller_already_said", dim, t, text, "the caller says it already gave this")
                )
        elif e.get("type") == "tool_response":
            r = e.get("tool_response")
            failed_since_caller |= isinstance(r, dict) and response_failed(r)
        elif e.get("role") == "assistant" and t and not failed_since_caller:
            text = strip_tags(str(e.get("content", "")))
            if RE_ASK.search(text):
                out.append(_finding("re_asks", dim, t, text, "asks the caller to say again what was said"))
    questions = [(t, s) for t, s in agent_sentences(ctx.conversation_trace) if s.endswith("?") and checked(s)]
    out += _repeats(questions, SIMILAR_QUESTION, "repeated_questions", dim, "asks an earlier question again")
    return out


def redundant_statements(ctx: ConversationContext) -> list[dict[str, Any]]:
    """Sentences repeating an earlier one, and sentences announcing a repetition."""
    dim = "redundant_statements"
    before_closing = agent_sentences(ctx.conversation_trace, closing=False)
    plain = [(t, s) for t, s in before_closing if not s.endswith("?") and checked(s)]
    out = _repeats(plain, SIMILAR_STATEMENT, "repeated_statements", dim, "repeats an earlier sentence")
    for t, s in agent_sentences(ctx.conversation_trace):
        if RESTATE_CUE.search(s):
            out.append(_finding("restatements", dim, t, s, "announces that it says something again"))
    return out


def question_quality(ctx: ConversationContext) -> list[dict[str, Any]]:
    """An open or unrelated question after the caller's request and before any tool call on it."""
    dim = "question_quality"
    out = []
    caller_spoke = acted = False
    for e in ctx.conversation_trace:
        if e.get("role") == "user":
            caller_spoke = True
        elif e.get("type") == "tool_call" and caller_spoke:
            acted = True
        elif e.get("role") == "assistant" and caller_spoke and not acted:
            for s in re.split(r"(?<=[.!?])\s+", strip_tags(str(e.get("content", "")))):
                if s.rstrip().endswith("?") and OPEN_QUESTION.search(s):
                    out.append(_finding("vague_questions", dim, e.get("turn_id"), s,
                                        "open question before the caller's request was worked on"))  # fmt: skip
    return out


DETECTORS = {
    "unnecessary_tool_calls": unnecessary_tool_calls,
    "information_loss": information_loss,
    "redundant_statements": redundant_statements,
    "question_quality": question_quality,
}
"""EVA's progression dimensions, each with its detector (in EVA's order)."""


def all_findings(ctx: ConversationContext) -> list[dict[str, Any]]:
    return [f for detect in DETECTORS.values() for f in detect(ctx)]
