"""Text-judge metrics: faithfulness, conciseness, conversation_progression, speakability,
transcription_accuracy_key_entities.

Who rates is `EvalConfig.text_judge_mode()`: the LLM judge when one is configured, else the
offline method registered for the metric (`voxbench.eval.offline`, same scale, its evidence in
details and `params.method = "offline:<name>"`); with neither (or mode `none`) an explicit
"unscored" skip, never 0."""

from __future__ import annotations

import json
from statistics import mean
from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.eval.judges import Judge, parse_json_list, parse_json_object
from voxbench.eval.judges import prompts as P
from voxbench.eval.judges.prompts import CONCISE_MODES, FAITH_DIMS, PROG_DIMS  # the schema's lists
from voxbench.eval.offline import rate_offline
from voxbench.eval.types import EvalConfig, MetricResult, metric, prompt_hash, sub


def norm(rating: float, lo: float, hi: float) -> float:
    """(r - lo) / (hi - lo); a one-point scale (lo == hi) is 1.0, as in EVA."""
    return 1.0 if hi == lo else (rating - lo) / (hi - lo)


def judge_or_offline(name: str, ctx: ConversationContext, config: EvalConfig) -> Judge | MetricResult:
    """The LLM judge to ask, or the finished result: the offline rating (mode `offline`) or an
    "unscored" skip (mode `none`, an `llm` mode without a judge, or no offline method)."""
    mode = config.text_judge_mode()
    if mode == "llm":
        if config.judge is not None:
            return config.judge
        return MetricResult.unscored(name, "no judge configured")
    if mode == "offline":
        res = rate_offline(name, ctx)
        return res if res is not None else MetricResult.unscored(name, "no offline method for this metric")
    return MetricResult.unscored(name, "judge metrics disabled (judge mode none)")


def _meta(name: str, judge: Judge, template: str, usage: Any = None) -> dict[str, Any]:
    return {"judge_model": judge.model, "prompt_hash": prompt_hash(P.render(template))}


def _valid_rating(r: Any, allowed: tuple[int, ...]) -> int | None:
    return r if isinstance(r, int) and not isinstance(r, bool) and r in allowed else None


def _dims(raw: dict[str, Any] | None, dims: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    d = (raw or {}).get("dimensions", raw or {})
    return {k: v for k, v in d.items() if k in dims and isinstance(v, dict)} if isinstance(d, dict) else {}


@metric("faithfulness", category="accuracy", version="v0.3-vb2", needs_judge=True)
def faithfulness(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """Five dimensions, overall = min rating on 1-3, normalised 0/0.5/1."""
    j = judge_or_offline("faithfulness", ctx, config)
    if isinstance(j, MetricResult):
        return j
    user = (
        f"Agent role: {ctx.agent_role}\nPolicy:\n{ctx.agent_instructions}\n\nTools:\n"
        f"{json.dumps(ctx.agent_tools, ensure_ascii=False)[:20000]}\n\nCurrent date/time: "
        f"{ctx.current_date_time}\nPipeline: {ctx.pipeline_type}\n\nConversation:\n"
        f"{P.format_trace(ctx.conversation_trace)}"
    )
    reply = j.complete(P.render(P.FAITHFULNESS), user)
    dims = _dims(parse_json_object(reply.text, "dimensions"), FAITH_DIMS)
    meta = _meta("faithfulness", j, P.FAITHFULNESS)
    ratings = [r for v in dims.values() if (r := _valid_rating(v.get("rating"), (1, 2, 3))) is not None]
    if not ratings:
        return MetricResult.fail(
            "faithfulness", "judge reply had no valid ratings", details={"raw": reply.text[:2000]}, **meta
        )
    overall = min(ratings)
    return MetricResult(
        name="faithfulness",
        score=float(overall),
        normalized_score=norm(overall, 1, 3),
        details={"dimensions": dims, "missing_dimensions": [d for d in FAITH_DIMS if d not in dims]},
        sub_metrics={f"{d}_rate": sub(f"{d}_rate", float(bool(dims[d].get("flagged")))) for d in dims},
        **meta,
    )


@metric("conversation_progression", category="experience", version="v0.2-vb2", needs_judge=True)
def conversation_progression(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """3 if nothing flagged; 1 if any dimension is 1 or >= 3 flagged; else 2."""
    j = judge_or_offline("conversation_progression", ctx, config)
    if isinstance(j, MetricResult):
        return j
    reply = j.complete(P.render(P.PROGRESSION), "Conversation:\n" + P.format_trace(ctx.conversation_trace))
    dims = _dims(parse_json_object(reply.text, "dimensions"), PROG_DIMS)
    meta = _meta("conversation_progression", j, P.PROGRESSION)
    if not dims:
        # EVA: an invalid whole-conversation rating defaults to the scale minimum; we say so
        return MetricResult(
            name="conversation_progression",
            score=1.0,
            normalized_score=0.0,
            details={"invalid_judge_output": True, "raw": reply.text[:2000]},
            **meta,
        )
    flagged = [d for d, v in dims.items() if v.get("flagged")]
    any_one = any(_valid_rating(v.get("rating"), (1, 2, 3)) == 1 for v in dims.values())
    overall = 3 if not flagged and not any_one else 1 if any_one or len(flagged) >= 3 else 2
    return MetricResult(
        name="conversation_progression",
        score=float(overall),
        normalized_score=norm(overall, 1, 3),
        details={"dimensions": dims, "flagged": flagged},
        sub_metrics={f"{d}_rate": sub(f"{d}_rate", float(d in flagged)) for d in dims},
        **meta,
    )


def _per_turn(items: list[dict[str, Any]] | None, expected: set[int]) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for it in items or []:
        tid = it.get("turn_id")
        try:
            tid = int(tid)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
        if tid in expected:  # no positional fallback
            out[tid] = it
    return out


@metric("conciseness", category="experience", version="v0.1-vb2", needs_judge=True)
def conciseness(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """Per-turn 1-3 rating of listening load; mean of normalised ratings."""
    j = judge_or_offline("conciseness", ctx, config)
    if isinstance(j, MetricResult):
        return j
    turns = sorted({e["turn_id"] for e in ctx.conversation_trace if e.get("role") == "assistant"})
    if not turns:
        return MetricResult.skip("conciseness", "no assistant turns")
    reply = j.complete(
        P.render(P.CONCISENESS),
        f"Turn ids to rate: {turns}\n\n" + P.format_trace(ctx.conversation_trace),
    )
    per = _per_turn(parse_json_list(reply.text), set(turns))
    meta = _meta("conciseness", j, P.CONCISENESS)
    ratings: dict[int, int] = {}
    modes: dict[int, list[str]] = {}
    for t, it in per.items():
        r = _valid_rating(it.get("rating"), (1, 2, 3))
        if r is None:
            continue
        ratings[t] = r
        modes[t] = [] if r == 3 else [m for m in it.get("failure_modes") or [] if m in CONCISE_MODES]
    if not ratings:
        return MetricResult.fail(
            "conciseness", "judge rated no turn", details={"raw": reply.text[:2000]}, **meta
        )
    n = len(ratings)
    return MetricResult(
        name="conciseness",
        score=round(mean(ratings.values()), 3),
        normalized_score=round(mean(norm(r, 1, 3) for r in ratings.values()), 3),
        details={
            "per_turn_rating": ratings,
            "per_turn_failure_modes": modes,
            "num_turns": len(turns),
            "num_evaluated": n,
        },
        sub_metrics={
            f"{m}_rate": sub(f"{m}_rate", round(sum(m in v for v in modes.values()) / n, 4))
            for m in CONCISE_MODES
        },
        **meta,
    )


@metric(
    "speakability", category="diagnostic", version="v0.2-vb2", needs_judge=True, exclude_from_pass_at_k=True
)
def speakability(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """Share of agent turns whose TTS text reads naturally aloud (cascade / hybrid only)."""
    if ctx.pipeline_type == "s2s":
        return MetricResult.skip("speakability", "speech-to-speech agent has no TTS text")
    j = judge_or_offline("speakability", ctx, config)
    if isinstance(j, MetricResult):
        return j
    turns = ctx.intended_assistant_turns
    if not turns:
        return MetricResult.skip("speakability", "no intended assistant text")
    body = "\n\n".join(f"[Turn {t}]\n{x}" for t, x in turns.items())
    reply = j.complete(P.render(P.SPEAKABILITY), body)
    per = _per_turn(parse_json_list(reply.text), set(turns))
    meta = _meta("speakability", j, P.SPEAKABILITY)
    ratings = {t: r for t, it in per.items() if (r := _valid_rating(it.get("rating"), (0, 1))) is not None}
    if not ratings:
        return MetricResult.fail("speakability", "judge rated no turn", **meta)
    s = round(mean(ratings.values()), 3)
    return MetricResult(
        name="speakability",
        score=s,
        normalized_score=s,
        details={"per_turn_rating": ratings, "num_turns": len(turns), "num_evaluated": len(ratings)},
        **meta,
    )


@metric(
    "transcription_accuracy_key_entities",
    category="diagnostic",
    version="v0.4-vb2",
    needs_judge=True,
    exclude_from_pass_at_k=True,
)
def transcription_accuracy_key_entities(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """Per caller turn: correct / judged key entities in the agent's STT; mean over turns."""
    name = "transcription_accuracy_key_entities"
    j = judge_or_offline(name, ctx, config)
    if isinstance(j, MetricResult):
        return j
    pairs = {
        t: (ctx.intended_user_turns[t], ctx.transcribed_user_turns.get(t, ""))
        for t in ctx.intended_user_turns
    }
    if not pairs or not ctx.transcribed_user_turns:
        return MetricResult.skip(name, "needs intended and transcribed caller text")
    body = "\n\n".join(f"[Turn {t}]\nExpected: {e}\nTranscribed: {h}" for t, (e, h) in pairs.items())
    reply = j.complete(P.render(P.KEY_ENTITIES), body)
    per = _per_turn(parse_json_list(reply.text), set(pairs))
    meta = _meta(name, j, P.KEY_ENTITIES)
    turn_scores: dict[int, float] = {}
    by_type: dict[str, list[float]] = {}
    per_turn_entities: dict[int, list[dict[str, Any]]] = {}
    for t, it in per.items():
        per_turn_entities[t] = [e for e in it.get("entities") or [] if isinstance(e, dict)]
        ents = [e for e in per_turn_entities[t] if not e.get("skipped")]
        if not ents:
            turn_scores[t] = -1.0
            continue
        turn_scores[t] = round(sum(bool(e.get("correct")) for e in ents) / len(ents), 4)
        for e in ents:
            by_type.setdefault(str(e.get("type", "other")), []).append(float(bool(e.get("correct"))))
    applicable = [v for v in turn_scores.values() if v >= 0]
    if not applicable:
        return MetricResult.skip(
            name, "no caller turn carried key entities", details={"per_turn": turn_scores}, **meta
        )
    s = round(mean(applicable), 3)
    return MetricResult(
        name=name,
        score=s,
        normalized_score=s,
        details={
            "per_turn_score": turn_scores,
            "per_turn_entities": per_turn_entities,
            "num_turns": len(pairs),
            "num_evaluated": len(applicable),
        },
        sub_metrics={f"{k}_accuracy": sub(f"{k}_accuracy", round(mean(v), 4)) for k, v in by_type.items()},
        **meta,
    )
