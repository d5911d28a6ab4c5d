"""caller_act_selectivity: does the agent keep talking through "mm-hmm" and side speech?

A perturbation's caller behaviour (``caller_act`` events) includes backchannels ("mm-hmm",
"okay") and side speech (the caller talking to someone in the room) while the agent speaks.
A good agent does not yield to either; it should yield to a real barge-in. An agent *yielded*
to an act when a ``yield`` event on the agent channel (the agent fell silent after the caller's
onset, stamped from the audio) falls within ``window_s`` after the act started.
"""

from __future__ import annotations

import bisect
from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.eval.types import EvalConfig, MetricResult, metric, sub

NAME = "caller_act_selectivity"
DEFAULT_WINDOW_S = 2.0
NOT_ADDRESSED = ("backchannel", "side_speech")


def _yielded(yields: list[float], t: float, window_s: float) -> bool:
    i = bisect.bisect_left(yields, t)
    return i < len(yields) and yields[i] <= t + window_s


@metric(NAME, category="diagnostic", version="v0.1-vb1", exclude_from_pass_at_k=True)
def caller_act_selectivity(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """Share of backchannels / side speech during agent speech the agent did NOT yield to."""
    window = float(config.for_metric(NAME).get("window_s", DEFAULT_WINDOW_S))
    params = {"window_s": window}
    yields = sorted(t for t, ch in ctx.yields if ch == "agent")
    acts = [a for a in ctx.caller_acts if a.get("agent_speaking")]
    per_kind: dict[str, list[bool]] = {}
    rows: list[dict[str, Any]] = []
    for a in acts:
        y = _yielded(yields, float(a["t"]), window)
        per_kind.setdefault(str(a["kind"]), []).append(y)
        rows.append({"t": a["t"], "kind": a["kind"], "text": a.get("text", ""), "agent_yielded": y})

    def share_not(kind: str) -> float | None:
        v = per_kind.get(kind)
        return round(sum(not y for y in v) / len(v), 4) if v else None

    barge = per_kind.get("barge_in")
    subs = {
        "backchannel_selectivity": sub("backchannel_selectivity", share_not("backchannel")),
        "side_speech_selectivity": sub("side_speech_selectivity", share_not("side_speech")),
        "barge_in_yield_rate": sub(
            "barge_in_yield_rate", round(sum(barge) / len(barge), 4) if barge else None
        ),
    }
    eligible = [y for k in NOT_ADDRESSED for y in per_kind.get(k, [])]
    if not eligible:
        return MetricResult.skip(
            NAME,
            "no backchannel or side speech while the agent spoke",
            params=params,
            sub_metrics=subs,
            details={"acts": rows},
        )
    score = round(sum(not y for y in eligible) / len(eligible), 4)
    return MetricResult(
        name=NAME,
        score=score,
        normalized_score=score,
        params=params,
        details={"acts": rows, "eligible": len(eligible), "yielded": sum(eligible)},
        sub_metrics=subs,
    )
