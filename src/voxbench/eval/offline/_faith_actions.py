"""Faithfulness: actions the agent says it took, against the writes the record shows.

"I've cancelled your flight", "I submitted the request", "your request has been submitted"
tell the caller something happened; if no write tool ran (or every write failed), the caller
leaves believing a change that was never made: EVA's judge rates that a major issue (1): a
hallucinated action when nothing was attempted, a misrepresented result when the write failed.
Lenient on purpose: any successful write before the claim counts, since which write backs which
verb is a judgement the record cannot settle; a claim about the caller's item in the passive
("your flight has been cancelled") counts only when no tool result so far holds the state's
word (a status the airline set, read from a lookup, claims no action); "is scheduled to depart"
is a plan, and "once / if / will / can ..." before the verb is no claim.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from voxbench.eval.offline._faith_rules import HALLUCINATION, MISREPRESENT, Finding
from voxbench.eval.offline._trace import Conversation, response_failed
from voxbench.eval.offline.lang import alt

_VERBS = alt("_faith_actions", "done_verb")  # 'cancelled', 'submitted': the action said as done
_DONE = re.compile(
    r"\b(?:i(?:'ve| have)?|we(?:'ve| have)?)\s+(?:now\s+|also\s+|just\s+|successfully\s+|already\s+)*"
    rf"({_VERBS})\b",
    re.I,
)
_PASSIVE = re.compile(
    r"\b(?:your)\b[^.?!,]{0,60}?\b(?:has|have|is|are)\s+(?:now\s+|also\s+|been\s+|successfully\s+)*"
    rf"(?:been\s+)?(?:successfully\s+)?({_VERBS}|marked complete)\b",
    re.I,
)
_NOT_DONE = re.compile(
    r"\b(once|after|when|if|before|until|unless|not|n't|never|will|can|could|would)\b[^.?!]*$", re.I
)


def _claims(text: str) -> Iterator[tuple[str, str, bool]]:
    """(sentence, verb, passive) of sentences stating an action as done (not a question, not
    'once I've ...', not a negation)."""
    for sent in re.split(r"(?<=[.!?])\s+|\n+", text):
        for pat, passive in ((_DONE, False), (_PASSIVE, True)):
            m = pat.search(sent)
            if (
                m
                and not sent.rstrip().endswith("?")
                and not _NOT_DONE.search(sent[: m.start(1)])
                and not re.match(r"\s+to\b", sent[m.end(1) :])  # "is scheduled to depart": a plan
            ):
                yield sent.strip(), m.group(1).lower(), passive
                break


def _state_reported(verb: str, tool_text: str) -> bool:
    """A tool result already holds the state's word ("status": "cancelled" on a flight the
    airline cancelled, "scheduled" on a booked flight): the sentence may relay it, so it is not
    taken as a claimed action (lenient: any word sharing the stem counts)."""
    return verb[:5] in tool_text


_FAILURE_TOLD = re.compile(rf"\b(?:{alt('_faith_actions', 'failure_told')})\b", re.I)
"""A failure told: 'I was unable to', 'it didn't go through', 'unfortunately'."""


def claims_after_refusal(conv: Conversation) -> Iterator[Finding]:
    """The agent's words right after a write the system refused (until the caller speaks
    again) report an action done and say nothing of a failure before or in that sentence, with
    no successful write since the refusal: the caller leaves believing a change the record shows was not made (EVA:
    "contradicting what a tool response returned"). Only the first such turn."""
    refused: str | None = None
    for s in conv.steps:
        if s.kind == "tool_response" and conv.tool_kind(s.tool) == "write":
            refused = s.tool if response_failed(s.response) else None
        elif s.kind == "user":
            refused = None
        elif s.kind == "assistant" and refused:
            for claim, _verb, _passive in _claims(s.text):
                if _FAILURE_TOLD.search(s.text[: s.text.find(claim) + len(claim)]):
                    break  # the failure told first (or in the claim itself)
                yield Finding(MISREPRESENT, 1, s.turn, f"{claim[:160]} (after {refused} failed)",
                              "action reported done after the write failed")  # fmt: skip
                return


def claimed_actions(conv: Conversation) -> Iterator[Finding]:
    """The first agent claim of a completed action with no successful write before it. Turns
    right after a refused write (until the caller speaks) are :func:`claims_after_refusal`'s."""
    wrote_ok = wrote_failed = refused_now = False
    tool_text: list[str] = []
    for s in conv.steps:
        if s.kind == "tool_response":
            tool_text.append(json.dumps(s.response).lower())
            if conv.tool_kind(s.tool) == "write":
                refused_now = response_failed(s.response)
                wrote_failed |= refused_now
                wrote_ok |= not refused_now
        elif s.kind == "user":
            refused_now = False
        elif s.kind == "assistant" and not wrote_ok and not refused_now:
            for claim, verb, passive in _claims(s.text):
                if passive and _state_reported(verb, " ".join(tool_text)):
                    continue
                if wrote_failed:
                    yield Finding(
                        MISREPRESENT, 1, s.turn, claim[:200], "action reported done after the write failed"
                    )
                else:
                    yield Finding(
                        HALLUCINATION, 1, s.turn, claim[:200], "action reported done that no write made"
                    )
                return
