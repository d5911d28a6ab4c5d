"""Build a `ConversationContext` from a voxbench record directory (typed events).

Speech timing comes from `speech` onset/offset events (stamped from the samples) when a
channel has them, else from `audio_segment` start/end. Texts: the caller's intended
text is `utterance`/`tts_text` on the user channel, the agent's STT of the caller is
`transcript` on the user channel; the agent's intended text is `tts_text` (else
`utterance`, else `llm_text`) on the agent channel, the simulator's STT of the agent is
`transcript` on the agent channel, live or (`source="post_call"`) the harness's
transcription of the recording after the call; a post-call transcript of the user
channel is never taken for the agent's own STT (stt_wer scores that). A `fallback_nudge` (the agent re-prompted a silent
caller) opens a turn of its own, as EVA's `turn_fallback` audit entries do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from voxbench.eval.context import ConversationContext, HEvent, segment
from voxbench.records import (
    UNRECORDED_HARNESS_PAUSES,
    AudioSegment,
    CallerAct,
    EndEvent,
    Event,
    FallbackNudge,
    HarnessPause,
    LLMText,
    RecordBundle,
    Speech,
    StageTiming,
    ToolCall,
    ToolResult,
    Transcript,
    TTSText,
    UsageEvent,
    Utterance,
    VADEvent,
    Yield,
    read_record,
)
from voxbench.records.unsaid import unsaid_utterances

_WHO: dict[str, Any] = {"user": "user", "agent": "assistant"}
# EndReason values that mean the simulator hung up on purpose (EVA's "goodbye" gate)
SIMULATOR_END_REASONS = frozenset({"end_call", "goodbye", "transfer", "trace_finished"})


def history_from_events(bundle: RecordBundle) -> list[HEvent]:
    ev = bundle.events
    speech_channels = {e.channel for e in ev if isinstance(e, Speech)}
    intended_agent = TTSText if any(isinstance(e, TTSText) and e.channel == "agent" for e in ev) else None
    has_user_utt = any(isinstance(e, Utterance) and e.channel == "user" for e in ev)
    has_agent_utt = any(isinstance(e, Utterance) and e.channel == "agent" for e in ev)
    out: list[HEvent] = []
    unsaid = unsaid_utterances(ev)
    released = _held_lines(ev)
    for k, e in enumerate(ev):
        if k in unsaid:
            continue  # a caller line withdrawn before it was said
        if isinstance(e, Speech):
            out.append(HEvent(e.t, "audio_start" if e.state == "onset" else "audio_end", _WHO[e.channel]))
        elif isinstance(e, AudioSegment) and e.channel not in speech_channels:
            out.append(HEvent(e.t, "audio_start" if e.state == "start" else "audio_end", _WHO[e.channel]))
        elif isinstance(e, Transcript) and e.final:
            if e.channel == "user" and e.source == "post_call":
                continue  # what the recording said, not what the agent heard
            kind = "user_transcribed" if e.channel == "user" else "assistant_transcribed"
            out.append(HEvent(e.t, kind, text=e.text))
        elif isinstance(e, Utterance | TTSText | LLMText):
            if e.channel == "user":
                if not isinstance(e, LLMText) and (isinstance(e, Utterance) or not has_user_utt):
                    out.append(HEvent(released.get(k, e.t), "user_intended", text=e.text))
            else:
                chosen = (
                    isinstance(e, TTSText)
                    if intended_agent is not None
                    else isinstance(e, Utterance)
                    if has_agent_utt
                    else isinstance(e, LLMText)
                )
                if chosen:
                    out.append(HEvent(e.t, "assistant_intended", text=e.text))
        elif isinstance(e, ToolCall):
            out.append(HEvent(e.t, "tool_call", name=e.name, data=e.arguments))
        elif isinstance(e, ToolResult):
            resp = dict(e.result)
            resp.setdefault("status", e.status)
            out.append(HEvent(e.t, "tool_response", name=e.name, data=resp))
        elif isinstance(e, FallbackNudge):
            out.append(HEvent(e.t, "fallback"))
        elif isinstance(e, EndEvent):
            out.append(HEvent(e.t, "end"))
    return out


def _held_lines(ev: list[Event]) -> dict[int, float]:
    """Caller utterances whose line the voice held before its first word: index -> when the
    voice released it (the end of the `harness_pause` of sentence 0 of that line, the first
    after the utterance and before the next one). An utterance is stamped when the line was
    decided; held for seconds, its words would sit nearer the caller's previous turn than its
    own speech, and the turn texts would give them to the wrong turn."""
    out: dict[int, float] = {}
    pending: tuple[int, str] | None = None  # the latest caller utterance
    for k, e in enumerate(ev):
        if isinstance(e, Utterance) and e.channel == "user":
            pending = (k, e.text)
        elif isinstance(e, HarnessPause) and e.sentence == 0 and pending and pending[1] == e.line:
            out.setdefault(pending[0], e.t + e.duration_s)
    return out


def context_from_bundle(bundle: RecordBundle) -> ConversationContext:
    rec = bundle.record
    scen = bundle.scenario or {}
    agent = bundle.agent or {}
    gt = scen.get("ground_truth") or {}
    end_reason = rec.end_reason or next((e.reason for e in bundle.events if isinstance(e, EndEvent)), None)
    ctx = ConversationContext(
        record_id=rec.conversation_id,
        scenario_id=rec.scenario_id,
        trial=rec.trial,
        domain=rec.domain,
        language=rec.lang,
        pipeline_type=rec.agent.architecture,
        source="voxbench",
        status=rec.status,
        error=rec.error,
        conversation_ended_reason=end_reason,
        simulator_ended_call=(end_reason in SIMULATOR_END_REASONS) if end_reason else None,
        expected_db=gt.get("expected_scenario_db"),
        initial_db=bundle.initial_db,
        final_db=bundle.final_db,
        final_db_hash=rec.final_db_hash,
        user_goal=scen.get("user_goal") or {},
        user_persona=(scen.get("user_config") or {}).get("user_persona", ""),
        agent_instructions=agent.get("instructions", ""),
        agent_role=agent.get("role", ""),
        agent_tools=list(agent.get("tools") or []),
        current_date_time=scen.get("current_date_time", ""),
        extra={
            "condition": rec.condition,
            "attempt": rec.attempt,
            "error_source": rec.error_source,
            **rec.extra,
        },
    )
    if bundle.torn_logs:
        ctx.extra["torn_logs"] = dict(bundle.torn_logs)  # a killed writer's last line, dropped
    if any(
        isinstance(e, Transcript) and e.channel == "agent" and e.source == "post_call" for e in bundle.events
    ):
        ctx.extra["agent_transcript_source"] = "post_call"  # fidelity metrics say how they were made
    segment(history_from_events(bundle), ctx)
    _caller_post_call(bundle, ctx)
    for e in bundle.events:
        if isinstance(e, StageTiming):
            ctx.stage_latencies.setdefault(e.stage, []).append(e.seconds)
        elif isinstance(e, UsageEvent) and e.side == "agent":  # the simulator's LLM is not scored
            ctx.output_tokens.append(e.completion_tokens)
            if e.reasoning_tokens is not None:
                ctx.reasoning_tokens.append(e.reasoning_tokens)
        elif isinstance(e, CallerAct):
            ctx.caller_acts.append(e.model_dump(mode="json", exclude={"type", "side", "channel"}))
        elif isinstance(e, Yield):
            ctx.yields.append((e.t, e.channel))
        elif isinstance(e, VADEvent) and e.side == "agent" and e.channel == "user" and e.state == "stop":
            ctx.agent_turn_ends.append(e.t)
    ctx.agent_turn_ends.sort()
    if rec.schema_version not in UNRECORDED_HARNESS_PAUSES:
        ctx.harness_pauses = [
            e.model_dump(mode="json", include={"t", "duration_s", "sentence", "line"})
            for e in bundle.events
            if isinstance(e, HarnessPause)
        ]
    for which in ("user", "agent", "mix", "user_clean"):
        p = bundle.audio_path(which)
        if p is not None and p.is_file():
            ctx.audio_paths[which] = str(p)
    return ctx


def _caller_post_call(bundle: RecordBundle, ctx: ConversationContext) -> None:
    """What the caller's own recording said, per caller turn (post-call transcripts of the
    user channel; user_speech_fidelity compares them with what the caller meant). Each
    transcript goes to the caller turn whose speech started last before it."""
    heard = [
        (e.t, e.text)
        for e in bundle.events
        if isinstance(e, Transcript) and e.channel == "user" and e.source == "post_call" and e.text.strip()
    ]
    if not heard:
        return
    starts = sorted(
        (min(s for s, _ in spans), t) for t, spans in ctx.audio_timestamps_user_turns.items() if spans
    )
    out: dict[int, str] = {}
    for t, text in heard:
        turn = next((tid for s, tid in reversed(starts) if s <= t), None)
        if turn is not None:
            out[turn] = f"{out[turn]} {text}" if turn in out else text
    ctx.extra["caller_post_call_transcripts"] = out


def load_context(path: str | Path) -> ConversationContext:
    return context_from_bundle(read_record(path))
