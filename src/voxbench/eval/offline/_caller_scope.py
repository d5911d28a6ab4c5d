"""The caller's scope: did it escalate when told not to, repeat a request into a duplicate
write, or speak another language? (Requests outside the goal: `_caller_requests`.)

* `decision_tree_violation`: asking for a supervisor / live agent, or accepting a transfer,
  when the escalation instructions forbid it;
* `duplicate_modifications`: the same write tool run twice with identical arguments after
  the caller repeated a request;
* `wrong_language`: a caller line in another language than the call's (another script, or a
  Latin-script language told apart by its function words: the table `FUNCTION_WORDS`).
"""

from __future__ import annotations

import json
import re
from difflib import SequenceMatcher
from typing import Any

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline._caller_end import caller_turns, closing_question, ev
from voxbench.eval.offline._trace import infer_tool_kind, response_failed, tool_kinds
from voxbench.eval.offline.lang import alt, function_words


def _a(name: str) -> str:
    return alt("_caller_scope", name)


# The words are data (``lang/<lang>.json``, ``phrases._caller_scope``); the grammar is here.
_ESCALATE = re.compile(rf"\b({_a('escalate')})\b", re.I)
_ASKS_ESCALATION = re.compile(rf"\b({_a('asks_escalation')})\b", re.I)
_FORBIDS_ESCALATION = re.compile(
    rf"\b({_a('forbid_word')})\s+({_a('forbid_verb')})\w*\b[^.]*\b({_a('forbidden_escalation')})", re.I
)
_DECLINES = re.compile(rf"\b({_a('declines')})\b", re.I)
_DECLINE_TRANSFER = re.compile(_a("decline_transfer"), re.I)
_NEGATED_ESCALATION = re.compile(rf"\b({_a('negation')})\b[^.]{{0,30}}" + _ESCALATE.pattern, re.I)
_ACCEPTS = re.compile(rf"^\W*({_a('accepts')})\b", re.I)
FUNCTION_WORDS: dict[str, frozenset[str]] = function_words()
"""Each language's common short words (``lang/function_words.json``)."""


def escalation_violations(ctx: ConversationContext) -> list[dict[str, Any]]:
    rules = str((ctx.user_goal.get("decision_tree") or {}).get("escalation_behavior") or "")
    no_asking, decline = bool(_FORBIDS_ESCALATION.search(rules)), bool(_DECLINE_TRANSFER.search(rules))
    if not (no_asking or decline):
        return []
    out = []
    agent = {t: strip_tags(x) for t, x in ctx.intended_assistant_turns.items()}
    for t, text in caller_turns(ctx).items():
        if (
            no_asking
            and _ESCALATE.search(text)
            and _ASKS_ESCALATION.search(text)
            and not _NEGATED_ESCALATION.search(text)
            and not _DECLINES.search(text)
        ):
            out.append(ev(t, text[:160], "caller asked for escalation its instructions forbid"))
        # the agent's closing question offered the transfer (not a transfer mentioned in passing)
        offered = closing_question(agent.get(t - 1, ""))
        if (
            decline
            and _ESCALATE.search(offered)
            and re.search(r"\btransfer\b", offered, re.I)
            and _ACCEPTS.match(text)
        ):
            out.append(ev(t, text[:160], "caller accepted a transfer its instructions say to decline"))
    return out


def duplicate_modifications(ctx: ConversationContext) -> list[dict[str, Any]]:
    kinds = tool_kinds(ctx.agent_tools)
    seen: dict[str, int] = {}
    callers = caller_turns(ctx)
    out = []
    for c in ctx.tool_calls:
        if (kinds.get(c.name) or infer_tool_kind(c.name)) != "write" or (
            c.response and response_failed(c.response)
        ):
            continue
        key = c.name + json.dumps(c.params, sort_keys=True, default=str)
        if key in seen:
            prev = [x for t, x in callers.items() if t <= seen[key]]
            now = callers.get(c.turn_id, "")
            if any(SequenceMatcher(None, now.lower(), p.lower()).ratio() > 0.7 for p in prev):
                out.append(
                    ev(
                        c.turn_id,
                        f"{c.name} repeated with the same arguments",
                        "caller's repeated request caused a duplicate write",
                    )
                )
        seen.setdefault(key, c.turn_id)
    return out


def _language_of(text: str) -> tuple[str, int] | None:
    letters = [ch for ch in text if ch.isalpha()]
    if len(letters) >= 6 and sum(ord(ch) > 0x24F for ch in letters) / len(letters) > 0.5:
        return "non-latin", len(letters)
    words = [w for w in re.findall(r"[\w']+", text.lower()) if len(w) > 1]  # not spelled letters
    if len(words) < 4:
        return None
    hits = {lang: sum(w in fw for w in words) for lang, fw in FUNCTION_WORDS.items()}
    lang = max(hits, key=lambda k: hits[k])
    return (lang, hits[lang]) if hits[lang] >= 2 else None


def wrong_language(ctx: ConversationContext) -> list[dict[str, Any]]:
    """A caller line (4+ words, or 6+ letters of another script) whose function words are
    another language's: twice the call language's own count, at least two of them."""
    expected = (ctx.language or "en").split("-")[0].lower()
    out = []
    for t, text in caller_turns(ctx).items():
        found = _language_of(text)
        if found is None:
            continue
        lang, n = found
        if lang == "non-latin":
            if expected in FUNCTION_WORDS:
                out.append(ev(t, text[:120], "caller spoke outside the expected language's script"))
            continue
        own = sum(
            w in FUNCTION_WORDS.get(expected, frozenset()) for w in re.findall(r"[\w']{2,}", text.lower())
        )
        if lang != expected and expected in FUNCTION_WORDS and n >= 2 * max(own, 1):
            out.append(ev(t, text[:120], f"caller spoke {lang}, the call is in {expected}"))
    return out
