"""Offline user_behavioral_fidelity: did the simulated caller stay inside its instructions?

Same 0/1 scale as the LLM judge (1 = the caller behaved, 0 = it corrupted the test), so
the validation gate keeps EVA's threshold of 1.0. Deterministic checks over the record:

* `invented_information`: a code, email, phone number, name, amount, date or time the caller
  states that is neither among its facts / goal (`user_goal`) nor something the agent said
  earlier in the call (read-backs and offered options may be repeated);
* `premature_ending`: the caller hung up while the agent was still progressing (its last
  turn asked the caller for something, no error, no transfer, not a question it had already
  asked twice, or asked before and been told the caller does not have: a looping agent is not
  progressing) and the task database does not match the expected one (when both are known);
* `decision_tree_violation`: asking for a supervisor / live agent, or accepting a transfer,
  when the escalation instructions forbid it;
* `duplicate_modifications`: the same write tool run twice with identical arguments after
  the caller repeated a request;
* `wrong_language`: an English caller speaking mostly in another script.

Judged on what the caller *meant* to say (intended text; the STT of it otherwise), so
recognition errors are not blamed on the caller. No human labels exist for this metric in
EVA's validation sets, so its agreement is unmeasured: params carry `confidence: "unmeasured"`.
"""

from __future__ import annotations

import json
import re
from difflib import SequenceMatcher
from typing import Any

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline import offline_method
from voxbench.eval.offline._trace import infer_tool_kind, response_failed, tool_kinds
from voxbench.eval.offline._values import Value, code_supported, data_keys, spoken_values, text_keys
from voxbench.eval.types import MetricResult

NAME = "user_behavioral_fidelity"
VERSION = "0.4"

_END_BY_CALLER = {"end_call", "goodbye", "user_hangup", "caller_hangup", "hangup", "user_ended"}
_ESCALATE = re.compile(
    r"\b(supervisor|manager|live agent|real person|human agent|a human|representative)\b", re.I
)
_ASKS_ESCALATION = re.compile(r"\b(speak|talk|transfer|connect|put me through|get me)\b", re.I)
_FORBIDS_ESCALATION = re.compile(
    r"\b(do not|don't|never)\s+(ask|request)\w*\b[^.]*\b(supervisor|live agent|transfer|manager)", re.I
)
_DECLINES = re.compile(r"\b(no,? thanks|don't need|do not need|no transfer|not interested|decline)\b", re.I)
_DECLINE_TRANSFER = re.compile(r"\b(must|should|always)\s+decline\b|\bnever speak to a live agent", re.I)
_STALLED = re.compile(
    r"\b(sorry|unable|can't|cannot|can’t|error|technical|issue|problem|transfer|not able|unfortunately)\b",
    re.I,
)
_WRAP_UP = re.compile(r"\b(anything else|something else|is there anything|have a (great|good|nice))\b", re.I)
# A yes/no question ("Do you want to add a checked bag?") and a reply that opens by answering it
# ("No, I don't want anything else. Bye."): the caller answered, it did not walk away mid-request.
_YES_NO_QUESTION = re.compile(
    r"\b(do|would|shall|should|can|could|may) (you|i|we) (want|like|need|prefer|go ahead|proceed|add|"
    r"request|book|help|also|confirm)\b[^?]*\?\s*$",
    re.I,
)
_ANSWERS_YES_NO = re.compile(
    r"^\W*(no|nope|yes|yeah|yep|sure|okay|ok|that's all|that is all|i'm good|all set)\b", re.I
)


def _ev(turn: int, claim: str, rule: str) -> dict[str, Any]:
    return {"turn": turn, "claim": claim, "rule": rule}


def _caller_turns(ctx: ConversationContext) -> dict[int, str]:
    src = ctx.intended_user_turns or ctx.transcribed_user_turns
    return {t: strip_tags(x) for t, x in sorted(src.items()) if x.strip()}


def _goal_keys(goal: dict[str, Any]) -> tuple[set[str], str]:
    text = json.dumps(goal, ensure_ascii=False)
    keys = data_keys(goal)
    for leaf in re.findall(r'"([^"]{2,})"', text):
        keys |= text_keys(leaf)
    return keys, text.lower()


def _agent_before(ctx: ConversationContext, turn: int) -> tuple[set[str], str]:
    keys: set[str] = set()
    texts: list[str] = []
    for t, x in ctx.intended_assistant_turns.items():
        if t < turn:
            keys |= text_keys(strip_tags(x))
            texts.append(x.lower())
    return keys, " ".join(texts)


def _value_supported(v: Value, keys: set[str]) -> bool:
    if v.kind == "c":
        return code_supported(v.key, keys)
    if v.kind == "n":
        return float(v.key[2:]) < 10 or v.key in keys or f"c:{v.key[2:]}" in keys
    return v.key in keys


_NAME_SAID = re.compile(r"\b(?:last name|surname|my name)\s+is\s+([A-Z][A-Za-z'\-]+)")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


def invented_information(ctx: ConversationContext) -> list[dict[str, Any]]:
    goal_keys, goal_text = _goal_keys(ctx.user_goal)
    placeholders = "<last_name>" in goal_text or "<first_name>" in goal_text
    out: list[dict[str, Any]] = []
    for turn, text in _caller_turns(ctx).items():
        agent_keys, agent_text = _agent_before(ctx, turn)
        known = goal_keys | agent_keys
        for v in spoken_values(text):
            body = v.key[2:]
            if v.kind == "c":
                mixed = any(c.isdigit() for c in body) and any(c.isalpha() for c in body)
                if not (4 <= len(body) <= 12) or not (mixed or v.spelled):
                    continue
                if body.isalpha() and (body in goal_text or body in agent_text):
                    continue  # a spelled word ("T R A I N") its facts contain
            if not _value_supported(v, known):
                out.append(
                    _ev(
                        turn,
                        f"{v.surface!r} ({v.key})",
                        "caller stated a value not among its facts or the agent's words",
                    )
                )
        for m in _EMAIL.finditer(text):
            if m.group(0).lower() not in goal_text and m.group(0).lower() not in agent_text:
                out.append(_ev(turn, m.group(0), "caller stated an email not among its facts"))
        if not placeholders:
            for m in _NAME_SAID.finditer(text):
                if m.group(1).lower() not in goal_text and m.group(1).lower() not in agent_text:
                    out.append(_ev(turn, m.group(0), "caller stated a name not among its facts"))
    return out


def _db_unresolved(ctx: ConversationContext) -> bool | None:
    if ctx.expected_db is None or ctx.final_db is None:
        return None
    from voxbench.scenarios.task_completion import check_task_completion

    return not check_task_completion(ctx.expected_db, ctx.final_db).success


def premature_ending(ctx: ConversationContext) -> list[dict[str, Any]]:
    """The caller ended while the agent was mid-task and asking it for something."""
    reason = (ctx.conversation_ended_reason or "").lower()
    if reason not in _END_BY_CALLER or ctx.is_agent_timeout_on_user_turn():
        return []
    if _db_unresolved(ctx) is False:
        return []
    agent = {t: strip_tags(x) for t, x in ctx.intended_assistant_turns.items() if x.strip()}
    if not agent:
        return []
    last_t = max(agent)
    last = agent[last_t]
    failed = any(c.response and response_failed(c.response) for c in ctx.tool_calls if c.turn_id >= last_t)
    caller = _caller_turns(ctx)
    caller_after = [x for t, x in caller.items() if t > last_t]
    asks = "?" in last[-200:] and not _WRAP_UP.search(last) and not _STALLED.search(last)
    answered = (
        bool(caller_after)
        and bool(_YES_NO_QUESTION.search(last))
        and bool(_ANSWERS_YES_NO.match(caller_after[-1]))
    )
    if asks and not failed and not answered and not agent_looping(agent, last_t, caller):
        said = caller_after[-1][:120] if caller_after else "(hung up)"
        return [
            _ev(
                last_t,
                f"agent asked {last[-120:]!r}; caller then: {said!r}",
                "caller ended the call while the agent was progressing",
            )
        ]
    return []


def _closing_question(text: str) -> str:
    return ((re.findall(r"[^.!?]*\?", text) or [""])[-1]).strip().lower()


_LACKS = re.compile(r"\b(don't|do not|doesn't) (have|know)\b|\bnot sure\b|\bno idea\b", re.I)


def agent_looping(agent: dict[int, str], last_t: int, caller: dict[int, str], repeats: int = 2) -> bool:
    """The agent is not progressing: its closing question is one it already asked at least
    ``repeats`` times (the caller answering in between), or one it asked before and the caller
    then said it does not have. EVA's caller is told to end a call that has "not been helpful
    for 5 consecutive turns (repeatedly misunderstands you ...)"; leaving it is the agent's
    failure, not a premature ending. (Asked again after the caller *gave* the value, once, is a
    legitimate re-ask after a mishearing.)"""
    q = _closing_question(agent[last_t])
    if len(q) < 12:
        return False
    same = [
        t
        for t in agent
        if t < last_t and SequenceMatcher(None, q, _closing_question(agent[t])).ratio() >= 0.8
    ]
    if len(same) >= repeats:
        return True
    for t in same:
        reply = next((caller[c] for c in sorted(caller) if c > t), "")
        if _LACKS.search(reply):
            return True
    return False


def escalation_violations(ctx: ConversationContext) -> list[dict[str, Any]]:
    rules = str((ctx.user_goal.get("decision_tree") or {}).get("escalation_behavior") or "")
    no_asking, decline = bool(_FORBIDS_ESCALATION.search(rules)), bool(_DECLINE_TRANSFER.search(rules))
    if not (no_asking or decline):
        return []
    out = []
    agent = {t: strip_tags(x) for t, x in ctx.intended_assistant_turns.items()}
    for t, text in _caller_turns(ctx).items():
        if (
            no_asking
            and _ESCALATE.search(text)
            and _ASKS_ESCALATION.search(text)
            and not re.search(r"\b(no|don't|do not|not)\b[^.]{0,30}" + _ESCALATE.pattern, text, re.I)
            and not _DECLINES.search(text)
        ):
            out.append(_ev(t, text[:160], "caller asked for escalation its instructions forbid"))
        # the agent's closing question offered the transfer (not a transfer mentioned in passing)
        offered = _closing_question(agent.get(t - 1, ""))
        if (
            decline
            and _ESCALATE.search(offered)
            and re.search(r"\btransfer\b", offered, re.I)
            and re.match(r"^\W*(yes|yeah|sure|okay|ok|please do|go ahead)\b", text, re.I)
        ):
            out.append(_ev(t, text[:160], "caller accepted a transfer its instructions say to decline"))
    return out


def duplicate_modifications(ctx: ConversationContext) -> list[dict[str, Any]]:
    kinds = tool_kinds(ctx.agent_tools)
    seen: dict[str, int] = {}
    callers = _caller_turns(ctx)
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
                    _ev(
                        c.turn_id,
                        f"{c.name} repeated with the same arguments",
                        "caller's repeated request caused a duplicate write",
                    )
                )
        seen.setdefault(key, c.turn_id)
    return out


def wrong_language(ctx: ConversationContext) -> list[dict[str, Any]]:
    if not ctx.language.startswith("en"):
        return []
    text = " ".join(_caller_turns(ctx).values())
    letters = [ch for ch in text if ch.isalpha()]
    if len(letters) >= 40 and sum(ord(ch) > 0x24F for ch in letters) / len(letters) > 0.5:
        return [_ev(0, text[:120], "caller spoke mostly outside the expected language's script")]
    return []


@offline_method(NAME, method="caller-rules", version=VERSION)
def user_behavioral_fidelity_offline(ctx: ConversationContext) -> MetricResult:
    """Caller statements outside its facts, forbidden escalation, premature hang-up, loops."""
    if not _caller_turns(ctx):
        return MetricResult.skip(NAME, "no caller text")
    found = {
        "invented_information": invented_information(ctx) if ctx.user_goal else [],
        "premature_ending": premature_ending(ctx),
        "decision_tree_violation": escalation_violations(ctx),
        "duplicate_modifications": duplicate_modifications(ctx),
        "wrong_language": wrong_language(ctx),
    }
    detected = [k for k, v in found.items() if v]
    score = 0.0 if detected else 1.0
    return MetricResult(
        name=NAME,
        score=score,
        normalized_score=score,
        details={
            "detected": detected,
            "evidence": [e for v in found.values() for e in v],
            "checked_goal": bool(ctx.user_goal),
        },
        params={"confidence": "unmeasured"},
    )
