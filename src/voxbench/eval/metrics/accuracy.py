"""EVA-A code metrics: task_completion, agent_speech_fidelity."""

from __future__ import annotations

import re
from pathlib import Path

from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.exact_mean import mean
from voxbench.eval.judges import parse_json_list
from voxbench.eval.judges import prompts as P
from voxbench.eval.normalize import NORMALIZER_ID, normalize_text
from voxbench.eval.types import EvalConfig, MetricResult, metric, prompt_hash
from voxbench.scenarios import check_task_completion


@metric("task_completion", category="accuracy", version="v0.1", pass_threshold=1.0)
def task_completion(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """1 if the final database equals the expected one (session gate, then hash)."""
    if ctx.expected_db is None:
        return MetricResult.unscored("task_completion", "no expected database in the record")
    if ctx.final_db is None:
        return MetricResult.fail("task_completion", "no final database in the record")
    tc = check_task_completion(ctx.expected_db, ctx.final_db)
    details = {
        "auth_success": tc.auth_success,
        "expected_hash": tc.expected_hash,
        "actual_hash": tc.actual_hash,
        "auth_mismatches": tc.auth_mismatches,
        "diff": tc.diff,
    }
    if ctx.final_db_hash and ctx.final_db_hash != tc.actual_hash:  # db_hash(final_db), computed once
        details["recorded_hash_mismatch"] = ctx.final_db_hash
    s = 1.0 if tc.success else 0.0
    return MetricResult(name="task_completion", score=s, normalized_score=s, details=details)


def transcript_source_params(ctx: ConversationContext) -> dict[str, str]:
    """``{"agent_transcript": "post_call"}`` when the harness transcribed the recording after
    the call (no caller-side STT heard the agent live); empty for live transcripts."""
    src = ctx.extra.get("agent_transcript_source")
    return {"agent_transcript": src} if src else {}


_CODE_RE = re.compile(r"\b(?=[A-Z0-9]*\d)[A-Z0-9]{3,}\b|\b[A-Z]{3,}\b")


def extract_entities(text: str, language: str = "en") -> list[str]:
    """Entities a listener must hear right: numbers (spoken or written), codes, amounts.

    Returned in normalised form; spoken forms ("Zulu Kilo three") are not expanded."""
    raw = strip_tags(text)
    ents: list[str] = []
    for code in _CODE_RE.findall(raw):
        ents.append(normalize_text(code, language))
    # other numbers, outside the codes (a code's digits are not a second entity)
    for tok in normalize_text(_CODE_RE.sub(" ", raw), language).split():
        # a letters-only token has no digit (no character is both)
        if not tok.isalpha() and any(map(str.isdigit, tok)) and tok not in ents:
            ents.append(tok)
    return [e for e in dict.fromkeys(ents) if e]


def entity_heard(entity: str, transcript_norm: str) -> bool:
    """True when a normalised entity occurs in a normalised transcript (spaces optional)."""
    return f" {entity} " in f" {transcript_norm} " or entity.replace(" ", "") in transcript_norm.replace(
        " ", ""
    )


@metric("agent_speech_fidelity", category="accuracy", version="v0.4-vb1", pass_threshold=0.95)
def agent_speech_fidelity(ctx: ConversationContext, config: EvalConfig) -> MetricResult:
    """Were the entities the agent meant to say spoken intelligibly? (per turn 0/1, mean)"""
    name = "agent_speech_fidelity"
    agent_wav = ctx.audio_paths.get("agent")
    if config.audio_judge is not None and agent_wav:
        return _audio_judge(ctx, config, Path(agent_wav))
    # Offline method: the caller side's STT of the agent channel vs the intended text.
    if not ctx.intended_assistant_turns:
        return MetricResult.skip(
            name, "no intended assistant text", params={"method": "offline_stt_entities"}
        )
    if not ctx.transcribed_assistant_turns:
        return MetricResult.unscored(
            name,
            "no transcript of the agent channel (and no audio judge)",
            params={"method": "offline_stt_entities"},
        )
    per: dict[int, float] = {}
    ev: dict[int, dict[str, list[str]]] = {}
    for t, intended in ctx.intended_assistant_turns.items():
        ents = extract_entities(intended, ctx.language)
        if not ents or t not in ctx.transcribed_assistant_turns:
            continue
        heard = normalize_text(ctx.transcribed_assistant_turns[t], ctx.language)
        missing = [e for e in ents if not entity_heard(e, heard)]
        per[t] = 0.0 if missing else 1.0
        ev[t] = {"entities": ents, "missing": missing}
    params = {"method": "offline_stt_entities", "normalizer": NORMALIZER_ID, **transcript_source_params(ctx)}
    if not per:
        return MetricResult.skip(name, "no agent turn with entities", params=params)
    s = round(mean(per.values()), 4)
    return MetricResult(
        name=name, score=s, normalized_score=s, params=params,
        details={"per_turn_rating": per, "per_turn_entities": ev, "num_evaluated": len(per),
                 "num_turns": len(ctx.intended_assistant_turns),
                 "note": "STT errors count against the agent; an upper bound on garbling, not a judge"},
    )  # fmt: skip


def _audio_judge(ctx: ConversationContext, config: EvalConfig, wav: Path) -> MetricResult:
    judge = config.audio_judge
    assert judge is not None
    redacted: list[str] = []
    for e in ctx.conversation_trace:
        if e.get("role") == "assistant":
            redacted.append(f"Turn {e['turn_id']} assistant: [Assistant speaks]")
        elif e.get("role") == "user":
            redacted.append(f"Turn {e['turn_id']} user: {e['content']}")
        elif e.get("type") == "tool_response":
            redacted.append(f"Turn {e['turn_id']} tool_response {e['tool_name']}: {e['tool_response']}")
    reply = judge.complete(P.AGENT_SPEECH, "\n".join(redacted), audio_wav=wav.read_bytes())
    items = parse_json_list(reply.text) or []
    per = {
        int(i["turn_id"]): float(i["rating"])
        for i in items
        if i.get("has_entities") and i.get("rating") in (0, 1) and str(i.get("turn_id", "")).isdigit()
    }
    meta = {
        "judge_model": judge.model,
        "prompt_hash": prompt_hash(P.AGENT_SPEECH),
        "params": {"method": "audio_judge"},
    }
    if not per:
        return MetricResult.skip("agent_speech_fidelity", "no agent turn with entities", **meta)
    s = round(mean(per.values()), 4)
    return MetricResult(
        name="agent_speech_fidelity", score=s, normalized_score=s, details={"per_turn_rating": per}, **meta
    )
