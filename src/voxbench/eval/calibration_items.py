"""Validation-set items as a judge reads them: EVA's judge-validation files (format in their
README) turned into `ConversationContext`s with the human labels beside them. Kept apart from
the scoring so fitting, splitting and the benchmarks load items exactly as calibration does.

Rows marked `invalid` or not `validated` are excluded and counted; part of EVA's labels is
held back, so this reads any file of the same format and never refers to individual items.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voxbench.eval.calibration_dims import label_dimensions
from voxbench.eval.context import ConversationContext

# dataset file stem -> the metric it validates
DATASET_METRICS = {
    "faithfulness": "faithfulness",
    "conversation_progression": "conversation_progression",
    "conciseness": "conciseness",
    "key_entity_transcription": "transcription_accuracy_key_entities",
    "agent_speech_fidelity": "agent_speech_fidelity",
}
UNSUPPORTED = {"agent_speech_fidelity": "needs the agent audio, which the validation set does not ship"}


@dataclass
class CalibItem:
    metric: str
    item_id: str
    ctx: ConversationContext
    human: Any  # int rating, {turn_id: rating}, or {turn_id: [entities]}
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class AgentInfo:
    role: str = ""
    instructions: str = ""
    tools: list[dict[str, Any]] = field(default_factory=list)


def trace_from_events(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """EVA validation-set traces (`event_type` agent_utterance / user_utterance / tool_call /
    tool_response) as a conversation trace: turn 0 is the greeting, a caller utterance after
    the agent has spoken opens the next turn."""
    out: list[dict[str, Any]] = []
    turn, agent_spoke, seen_user = 0, False, False
    for e in events:
        kind = e.get("event_type")
        if kind == "user_utterance":
            if agent_spoke or not seen_user:
                turn += 1
                agent_spoke = False
            seen_user = True
            out.append(
                {
                    "role": "user",
                    "content": str(e.get("utterance", "")),
                    "type": "transcribed",
                    "turn_id": turn,
                }
            )
        elif kind == "agent_utterance":
            agent_spoke = True
            out.append(
                {
                    "role": "assistant",
                    "content": str(e.get("utterance", "")),
                    "type": "intended",
                    "turn_id": turn,
                }
            )
        elif kind == "tool_call":
            out.append(
                {
                    "type": "tool_call",
                    "tool_name": e.get("tool_name"),
                    "parameters": e.get("params"),
                    "turn_id": turn,
                }
            )
        elif kind == "tool_response":
            out.append(
                {
                    "type": "tool_response",
                    "tool_name": e.get("tool_name"),
                    "tool_response": e.get("response"),
                    "turn_id": turn,
                }
            )
    return out


def _fill_turn_texts(ctx: ConversationContext) -> ConversationContext:
    for e in ctx.conversation_trace:
        role, t = e.get("role"), e["turn_id"]
        if role == "user":
            for d in (ctx.transcribed_user_turns, ctx.intended_user_turns):
                d[t] = (d.get(t, "") + " " + e["content"]).strip()
        elif role == "assistant":
            for d in (ctx.intended_assistant_turns, ctx.transcribed_assistant_turns):
                d[t] = (d.get(t, "") + " " + e["content"]).strip()
    ctx.num_turns = max((e["turn_id"] for e in ctx.conversation_trace), default=0)
    return ctx


def context_of(
    item_id: str, trace: list[dict[str, Any]], agent: AgentInfo | None, when: str | None
) -> ConversationContext:
    """A validation item's conversation as a judge reads it: the trace, the agent's role,
    instructions and tools, and the date of the call (the benches build theirs the same way)."""
    ctx = ConversationContext(record_id=item_id, source="eva-judge-validation", conversation_trace=trace)
    if agent is not None:
        ctx.agent_role, ctx.agent_instructions, ctx.agent_tools = agent.role, agent.instructions, agent.tools
    ctx.current_date_time = when or ""
    return _fill_turn_texts(ctx)


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _modes(raw: Any) -> list[str]:
    """A label's failure modes: EVA writes a list, a comma-separated string, or "" / [""]."""
    parts = raw if isinstance(raw, list) else str(raw).split(",")
    return [str(p).strip() for p in parts if str(p).strip()]


def load_items(path: Path, agent: AgentInfo | None = None) -> tuple[str, list[CalibItem], int]:
    """(metric, items, n_excluded) of one validation file. Rows marked `invalid` or not
    `validated` are excluded (and counted)."""
    stem = path.stem
    metric = DATASET_METRICS.get(stem)
    if metric is None:
        raise ValueError(f"unknown validation set {path.name} (known: {', '.join(DATASET_METRICS)})")
    rows = _read_jsonl(path)
    kept = [r for r in rows if not r.get("invalid") and r.get("validated", True) is not False]
    items: list[CalibItem] = []
    if metric in ("faithfulness", "conversation_progression"):
        for r in kept:
            if r.get("expected_rating") not in (1, 2, 3):
                continue
            ctx = context_of(
                str(r.get("id")), trace_from_events(r.get("trace") or []), agent, r.get("current_date_time")
            )
            modes = _modes(r.get("failure_mode") or [])
            extra = {"failure_modes": label_dimensions(metric, modes)} if "failure_mode" in r else {}
            items.append(CalibItem(metric, str(r.get("id")), ctx, int(r["expected_rating"]), extra))
    elif metric == "conciseness":
        for r in kept:
            events = [
                {
                    "event_type": "agent_utterance" if t.get("role") == "agent" else "user_utterance",
                    "utterance": t.get("content", ""),
                    "position": t.get("position"),
                }
                for t in r.get("conv_turns") or []
            ]
            trace = trace_from_events(events)
            human = {
                tr["turn_id"]: t.get("expected_rating")
                for tr, t in zip(trace, r.get("conv_turns") or [], strict=True)
                if t.get("role") == "agent" and t.get("expected_rating") in (1, 2, 3)
            }
            items.append(
                CalibItem(metric, str(r.get("id")), context_of(str(r.get("id")), trace, agent, None), human)
            )
    elif metric == "transcription_accuracy_key_entities":
        for n, r in enumerate(kept):
            tts, stt = list(r.get("user_tts") or []), list(r.get("transcription") or [])
            ctx = ConversationContext(record_id=f"{stem}:{n}", source="eva-judge-validation")
            ctx.intended_user_turns = {i: str(x) for i, x in enumerate(tts)}
            ctx.transcribed_user_turns = {
                i: str(stt[i]).strip() if i < len(stt) else "" for i in range(len(tts))
            }
            human = {
                int(lab["turn_id"]): [e for e in lab.get("entities") or [] if isinstance(e, dict)]
                for lab in r.get("labels") or []
                if "turn_id" in lab
            }
            items.append(CalibItem(metric, str(r.get("id", n)), ctx, human))
    return metric, items, len(rows) - len(kept)
