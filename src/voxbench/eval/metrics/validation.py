"""Validation metrics: was the simulation itself sound? (gates, not agent scores, §3.5)"""

from __future__ import annotations

import json
from pathlib import Path
from statistics import mean
from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.eval.harness_pauses import gate_rows
from voxbench.eval.judges import parse_json_list, parse_json_object
from voxbench.eval.judges import prompts as P
from voxbench.eval.metrics.judged import judge_or_offline
from voxbench.eval.offline import rate_offline
from voxbench.eval.types import EvalConfig, MetricResult, metric, prompt_hash
from voxbench.eval.valid_end import end_evidence

VALIDATION_THRESHOLDS = {
    "conversation_valid_end": 1.0,
    "user_behavioral_fidelity": 1.0,
    "user_pacing_fidelity": 1.0,
}


@metric("conversation_valid_end", category="validation", version="v0.1", exclude_from_pass_at_k=True)
def conversation_valid_end(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """1 if the simulator ended the call itself (or the agent timed out on the caller's turn)."""
    name = "conversation_valid_end"
    if ctx.is_agent_timeout_on_user_turn():
        return MetricResult(
            name=name, score=1.0, normalized_score=1.0, details={"reason": "agent_timeout_on_user_turn"}
        )
    problem = ctx.extra.get("sim_events_problem") or {}
    if problem.get("kind") in ("missing", "empty"):  # an EVA record: no log to read the end from
        return MetricResult.fail(name, problem["message"])
    if ctx.simulator_ended_call is None:
        return MetricResult.fail(name, "no end reason recorded")
    s = 1.0 if ctx.simulator_ended_call else 0.0
    details: dict[str, Any] = {"ended_reason": ctx.conversation_ended_reason}
    if not s:
        details["evidence"] = end_evidence(ctx)  # who was heard last: the gate shows it
    if problem.get("kind") == "malformed":
        details["reason"] = problem["message"]  # "Failed to parse ...": not finished, score 0
    if ctx.extra.get("torn_logs"):
        details["torn_logs"] = ctx.extra["torn_logs"]  # the log's last line was cut: not finished
    return MetricResult(name=name, score=s, normalized_score=s, details=details)


@metric("user_pacing_fidelity", category="validation", version="v0.1", exclude_from_pass_at_k=True)
def user_pacing_fidelity(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """1 unless the agent started speaking inside a pause the harness put into the caller's
    line (``voxbench.eval.harness_pauses``): then the simulation, not the agent, went wrong."""
    name = "user_pacing_fidelity"
    if ctx.harness_pauses is None:
        return MetricResult.skip(name, "the record does not say when the harness paused the caller")
    rows = gate_rows(ctx)
    s = 0.0 if rows else 1.0
    details: dict[str, Any] = {"harness_pauses": len(ctx.harness_pauses), "evidence": rows}
    return MetricResult(name=name, score=s, normalized_score=s, details=details)


@metric(
    "user_behavioral_fidelity",
    category="validation",
    version="v0.1-vb2",
    needs_judge=True,
    exclude_from_pass_at_k=True,
    pass_threshold=1.0,
)
def user_behavioral_fidelity(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """1 if the simulated caller behaved as instructed, 0 if it corrupted the test."""
    name = "user_behavioral_fidelity"
    j = judge_or_offline(name, ctx, config)
    if isinstance(j, MetricResult):
        return j  # the offline rating (no judge configured), or unscored
    intended = "\n".join(f"Turn {t}: {x}" for t, x in ctx.intended_user_turns.items())
    user = (
        f"Caller instructions (goal, decision tree, facts):\n{json.dumps(ctx.user_goal, ensure_ascii=False)}\n\n"
        f"Conversation:\n{P.format_trace(ctx.conversation_trace)}\n\nWhat the caller meant to say:\n{intended}\n\n"
        f"Ended: {ctx.conversation_ended_reason}\nExpected language: {ctx.language}"
    )
    reply = j.complete(P.render(P.USER_BEHAVIOR), user)
    obj = parse_json_object(reply.text) or {}
    meta = {"judge_model": j.model, "prompt_hash": prompt_hash(P.render(P.USER_BEHAVIOR))}
    r = obj.get("rating")
    if r not in (0, 1):
        return MetricResult.fail(
            name, "judge reply had no 0/1 rating", details={"raw": reply.text[:2000]}, **meta
        )
    detected = [
        k for k, v in (obj.get("corruptions") or {}).items() if isinstance(v, dict) and v.get("detected")
    ]
    return MetricResult(
        name=name, score=float(r), normalized_score=float(r), details={"detected": detected}, **meta
    )


@metric(
    "user_speech_fidelity",
    category="validation",
    version="v0.2-vb1",
    needs_judge=True,
    exclude_from_pass_at_k=True,
)
def user_speech_fidelity(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """Per caller turn 1-3: did the simulator's TTS say what it meant? Any 1 fails the record."""
    name = "user_speech_fidelity"
    wav = ctx.audio_paths.get("user_clean") or ctx.audio_paths.get("user")
    if config.audio_judge is None or not wav:
        if config.text_judge_mode() == "none":
            return MetricResult.unscored(name, "needs an audio judge and the caller's audio")
        # the caller's recording transcribed after the call, against what it meant (offline)
        res = rate_offline(name, ctx)
        return (
            res
            if res is not None
            else MetricResult.unscored(name, "needs an audio judge and the caller's audio")
        )
    body = "\n".join(f"Turn {t}: {x}" for t, x in ctx.intended_user_turns.items())
    reply = config.audio_judge.complete(P.USER_SPEECH, body, audio_wav=Path(wav).read_bytes())
    per = {
        int(i["turn_id"]): int(i["rating"])
        for i in parse_json_list(reply.text) or []
        if i.get("rating") in (1, 2, 3) and str(i.get("turn_id", "")).isdigit()
    }
    meta = {"judge_model": config.audio_judge.model, "prompt_hash": prompt_hash(P.USER_SPEECH)}
    if not per:
        return MetricResult.fail(name, "judge rated no turn", **meta)
    m = mean(per.values())
    return MetricResult(
        name=name, score=round(m, 3), normalized_score=round((m - 1) / 2, 3),
        details={"per_turn_rating": per, "any_turn_rated_1": any(v == 1 for v in per.values())}, **meta,
    )  # fmt: skip


def validation_gate(results: dict[str, MetricResult]) -> dict[str, Any]:
    """EVA §3.5/§5.5: valid_end must be exactly 1 (else "not_finished"); then the judge
    validators must pass (a judge error is a failure). Skipped judges are reported, not failed."""
    failed: list[str] = []
    skipped: list[str] = []
    ve = results.get("conversation_valid_end")
    if ve is None or not ve.ok or ve.value != 1.0:
        why = "no conversation_valid_end result" if ve is None else None
        return {
            "valid": False, "status": "not_finished", "failed_metrics": [], "skipped": skipped,
            "evidence": {"conversation_valid_end": [{"turn": None, "claim": why, "rule": "call did not end the way "
                         "a caller ends it"}] if why else gate_evidence(ve)},  # type: ignore[arg-type]
        }  # fmt: skip
    for name in ("user_behavioral_fidelity", "user_pacing_fidelity"):
        ub = results.get(name)
        if ub is None:
            continue
        if ub.skipped:
            skipped.append(ub.name)
        elif not ub.ok or (ub.value or 0.0) < VALIDATION_THRESHOLDS[name]:
            failed.append(ub.name)
    us = results.get("user_speech_fidelity")
    if us is not None:
        if us.skipped:
            skipped.append(us.name)
        elif not us.ok or us.details.get("any_turn_rated_1"):
            failed.append(us.name)
    out: dict[str, Any] = {
        "valid": not failed,
        "status": "valid" if not failed else "invalid",
        "failed_metrics": failed,
        "skipped": skipped,
    }
    if failed:
        out["evidence"] = {m: gate_evidence(results[m]) for m in failed}
    return out


def gate_evidence(res: MetricResult) -> list[dict[str, Any]]:
    """Why a validator failed a record, as {turn, claim, rule} items (what the run summary and
    the report show for a regenerated attempt)."""
    d = res.details or {}
    if d.get("evidence"):
        return [dict(e) for e in d["evidence"]][:10]
    if d.get("per_turn_rating"):
        return [
            {"turn": int(t), "claim": f"turn rated {r}", "rule": "caller's speech did not carry its line"}
            for t, r in d["per_turn_rating"].items()
            if r == 1
        ]
    if res.error:
        return [{"turn": None, "claim": str(res.error)[:300], "rule": "validator error"}]
    return [
        {
            "turn": None,
            "claim": ", ".join(d.get("detected") or []) or "score below threshold",
            "rule": res.name,
        }
    ]
