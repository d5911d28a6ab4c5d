"""When is a caller's hang-up the caller's fault? (the gate's `premature_ending`)

The validation gate discards a conversation only on evidence about the *caller*. A caller
that ends the call is blamed only when the agent was still making progress on the task and
had just asked the caller for something. It is not blamed, because the agent is then the one
who stopped the task, when:

* the agent reported the task done (a completion claim: "I've added a bag to your booking",
  "your flight is confirmed", "you're all set"), whether or not the database shows the write:
  a claim without the write is the agent's failure, scored as such;
* the agent closed with a wrap-up ("anything else?", "any other questions?");
* the agent stalled (an apology, an error, a refusal, a transfer), a tool failed;
* the agent looped (its closing question asked twice before, or asked again after the caller
  said it lacks the value);
* the agent started over: its closing question is the one it opened the call with, asked again
  after the caller answered it and the agent had gone on to ask something else (a reset: it
  lost what the caller told it);
* the agent stopped answering: the caller spoke, the agent said nothing for at least
  `SILENT_AGENT_S` (or, in a text trace, the caller spoke twice with no agent line between),
  or the caller checked whether the agent was still there;
* the caller's last line answers a yes/no question the agent asked, without abandoning.
"""

from __future__ import annotations

import itertools
import re
from difflib import SequenceMatcher
from typing import Any

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.offline._trace import infer_tool_kind, response_failed, tool_kinds
from voxbench.eval.offline.lang import alt

END_BY_CALLER = frozenset({"end_call", "goodbye", "user_hangup", "caller_hangup", "hangup", "user_ended"})
SILENT_AGENT_S = 10.0
"""A gap this long between two caller utterances with no agent speech: the agent went silent
(a live caller asks "are you still there?" after 25 s; a person pausing mid-line does not wait 10 s)."""


def _a(name: str) -> str:
    return alt("_caller_end", name)


# The words are data (``lang/<lang>.json``, ``phrases._caller_end``); the grammar is here.
_STALLED = re.compile(rf"\b({_a('stalled')})\b", re.I)
_TRANSFERS = re.compile(rf"\b({_a('transfers')})\b", re.I)
_SYMPATHY = re.compile(rf"\bsorry ({_a('sympathy')})\b", re.I)
_WRAP_UP = re.compile(rf"\b({_a('wrap_up')})\b", re.I)
_DONE_VERB = f"({_a('done_verb')})"
_COMPLETION = re.compile(
    rf"\b({_a('done_lead')})\s+(\w+\s+){{0,3}}{_DONE_VERB}\b"
    rf"|\b({_a('done_passive')})\s+(\w+\s+)?"
    rf"{_DONE_VERB}\b"
    rf"|{_a('done_said')}",
    re.I,
)
_NOT_DONE = re.compile(rf"\b({_a('not_done')})\b", re.I)
_YES_NO_QUESTION = re.compile(
    rf"(^|[.!?]\s+)({_a('auxiliary')})\s+"
    rf"({_a('aux_subject')})\b[^?]*\?\s*$",
    re.I,
)
_ANSWERS_YES_NO = re.compile(rf"^\W*({_a('answers_yes_no')})\b", re.I)
_ABANDONS = re.compile(rf"\b({_a('abandons')})\b", re.I)
_CHECKS_IN = re.compile(rf"\b({_a('checks_in')})\b", re.I)
_LACKS = re.compile(_a("lacks"), re.I)


def ev(turn: int, claim: str, rule: str) -> dict[str, Any]:
    return {"turn": turn, "claim": claim, "rule": rule}


def caller_turns(ctx: ConversationContext) -> dict[int, str]:
    src = ctx.intended_user_turns or ctx.transcribed_user_turns
    return {t: strip_tags(x) for t, x in sorted(src.items()) if x.strip()}


def _db_unresolved(ctx: ConversationContext) -> bool | None:
    """Whether the task database is not yet as expected; None when the database cannot tell:
    not recorded, or no write tool of the agent's ran. A database already as expected without
    a write is a task whose outcome is no change (or only an authentication record): a caller
    leaving at any point would "resolve" it."""
    if ctx.expected_db is None or ctx.final_db is None:
        return None
    kinds = tool_kinds(ctx.agent_tools)
    if not any(
        (kinds.get(c.name) or infer_tool_kind(c.name)) == "write"
        and not (c.response and response_failed(c.response))
        for c in ctx.tool_calls
    ):
        return None
    from voxbench.scenarios.task_completion import check_task_completion

    return not check_task_completion(ctx.expected_db, ctx.final_db).success


def closing_question(text: str) -> str:
    return ((re.findall(r"[^.!?]*\?", text) or [""])[-1]).strip().lower()


MIN_QUESTION = 12
"""A closing question shorter than this ("Okay?", "Hello?") says too little to tell it asked again."""
SAME_QUESTION = 0.8
"""Two questions at least this alike (difflib's ratio of their letters) are one asked again: a
word or two changed ("could you" for "can you", a name filled in) does not make a new one."""


def same_question(question: str, text: str) -> bool:
    """``text`` closes with ``question`` again (its closing question alike, :data:`SAME_QUESTION`):
    the one test of the looping and restart rules and of the gate's loop and restart faults."""
    return SequenceMatcher(None, question, closing_question(text)).ratio() >= SAME_QUESTION


def claims_completion(text: str) -> bool:
    """The agent says, in a sentence of its own, that something was done."""
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if _COMPLETION.search(sentence) and not (
            sentence.rstrip().endswith("?") or _NOT_DONE.search(sentence)
        ):
            return True
    return False


def offers_to_end(text: str) -> bool:
    """The agent's line hands the task off or closes it: a transfer, or a wrap-up."""
    return bool(_TRANSFERS.search(text) or _WRAP_UP.search(text))


def stalled(text: str) -> bool:
    """The agent's last line gives up on the task: a transfer, or a statement that it cannot,
    an error, an apology that is not sympathy ("sorry to hear that"), *not* followed by a
    question of its own that carries the task on ("I can't waive the fee. Shall I book the
    8:05 flight?" is still progressing; the question is the agent's next step)."""
    if _TRANSFERS.search(text):
        return True
    sentences = re.split(r"(?<=[.!?])\s+", text.strip())
    last_stall = max(
        (n for n, s in enumerate(sentences)
         if not s.rstrip().endswith("?") and _STALLED.search(s) and not _SYMPATHY.search(s)),
        default=None,
    )  # fmt: skip
    if last_stall is None:
        return False
    return not any(s.rstrip().endswith("?") for s in sentences[last_stall + 1 :])


def agent_looping(agent: dict[int, str], last_t: int, caller: dict[int, str], repeats: int = 2) -> bool:
    """The agent is not progressing: its closing question is one it already asked at least
    ``repeats`` times (the caller answering in between), or one it asked before and the caller
    then said it does not have. EVA's caller is told to end a call that has "not been helpful
    for 5 consecutive turns (repeatedly misunderstands you ...)"; leaving it is the agent's
    failure, not a premature ending. (Asked again after the caller *gave* the value, once, is a
    legitimate re-ask after a mishearing.)"""
    q = closing_question(agent[last_t])
    if len(q) < MIN_QUESTION:
        return False
    same = [t for t in agent if t < last_t and same_question(q, agent[t])]
    if len(same) >= repeats:
        return True
    for t in same:
        reply = next((caller[c] for c in sorted(caller) if c > t), "")
        if _LACKS.search(reply):
            return True
    return False


def agent_restarted(agent: dict[int, str], last_t: int, caller: dict[int, str], tool_turns: set[int]) -> bool:
    """The agent started the conversation over: its closing question is its opening line's
    ("How can I help you today?"), after the caller answered that opening and the agent went on
    with the task (it called a tool, or asked something else). Its next step is then the task's
    first, whatever the caller gave it since: not progress. Found live (airline 6.1.4): four
    failed lookups, a silence, the caller's "are you still there?", then "Hello! I'm here. How
    can I help you today?". Asked again with nothing done between (the caller's first words
    were a greeting, or were misheard), the opening is a re-ask, not a reset."""
    first_t = min(agent)
    q = closing_question(agent[first_t])
    if last_t == first_t or len(q) < MIN_QUESTION or not any(first_t < t < last_t for t in caller):
        return False
    between = [t for t in agent if first_t < t < last_t]
    went_on = any(
        t in tool_turns or (closing_question(agent[t]) and not same_question(q, agent[t])) for t in between
    )
    return went_on and same_question(q, agent[last_t])


def agent_went_silent(ctx: ConversationContext, last_t: int, caller_after: list[str]) -> str | None:
    """Why the agent looks unresponsive at the end, or None: a long gap between the caller's
    own utterances after the agent's last line, two caller lines in a row (text traces), or
    the caller checking whether the agent is still there."""
    for t, spans in ctx.audio_timestamps_user_turns.items():
        if t <= last_t:
            continue
        spans = sorted(spans)
        for (_, end), (start, _) in itertools.pairwise(spans):
            if start - end >= SILENT_AGENT_S:
                return f"the agent said nothing for {start - end:.0f} s while the caller waited"
    if not ctx.audio_timestamps_user_turns:
        tail = [e for e in ctx.conversation_trace if e.get("turn_id", 0) > last_t and e.get("role") == "user"]
        if len(tail) >= 2:
            return "the caller spoke twice with no agent reply between"
    for line in caller_after:
        if _CHECKS_IN.search(line):
            return f"the caller checked whether the agent was still there ({line[:80]!r})"
    return None


def _agent_turns(ctx: ConversationContext) -> dict[int, str]:
    src = ctx.intended_assistant_turns or ctx.transcribed_assistant_turns
    return {t: strip_tags(x) for t, x in src.items() if x.strip()}


def agent_stopped(ctx: ConversationContext) -> str | None:
    """Why the agent, not the caller, ended the task's progress, or None when it was still
    progressing (its last line asked the caller for something)."""
    agent = _agent_turns(ctx)
    if not agent:
        return "the agent never spoke"
    last_t = max(agent)
    last = agent[last_t]
    caller = caller_turns(ctx)
    caller_after = [x for t, x in caller.items() if t > last_t]
    silent = agent_went_silent(ctx, last_t, caller_after)
    reasons = [
        (silent is not None, silent or ""),
        (any(claims_completion(agent[t]) for t in sorted(agent)[-2:]), "the agent reported the task done"),
        (bool(_WRAP_UP.search(last)), "the agent closed with a wrap-up"),
        (stalled(last), "the agent apologised, could not help, or transferred"),
        (
            any(c.response and response_failed(c.response) for c in ctx.tool_calls if c.turn_id >= last_t),
            "a tool call of the agent's last turn failed",
        ),
        ("?" not in last[-200:], "the agent's last line asked nothing"),
        (agent_looping(agent, last_t, caller), "the agent was asking the same question again"),
        (
            agent_restarted(agent, last_t, caller, ctx.tool_turns()),
            "the agent started the conversation over",
        ),
        (
            bool(caller_after)
            and bool(_YES_NO_QUESTION.search(last))
            and bool(_ANSWERS_YES_NO.match(caller_after[-1]))
            and not _ABANDONS.search(caller_after[-1]),
            "the caller answered the agent's yes/no question",
        ),
    ]
    return next((why for hit, why in reasons if hit), None)


def premature_ending(ctx: ConversationContext) -> list[dict[str, Any]]:
    """The caller ended while the agent was mid-task and asking it for something."""
    reason = (ctx.conversation_ended_reason or "").lower()
    if reason not in END_BY_CALLER or ctx.is_agent_timeout_on_user_turn():
        return []
    if _db_unresolved(ctx) is False or agent_stopped(ctx) is not None:
        return []
    agent = _agent_turns(ctx)
    last_t = max(agent)
    caller_after = [x for t, x in caller_turns(ctx).items() if t > last_t]
    said = caller_after[-1][:120] if caller_after else "(hung up)"
    return [
        ev(
            last_t,
            f"agent asked {agent[last_t][-120:]!r}; caller then: {said!r}",
            "caller ended the call while the agent was progressing",
        )
    ]
