"""One primary cause per failed or invalid conversation, with the evidence it rests on.

"Failed" means: not completed by the harness (infrastructure), rejected by the
validation gate (invalid), or completed with the task not done, with EVA-A failing
(faithfulness or speech fidelity under threshold), or with turn-taking failing. The
cause is the first rule that matches, in this order (earlier causes explain later
symptoms: a call cut by a crashed STT also fails its task):

1. ``infrastructure``: the harness could not run the call; `stage` says where
   (transport, stt, llm, tts, crash, timeout, ... from the record's error source).
2. ``simulator_invalid``: the validation gate rejected the simulation (the call did
   not end properly, or the simulated caller broke its instructions).
3. ``misheard_entity``: the task failed and a key fact the caller said (a value of
   `information_required`, as the caller meant it) is missing from what the agent's
   STT heard on that turn, and no tool call ever carried it: the agent acted on a
   misheard value.
   Only when the agent spoke or called a tool after that turn: a caller talking into
   silence was not misheard.
4. ``turn_taking`` (task failed): the agent never answered the caller's last turn and
   made no write, so the call ended on silence.
5. ``agent_reasoning``: the task failed on correct input: a wrong tool call (an error,
   or a write leaving the database off the expected state) or a missing one.
6. ``policy``: the task is done but faithfulness failed (the agent broke its policy or
   invented facts).
7. ``agent_speech``: the task is done but what the agent said (heard back by STT)
   differs from what it meant to say (entities lost).
8. ``turn_taking``: everything above passed but the timing did not (silences, talking
   over the caller).
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, Field

from voxbench.eval.aggregate import ScoredRecord
from voxbench.eval.context import ConversationContext, strip_tags
from voxbench.eval.metrics.accuracy import entity_heard
from voxbench.eval.normalize import normalize_text
from voxbench.scenarios.hashing import format_diff

Cause = Literal[
    "infrastructure",
    "simulator_invalid",
    "misheard_entity",
    "agent_reasoning",
    "agent_speech",
    "turn_taking",
    "policy",
]
CAUSES: tuple[str, ...] = Cause.__args__  # type: ignore[attr-defined]

_STAGES = ("stt", "llm", "tts", "vad", "transport", "websocket", "simulator", "timeout", "crash", "ray")
_STAGE_RE = re.compile(r"\b(" + "|".join(_STAGES) + r")\b", re.I)
_THRESHOLDS = {"faithfulness": 0.5, "agent_speech_fidelity": 0.95, "turn_taking": 0.8}


class FailureCause(BaseModel):
    """The primary cause of one conversation's failure, with its evidence."""

    cause: Cause
    summary: str
    stage: str | None = None
    turn: int | None = None
    evidence: dict[str, Any] = Field(default_factory=dict)


def _value(scored: ScoredRecord, name: str) -> float | None:
    r = scored.metrics.get(name)
    return r.value if r is not None and r.ok else None


def _fails(scored: ScoredRecord, name: str) -> bool:
    v = _value(scored, name)
    return v is not None and v < _THRESHOLDS[name] - 1e-9


def infra_stage(ctx: ConversationContext) -> str | None:
    src = ctx.extra.get("error_source")
    if isinstance(src, str) and src:
        return src
    m = _STAGE_RE.search(ctx.error or "")
    return m.group(1).lower() if m else None


def _key_entities(ctx: ConversationContext) -> dict[str, str]:
    """information_required values worth hearing exactly: codes, ids, numbers (normalised)."""
    out: dict[str, str] = {}
    info = ctx.user_goal.get("information_required") or {}
    for k, v in info.items() if isinstance(info, dict) else []:
        if isinstance(v, bool) or not isinstance(v, str | int | float):
            continue
        text = str(v)
        if "<" in text or not any(c.isdigit() for c in text):
            continue
        norm = normalize_text(text)
        if len(norm.replace(" ", "")) >= 3:
            out[str(k)] = norm
    return out


def _agent_acted_after(ctx: ConversationContext, turn: int) -> bool:
    """Did the agent speak or call a tool after the caller's speech in `turn`? A caller talking
    into silence was not misheard: nobody acted on what was heard."""
    segs = ctx.audio_timestamps_user_turns.get(turn) or []
    if not segs:
        return any(t > turn for t in ctx.intended_assistant_turns) or any(
            c.turn_id >= turn for c in ctx.tool_calls
        )
    end = max(e for _, e in segs)
    spoke = any(
        s >= end for t, ss in ctx.audio_timestamps_assistant_turns.items() if t >= turn for s, _ in ss
    )
    return spoke or any(c.t >= end for c in ctx.tool_calls)


def misheard_entity(ctx: ConversationContext) -> FailureCause | None:
    entities = _key_entities(ctx)
    if not entities:
        return None
    # normalising is the costly part: each text once, however many entities
    calls = normalize_text(" ".join(json.dumps(c.params, ensure_ascii=False) for c in ctx.tool_calls))
    said_n = {t: normalize_text(strip_tags(x)) for t, x in ctx.intended_user_turns.items()}
    heard_n: dict[int, str] = {}
    for field, ent in entities.items():
        if entity_heard(ent, calls):
            continue
        for turn, said in sorted(ctx.intended_user_turns.items()):
            heard = ctx.transcribed_user_turns.get(turn)
            if heard is None or not entity_heard(ent, said_n[turn]):
                continue
            if turn not in heard_n:
                heard_n[turn] = normalize_text(strip_tags(heard))
            if entity_heard(ent, heard_n[turn]):
                break  # heard right at least once: not a hearing problem
            if not _agent_acted_after(ctx, turn):
                break
            after = [
                {"tool": c.name, "params": c.params, "status": c.status}
                for c in ctx.tool_calls
                if c.turn_id >= turn
            ][:3]
            return FailureCause(
                cause="misheard_entity",
                turn=turn,
                # the value too: a field label alone ("Your confirmation code") read as if it
                # were what the caller said
                summary=f"turn {turn}: the caller said {field} {ent!r} but the agent heard {heard!r}",
                evidence={
                    "field": field,
                    "entity": ent,
                    "said": said,
                    "heard": heard,
                    "tool_calls_after": after,
                },
            )
    return None


def _write_tools(ctx: ConversationContext) -> set[str]:
    return {
        str(t.get("name")) for t in ctx.agent_tools if isinstance(t, dict) and t.get("tool_type") == "write"
    }


def _db_difference(scored: ScoredRecord) -> list[str]:
    """The task_completion metric's own diff and session mismatches, as text lines."""
    tc = scored.metrics.get("task_completion")
    d = tc.details if tc is not None else {}
    lines = [f"session.{m['key']} expected {m['expected']!r}" for m in d.get("auth_mismatches") or []]
    if isinstance(d.get("diff"), dict) and d["diff"]:
        lines += format_diff(d["diff"], limit=5).splitlines()
    return lines[:6]


def agent_reasoning(ctx: ConversationContext, scored: ScoredRecord) -> FailureCause:
    errors = [
        {"turn": c.turn_id, "tool": c.name, "params": c.params, "error_type": c.error_type}
        for c in ctx.tool_calls
        if c.status == "error" or c.error_type
    ]
    writes = [c for c in ctx.tool_calls if c.name in _write_tools(ctx)]
    kind = "wrong_call" if writes or errors else "missing_call"
    first = errors[0] if errors else None
    if kind == "missing_call":
        summary = "no tool call changed the database toward the goal"
    elif first is not None:
        summary = f"turn {first['turn']}: {first['tool']} failed ({first['error_type']})"
    else:
        summary = f"{writes[-1].name} left the database off the expected state"
    return FailureCause(
        cause="agent_reasoning",
        turn=first["turn"] if first else (writes[-1].turn_id if writes else None),
        summary=summary,
        evidence={
            "kind": kind,
            "tool_errors": errors[:5],
            "writes": [{"turn": c.turn_id, "tool": c.name, "params": c.params} for c in writes][:5],
            "db_difference": _db_difference(scored),
        },
    )


def _speech(scored: ScoredRecord) -> FailureCause:
    d = scored.metrics["agent_speech_fidelity"].details
    bad = {t: e for t, e in (d.get("per_turn_entities") or {}).items() if e.get("missing")}
    turn = next(iter(bad), None)
    missing = bad[turn]["missing"] if turn is not None else []
    where = f"turn {turn}: " if turn is not None else ""
    return FailureCause(
        cause="agent_speech",
        turn=int(turn) if turn is not None else None,
        summary=f"{where}the agent meant to say {', '.join(missing) or 'an entity'} but it was not heard",
        evidence={"per_turn_rating": d.get("per_turn_rating"), "missing_entities": bad},
    )


def _policy(scored: ScoredRecord) -> FailureCause:
    dims = scored.metrics["faithfulness"].details.get("dimensions") or {}
    flagged = {k: v.get("evidence") for k, v in dims.items() if isinstance(v, dict) and v.get("flagged")}
    return FailureCause(
        cause="policy",
        summary="faithfulness failed: " + (", ".join(flagged) or "rated below threshold"),
        evidence={"flagged": flagged, "faithfulness": _value(scored, "faithfulness")},
    )


def _turn_taking(scored: ScoredRecord, ctx: ConversationContext) -> FailureCause:
    if ctx.is_agent_timeout_on_user_turn():
        return FailureCause(
            cause="turn_taking",
            turn=max(ctx.audio_timestamps_user_turns, default=None),
            summary="the agent never answered the caller's last turn",
            evidence={
                "ended_reason": ctx.conversation_ended_reason,
                "caller_last_spoke_s": max(
                    (e for ss in ctx.audio_timestamps_user_turns.values() for _, e in ss), default=None
                ),
                "agent_spoke_last_s": max(
                    (e for ss in ctx.audio_timestamps_assistant_turns.values() for _, e in ss), default=None
                ),
                "tool_calls": len(ctx.tool_calls),
            },
        )
    d = scored.metrics["turn_taking"].details if "turn_taking" in scored.metrics else {}
    reasons = d.get("per_turn_reason") or {}
    scores = d.get("per_turn_score") or d.get("per_turn_rating") or {}
    worst = min(scores, key=lambda t: scores[t], default=None)
    return FailureCause(
        cause="turn_taking",
        turn=int(worst) if worst is not None else None,
        summary=f"turn-taking {_value(scored, 'turn_taking')}: "
        + (f"turn {worst} {reasons.get(worst, '')}".strip() if worst is not None else "timing off"),
        evidence={"turn_taking": _value(scored, "turn_taking"), "worst_turn": worst, "reasons": reasons},
    )


def failure_cause(ctx: ConversationContext, scored: ScoredRecord) -> FailureCause | None:
    """The primary cause, or None when the conversation did not fail."""
    if scored.status == "infra_failure":
        stage = infra_stage(ctx)
        return FailureCause(
            cause="infrastructure",
            stage=stage,
            summary=f"{stage or 'unknown stage'}: {(ctx.error or 'no error recorded')[:200]}",
            evidence={"error": ctx.error, "error_source": ctx.extra.get("error_source")},
        )
    if scored.status == "invalid":
        gate = scored.validation
        what = (
            ", ".join(gate.get("failed_metrics") or [])
            or f"not finished (ended: {ctx.conversation_ended_reason})"
        )
        return FailureCause(
            cause="simulator_invalid",
            stage=str(gate.get("status")),
            summary=f"validation gate: {what}",
            evidence={"gate": gate, "ended_reason": ctx.conversation_ended_reason},
        )
    task = _value(scored, "task_completion")
    if task is not None and task < 1.0:
        if (c := misheard_entity(ctx)) is not None:
            return c
        if ctx.is_agent_timeout_on_user_turn() and not any(
            c.name in _write_tools(ctx) for c in ctx.tool_calls
        ):
            return _turn_taking(scored, ctx)
        return agent_reasoning(ctx, scored)
    if _fails(scored, "faithfulness"):
        return _policy(scored)
    if _fails(scored, "agent_speech_fidelity"):
        return _speech(scored)
    if _fails(scored, "turn_taking"):
        return _turn_taking(scored, ctx)
    return None


def cause_counts(causes: list[dict[str, Any] | None]) -> dict[str, Any]:
    """Counts per cause (every cause listed, zeros included) and infrastructure per stage."""
    counts = dict.fromkeys(CAUSES, 0)
    stages: dict[str, int] = {}
    for c in causes:
        if not c:
            continue
        counts[c["cause"]] = counts.get(c["cause"], 0) + 1
        if c["cause"] == "infrastructure":
            st = c.get("stage") or "unknown"
            stages[st] = stages.get(st, 0) + 1
    return {"failed": sum(counts.values()), "counts": counts, "infrastructure_stages": stages}
