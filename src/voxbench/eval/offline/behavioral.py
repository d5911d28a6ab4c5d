"""Offline user_behavioral_fidelity: did the simulated caller stay inside its instructions?

Same 0/1 scale as the LLM judge (1 = the caller behaved, 0 = it corrupted the test), so
the validation gate keeps EVA's threshold of 1.0. A conversation is rated 0 only on
evidence about the *caller*: whatever the agent did wrong (a completion claimed without the
write, a wrong write, a refusal, a loop, a silence, a transfer) is the agent's score, and a
caller that leaves such an agent is valid. Deterministic checks over the record, one module
per family:

* `_caller_invented`: `invented_information` (a value the caller states that neither its facts,
  nor the scenario's current date and time (`_caller_present`), nor the agent gave it); `_caller_facts`: `missing_information` (a fact it holds, withheld when
  asked; with `_caller_synonyms` and `_caller_offered`);
* `_caller_end`: `premature_ending` (the caller hung up while the agent was progressing and
  had asked it for something, the task unresolved; see that module for what counts as the
  agent having stopped);
* `_caller_requests`: `extra_modifications` (a further request outside the goal);
* `_caller_scope`: `decision_tree_violation` (forbidden escalation), `duplicate_modifications`,
  `wrong_language` (a caller line in another language).

Judged on what the caller *meant* to say (intended text; the STT of it otherwise), so
recognition errors are not blamed on the caller. EVA ships no human labels for this metric;
`voxbench judges calibrate-gate` measures it on a labelled set of injected faults
(docs/judges.md, "The validation gate").
"""

from __future__ import annotations

from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.eval.offline import offline_method
from voxbench.eval.offline._caller_end import agent_looping, caller_turns, premature_ending
from voxbench.eval.offline._caller_facts import missing_information
from voxbench.eval.offline._caller_invented import invented_information
from voxbench.eval.offline._caller_requests import extra_requests
from voxbench.eval.offline._caller_scope import duplicate_modifications, escalation_violations, wrong_language
from voxbench.eval.types import MetricResult

NAME = "user_behavioral_fidelity"
VERSION = "1.2"
__all__ = ["agent_looping", "caller_findings", "premature_ending", "user_behavioral_fidelity_offline"]


def caller_findings(ctx: ConversationContext) -> dict[str, list[dict[str, Any]]]:
    """Each validator's evidence (``ev``: turn, claim, rule) by kind; the caller check reads it
    too, on the reference caller's own turns (``voxbench.bench.ref_goal``)."""
    return {
        "invented_information": invented_information(ctx) if ctx.user_goal else [],
        "missing_information": missing_information(ctx) if ctx.user_goal else [],
        "premature_ending": premature_ending(ctx),
        "extra_modifications": extra_requests(ctx) if ctx.user_goal else [],
        "decision_tree_violation": escalation_violations(ctx),
        "duplicate_modifications": duplicate_modifications(ctx),
        "wrong_language": wrong_language(ctx),
    }


@offline_method(NAME, method="caller-rules", version=VERSION)
def user_behavioral_fidelity_offline(ctx: ConversationContext) -> MetricResult:
    """Caller facts invented or withheld, requests outside the goal, forbidden escalation,
    premature hang-up, duplicate writes, wrong language."""
    if not caller_turns(ctx):
        return MetricResult.skip(NAME, "no caller text")
    found = caller_findings(ctx)
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
        params={"confidence": "measured on injected faults (calibrate-gate)"},
    )
