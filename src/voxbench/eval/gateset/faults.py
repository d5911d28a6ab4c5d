"""One fault injected into a reference conversation, per kind, for any scenario.

Every injection is defined on the conversation's structure (caller lines, agent questions,
the agent's write tool calls, the caller's facts in `information_required`), never on a
scenario's words, and draws its place and wording from a seeded `random.Random`. An
injection that does not apply to a scenario (no write call to drop, escalation allowed by
its goal) returns None and is counted as not applicable.

The wordings are the tables of each kind's module (`caller_faults`, `pauses`, `agent_faults`,
`asked`, `offered`, `present`; data, shared by every scenario). They were written with
the validator's rules known, so the measurement says how the rules do on *these* phrasings of
each fault, in conversations the rules were not written on; a live caller's phrasings vary more.
"""

from __future__ import annotations

import re

from voxbench.eval.gateset._steps import Injector, Party
from voxbench.eval.gateset.agent_faults import AGENT_FAULTS
from voxbench.eval.gateset.asked import ASKED_FAULTS
from voxbench.eval.gateset.caller_faults import CALLER_FAULTS
from voxbench.eval.gateset.conversation import RefConversation
from voxbench.eval.gateset.offered import OFFERED_FAULTS
from voxbench.eval.gateset.pauses import PAUSE_FAULTS
from voxbench.eval.gateset.present import PRESENT_FAULTS

_FORBIDS_ESCALATION = re.compile(
    r"\bdo not ask\b[^.]*\b(supervisor|live agent|manager)|\bnever speak to a (live agent|person|human)", re.I
)


def reference_fault(conv: RefConversation) -> str | None:
    """Why a reference conversation is not clean (None when it is): its caller broke its own
    instructions where the structure shows it. The only such class: the call ends transferred
    to a person although the goal forbids escalation (the caller asked for the transfer, or
    accepted one it had to decline). Such a scenario gives no records: its "clean" record
    would carry a caller fault, and so would every agent-fault variant of it."""
    rules = str((conv.goal.get("decision_tree") or {}).get("escalation_behavior") or "")
    if conv.end_reason == "transfer" and _FORBIDS_ESCALATION.search(rules):
        return "reference_caller_transferred_against_goal"
    return None


FAULTS: dict[str, tuple[Party, Injector]] = {
    **CALLER_FAULTS,
    **PAUSE_FAULTS,
    **ASKED_FAULTS,
    **OFFERED_FAULTS,
    **PRESENT_FAULTS,
    **AGENT_FAULTS,
}
