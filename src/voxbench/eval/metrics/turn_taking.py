"""turn_taking: deterministic timing score per turn, EVA v0.2 (reference §3.3), exactly.

Constants, branches and sub-metrics follow EVA's `experience/turn_taking.py`:
latency curve (tool-aware), agent-interrupt min(overlap, count, post-latency) capped at
0.5, user-interrupt yield score, dual min, fallback turns 0, missed turn forces 0. Ours: turns
a harness pause decided are not scored (``voxbench.eval.harness_pauses``).
"""

from __future__ import annotations

from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.eval.exact_mean import mean
from voxbench.eval.harness_pauses import harness_paused_turns
from voxbench.eval.types import EvalConfig, MetricResult, metric, sub

LATENCY_HARD_EARLY_MS = -500.0
LATENCY_SWEET_SPOT_LOW_MS = 500.0
LATENCY_SWEET_SPOT_HIGH_MS = 2000.0
LATENCY_HARD_LATE_MS = 3500.0
LATENCY_SWEET_SPOT_HIGH_MS_TOOL = 3000.0
LATENCY_HARD_LATE_MS_TOOL = 5000.0
AGENT_INTERRUPT_MAX_SCORE = 0.5
OVERLAP_HARD_MS = 2000.0
INTERRUPT_COUNT_HARD = 3
OVERLAP_MIN_MS = 1.0  # an assistant segment "overlaps" when it shares more than 1 ms
YIELD_HARD_MS = 2000.0
EARLY_THRESHOLD_MS = 200.0
LATE_THRESHOLD_MS = 2750.0
LATE_THRESHOLD_MS_TOOL = 4000.0
PASS_THRESHOLD = 0.8

Seg = tuple[float, float]


def latency_score(latency_ms: float, has_tool_call: bool = False) -> float:
    high = LATENCY_SWEET_SPOT_HIGH_MS_TOOL if has_tool_call else LATENCY_SWEET_SPOT_HIGH_MS
    late = LATENCY_HARD_LATE_MS_TOOL if has_tool_call else LATENCY_HARD_LATE_MS
    if latency_ms <= LATENCY_HARD_EARLY_MS or latency_ms >= late:
        return 0.0
    if latency_ms < LATENCY_SWEET_SPOT_LOW_MS:
        return (latency_ms - LATENCY_HARD_EARLY_MS) / (LATENCY_SWEET_SPOT_LOW_MS - LATENCY_HARD_EARLY_MS)
    if latency_ms <= high:
        return 1.0
    return (late - latency_ms) / (late - high)


def _overlap(a: Seg, b: Seg) -> float:
    return max(0.0, min(a[1], b[1]) - max(a[0], b[0]))


def agent_interrupt_evidence(user: list[Seg], asst: list[Seg], has_tool_call: bool) -> dict[str, Any]:
    overlap_ms = sum(_overlap(u, a) for u in user for a in asst) * 1000.0
    overlap_score = max(0.0, AGENT_INTERRUPT_MAX_SCORE * (1 - overlap_ms / OVERLAP_HARD_MS))
    n = sum(1 for a in asst if any(_overlap(u, a) * 1000.0 > OVERLAP_MIN_MS for u in user))
    count_score = (
        max(0.0, AGENT_INTERRUPT_MAX_SCORE * (1 - (n - 1) / (INTERRUPT_COUNT_HARD - 1))) if n >= 1 else None
    )
    user_end = max(e for _, e in user)
    spans = any(s <= user_end < e for s, e in asst)
    later = sorted(s for s, _ in asst if s > user_end)
    post_ms = (later[0] - user_end) * 1000.0 if later and not spans else None
    post_score = latency_score(post_ms, has_tool_call) if post_ms is not None else None
    terms = [x for x in (overlap_score, count_score, post_score) if x is not None]
    return {
        "overlap_ms": round(overlap_ms, 1),
        "overlap_score": round(overlap_score, 4),
        "n_interrupt_segments": n,
        "interrupt_count_score": None if count_score is None else round(count_score, 4),
        "post_interrupt_latency_ms": None if post_ms is None else round(post_ms, 1),
        "post_interrupt_latency_score": None if post_score is None else round(post_score, 4),
        "score": min(terms),
    }


def yield_evidence(prev_asst: list[Seg], user: list[Seg]) -> dict[str, Any]:
    if not prev_asst or not user:
        return {"yield_ms": None, "yield_score": None, "score": None}
    yield_ms = max(0.0, max(e for _, e in prev_asst) - min(s for s, _ in user)) * 1000.0
    score = max(0.0, 1 - yield_ms / YIELD_HARD_MS)
    return {"yield_ms": round(yield_ms, 1), "yield_score": round(score, 4), "score": score}


def _pct(vals: list[float], p: float) -> float:
    s = sorted(vals)
    return s[min(len(s) - 1, int(p * len(s)))]


def _m(vals: list[float]) -> float | None:
    return round(mean(vals), 4) if vals else None


def _reasoning_tokens(ctx: ConversationContext) -> MetricResult:
    """Mean reasoning tokens over the agent responses that reported them; explicitly
    unrecorded (skipped, never 0) when none did, as with non-reasoning models."""
    name = "mean_reasoning_tokens"
    counts = {
        "responses_with_usage": len(ctx.output_tokens),
        "responses_with_reasoning": len(ctx.reasoning_tokens),
    }
    if not ctx.reasoning_tokens:
        return MetricResult.skip(name, "reasoning tokens not recorded", details=counts)
    res = sub(name, _m([float(x) for x in ctx.reasoning_tokens]), False)
    res.details = counts
    return res


def _interrupt_score(
    ctx: ConversationContext,
    t: int,
    tool: bool,
    lat_ms: float,
    ev: dict[str, Any],
    agent_ev: list[dict[str, Any]],
    yield_ev: list[dict[str, Any]],
) -> tuple[float, str]:
    """(score, reason) of one evaluable turn, EVA's branches: the agent interrupting (with the
    caller interrupting too: the dual min), the caller interrupting (its yield), else latency.
    The evidence goes into `ev`, each interruption's into `agent_ev` / `yield_ev`."""
    assts = ctx.audio_timestamps_assistant_turns
    u, a = ctx.audio_timestamps_user_turns[t], assts[t]
    a_int, u_int = set(ctx.assistant_interrupted_turns), set(ctx.user_interrupted_turns)
    if t in a_int:
        ai = agent_interrupt_evidence(u, a, tool)
        agent_ev.append(ai)
        ev.update({k: v for k, v in ai.items() if k != "score"})
        score, reason = ai["score"], "agent_interrupt"
        if t in u_int:
            yi = yield_evidence(assts.get(t - 1, []), u)
            yield_ev.append(yi)
            ev.update({k: v for k, v in yi.items() if k != "score"})
            if yi["score"] is not None:
                score = min(score, yi["score"])
            reason = "dual_interrupt"
    elif t in u_int:
        yi = yield_evidence(assts.get(t - 1, []), u)
        yield_ev.append(yi)
        ev.update({k: v for k, v in yi.items() if k != "score"})
        if yi["score"] is None:  # no previous agent audio to yield: fall back to latency
            score, reason = latency_score(lat_ms, tool), "latency"
            ev.update({"latency_ms": round(lat_ms, 1), "latency_score": round(score, 4)})
        else:
            score, reason = yi["score"], "user_interrupt"
    else:
        score, reason = latency_score(lat_ms, tool), "latency"
        ev.update({"latency_ms": round(lat_ms, 1), "latency_score": round(score, 4)})
    return score, reason


def _latency_subs(latencies: list[tuple[float, bool]]) -> dict[str, MetricResult]:
    """Latency figures over the scored turns: mean, p50, p90, on time, early and late."""
    lat_vals = [x for x, _ in latencies]
    early = sum(1 for x, _ in latencies if x < EARLY_THRESHOLD_MS)
    late = sum(1 for x, tl in latencies if x >= (LATE_THRESHOLD_MS_TOOL if tl else LATE_THRESHOLD_MS))
    n_lat = len(latencies)
    return {
        "mean_latency_ms": sub("mean_latency_ms", round(mean(lat_vals), 1) if lat_vals else None, False),
        "p50_latency_ms": sub("p50_latency_ms", round(_pct(lat_vals, 0.5), 1) if lat_vals else None, False),
        "p90_latency_ms": sub("p90_latency_ms", round(_pct(lat_vals, 0.9), 1) if lat_vals else None, False),
        "on_time_rate": sub("on_time_rate", round((n_lat - early - late) / n_lat, 4) if n_lat else None),
        "early_rate": sub("early_rate", round(early / n_lat, 4) if n_lat else None),
        "late_rate": sub("late_rate", round(late / n_lat, 4) if n_lat else None),
    }


def _agent_interruption_subs(agent_ev: list[dict[str, Any]], n_eval: int) -> dict[str, MetricResult]:
    """The agent's interruptions: rate, count, overlap, and its latency after them."""
    return {
        "agent_interruption.rate": sub(
            "agent_interruption.rate", round(len(agent_ev) / n_eval, 4) if n_eval else None
        ),
        "agent_interruption.num_interruptions": sub(
            "agent_interruption.num_interruptions",
            sum(e["n_interrupt_segments"] for e in agent_ev) if agent_ev else None,
            False,
        ),
        "agent_interruption.mean_overlap_ms": sub(
            "agent_interruption.mean_overlap_ms", _m([e["overlap_ms"] for e in agent_ev]), False
        ),
        "agent_interruption.mean_overlap_score": sub(
            "agent_interruption.mean_overlap_score", _m([e["overlap_score"] for e in agent_ev])
        ),
        "agent_interruption.mean_count_score": sub(
            "agent_interruption.mean_count_score",
            _m([e["interrupt_count_score"] for e in agent_ev if e["interrupt_count_score"] is not None]),
        ),
        "agent_interruption.mean_post_interrupt_latency_ms": sub(
            "agent_interruption.mean_post_interrupt_latency_ms",
            _m(
                [
                    e["post_interrupt_latency_ms"]
                    for e in agent_ev
                    if e["post_interrupt_latency_ms"] is not None
                ]
            ),
            False,
        ),
        "agent_interruption.mean_post_interrupt_latency_score": sub(
            "agent_interruption.mean_post_interrupt_latency_score",
            _m(
                [
                    e["post_interrupt_latency_score"]
                    for e in agent_ev
                    if e["post_interrupt_latency_score"] is not None
                ]
            ),
        ),
    }


def _user_interruption_subs(yield_ev: list[dict[str, Any]], n_eval: int) -> dict[str, MetricResult]:
    """The caller's interruptions: rate, and how soon the agent yielded."""
    return {
        "user_interruption.rate": sub(
            "user_interruption.rate", round(len(yield_ev) / n_eval, 4) if n_eval else None
        ),
        "user_interruption.mean_yield_ms": sub(
            "user_interruption.mean_yield_ms",
            _m([e["yield_ms"] for e in yield_ev if e["yield_ms"] is not None]),
            False,
        ),
        "user_interruption.mean_yield_score": sub(
            "user_interruption.mean_yield_score",
            _m([e["yield_score"] for e in yield_ev if e["yield_score"] is not None]),
        ),
    }


@metric("turn_taking", category="experience", version="v0.2", pass_threshold=PASS_THRESHOLD)
def turn_taking(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """Timing of every exchange: latency sweet spot, interruptions, yields (EVA §3.3)."""
    users, assts = ctx.audio_timestamps_user_turns, ctx.audio_timestamps_assistant_turns
    tool_turns = ctx.tool_turns()
    fallback = set(ctx.fallback_turn_ids)
    paused = harness_paused_turns(ctx)
    scores: dict[int, float] = {}
    reasons: dict[int, str] = {}
    evidence: dict[int, dict[str, Any]] = {}
    latencies: list[tuple[float, bool]] = []
    agent_ev: list[dict[str, Any]] = []
    yield_ev: list[dict[str, Any]] = []
    evaluable = sorted(t for t in users if t != 0 and users.get(t) and assts.get(t))
    for t in sorted(set(evaluable) | {f for f in fallback if f != 0}):
        if t in paused and t not in fallback:
            continue  # the harness's timing, not the agent's: listed in details, not scored
        tool = t in tool_turns
        if t in fallback:
            scores[t], reasons[t] = 0.0, "turn_end_fallback"
            evidence[t] = {"has_tool_call": tool}
            continue
        u, a = users[t], assts[t]
        lat_ms = (min(s for s, _ in a) - max(e for _, e in u)) * 1000.0
        latencies.append((lat_ms, tool))
        ev: dict[str, Any] = {"has_tool_call": tool}
        score, reason = _interrupt_score(ctx, t, tool, lat_ms, ev, agent_ev, yield_ev)
        scores[t], reasons[t], evidence[t] = round(score, 4), reason, ev
    missed = ctx.is_agent_timeout_on_user_turn()
    conv = round(mean(scores.values()), 4) if scores else 0.0
    if missed:
        conv = 0.0
    n_eval = len(scores)
    n_asst_turns = len(assts)
    subs = {
        **_latency_subs(latencies),
        **_agent_interruption_subs(agent_ev, n_eval),
        **_user_interruption_subs(yield_ev, n_eval),
        "fallback_nudge.rate": sub(
            "fallback_nudge.rate", round(len(fallback) / n_asst_turns, 4) if n_asst_turns else None
        ),
        "fallback_nudge.count": sub("fallback_nudge.count", float(len(fallback)), False),
        "pretoolspeech_rate": sub("pretoolspeech_rate", ctx.pretool_speech_rate),
        "mean_output_tokens": sub("mean_output_tokens", _m([float(x) for x in ctx.output_tokens]), False),
        "mean_reasoning_tokens": _reasoning_tokens(ctx),
    }
    return MetricResult(
        name="turn_taking",
        score=conv,
        normalized_score=conv,
        details={
            "per_turn_score": scores,
            "per_turn_reason": reasons,
            "per_turn_evidence": evidence,
            "num_turns": ctx.num_turns,
            "num_evaluated": n_eval,
            "missed_turn": missed,
            **({"harness_pause_turns": paused} if paused else {}),
        },
        params={"source": "audio_timestamps", "pass_threshold": PASS_THRESHOLD},
        sub_metrics=subs,
    )
