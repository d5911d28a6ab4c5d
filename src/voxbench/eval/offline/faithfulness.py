"""Offline faithfulness: EVA's five dimensions rated by deterministic checks over the record.

Each dimension starts at 3 and drops to the worst finding's rating (1 or 2); the overall
rating is the minimum, on the LLM judge's 1-3 scale (normalised 0 / 0.5 / 1). Findings are
the evidence: {turn, claim, rule} plus the dimension and its rating.

The checks cover what can be verified without a model, each grounded in the record:
tool-call values against the schema and the sources (`_faith_rules`, `_faith_params`: ids,
names, places and codes no caller statement, tool result or policy holds, placeholders, values
outside the schema's enum that the tool refused, impossible dates and times), writes against
the policy (confirmation, fee disclosure), what the agent says against what tools returned
(`_faith_claims`: amounts, codes and clock times no source holds, 'on time'
against a delay, policy statements with words the policy lacks, another brand, offered
capabilities no tool has, failed lookups not clarified, a record reported found that no lookup
returned), and actions claimed against writes made (`_faith_actions`: "I've cancelled", "I
submitted", "your request has been submitted" with no successful write before it). Subtler
issues (misapplied policy, a wrong choice between options, omitted caveats, a read-back the
policy asks for) are out of reach, so a 3 here means "no checkable issue found".
The agreement with EVA's human labels, overall and per dimension, on the dev and test halves
of the fixed split, is measured by `voxbench judges calibrate --judge offline` (docs/judges.md).
"""

from __future__ import annotations

from voxbench.eval.context import ConversationContext
from voxbench.eval.judges.prompts import FAITH_DIMS
from voxbench.eval.offline import offline_method
from voxbench.eval.offline._faith_actions import claimed_actions, claims_after_refusal
from voxbench.eval.offline._faith_claims import (
    contradictions,
    failed_lookup_not_clarified,
    found_without_lookup,
    invented_policies,
    missing_capabilities,
    unsupported_values,
    wrong_brand,
)
from voxbench.eval.offline._faith_params import ungrounded_values
from voxbench.eval.offline._faith_rules import Finding, fabricated_params, unconfirmed_writes
from voxbench.eval.offline._trace import read_conversation
from voxbench.eval.types import MetricResult, sub

NAME = "faithfulness"
VERSION = "0.6"


def find_issues(ctx: ConversationContext) -> list[Finding]:
    """Every finding of every rule, in trace order."""
    conv = read_conversation(ctx)
    found = [
        *fabricated_params(conv),
        *ungrounded_values(conv, ctx.agent_tools),
        *unconfirmed_writes(conv),
        *unsupported_values(conv),
        *contradictions(conv),
        *invented_policies(conv),
        *wrong_brand(conv, ctx.agent_role),
        *missing_capabilities(conv, ctx.agent_tools),
        *failed_lookup_not_clarified(conv),
        *found_without_lookup(conv),
        *claimed_actions(conv),
        *claims_after_refusal(conv),
    ]
    return sorted(found, key=lambda f: (f.turn, f.rating))


@offline_method(NAME, method="claims-rules", version=VERSION)
def faithfulness_offline(ctx: ConversationContext) -> MetricResult:
    """Checkable faithfulness issues (ungrounded parameters and claims, unconfirmed writes)."""
    if not any(e.get("role") == "assistant" for e in ctx.conversation_trace):
        return MetricResult.skip(NAME, "no assistant turns")
    found = find_issues(ctx)
    dims = {d: {"rating": 3, "flagged": False, "evidence": []} for d in FAITH_DIMS}
    for f in found:
        d = dims[f.dimension]
        d["rating"] = min(int(d["rating"]), f.rating)  # type: ignore[call-overload]
        d["flagged"] = True
        d["evidence"].append(f.evidence())  # type: ignore[attr-defined]
    overall = min(int(d["rating"]) for d in dims.values())  # type: ignore[call-overload]
    return MetricResult(
        name=NAME,
        score=float(overall),
        normalized_score=(overall - 1) / 2,
        details={"dimensions": dims, "evidence": [f.evidence() for f in found]},
        sub_metrics={f"{d}_rate": sub(f"{d}_rate", float(bool(v["flagged"]))) for d, v in dims.items()},
        params={
            # test-half kappa 0.72 on EVA's visible labels, but the rules were written reading
            # them, and held-back accuracy was 0.68 (v0.2): medium at best
            "confidence": "medium" if ctx.agent_instructions.strip() else "low",
            "has_policy": bool(ctx.agent_instructions.strip()),
        },
    )
