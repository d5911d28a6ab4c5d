"""Faithfulness: actions the agent says it took, against the writes the record shows.

"I've cancelled your flight" tells the caller something happened; if no write tool ran (or every
write failed), the caller leaves believing a change that was never made: EVA's judge rates that
a major issue (1): a hallucinated action when nothing was attempted, a misrepresented result
when the write failed. Lenient on purpose: only the agent's own first-person claims ("I've
rebooked", not "your flight has been cancelled", which is often a status read from a tool), and
any successful write before the claim counts, since which write backs which verb is a judgement
the record cannot settle.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from voxbench.eval.offline._faith_rules import HALLUCINATION, MISREPRESENT, Finding
from voxbench.eval.offline._trace import Conversation, response_failed

_DONE = re.compile(
    r"\b(?:i(?:'ve| have)|we(?:'ve| have))\s+(?:now\s+|also\s+|just\s+|successfully\s+)*"
    r"(cancell?ed|rebooked|refunded|issued|updated|changed|booked|assigned|added|submitted|processed|"
    r"moved|switched|reset|created|scheduled|upgraded|applied|waived)\b",
    re.I,
)
_NOT_DONE = re.compile(r"\b(once|after|when|if|before)\b[^.?!]*$", re.I)


def _claims(text: str) -> Iterator[str]:
    """Sentences stating an action as done (not a question, not 'once I've ...')."""
    for sent in re.split(r"(?<=[.!?])\s+|\n+", text):
        m = _DONE.search(sent)
        if m and not sent.rstrip().endswith("?") and not _NOT_DONE.search(sent[: m.start()]):
            yield sent.strip()


def claimed_actions(conv: Conversation) -> Iterator[Finding]:
    """The first agent claim of a completed action with no successful write before it."""
    wrote_ok = wrote_failed = False
    for s in conv.steps:
        if s.kind == "tool_response" and conv.tool_kind(s.tool) == "write":
            if response_failed(s.response):
                wrote_failed = True
            else:
                wrote_ok = True
        elif s.kind == "assistant" and not wrote_ok:
            for claim in _claims(s.text):
                if wrote_failed:
                    yield Finding(
                        MISREPRESENT, 1, s.turn, claim[:200], "action reported done after the write failed"
                    )
                else:
                    yield Finding(
                        HALLUCINATION, 1, s.turn, claim[:200], "action reported done that no write made"
                    )
                return
