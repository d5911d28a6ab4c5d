"""How EVA keys the per-turn texts, and the conversation trace built from them.

`voxbench.eval.context.segment` cuts the turns; these shape what the metrics and judges
read: which turns get an (empty) intended-text entry, the intended stand-in for a last
caller turn the agent never transcribed, and the time-ordered trace.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from voxbench.eval.context import ConversationContext


def speaker_turn_keys(
    ctx: ConversationContext,
    users: dict[int, list[tuple[float, float]]],
    assts: dict[int, list[tuple[float, float]]],
) -> None:
    """EVA's shape of the intended texts: every turn in which the caller had audio, or the
    agent's STT logged caller words, has an intended-text entry, "" when the simulator
    logged no speech for it (an empty caller session that still belongs to the turn, or
    STT words that opened a turn), and in an S2S conversation every agent turn
    has an intended-text entry, "" when the agent logged none. Only these two: an empty
    STT entry would count as words missed (stt_wer, entity fidelity) where no STT log
    exists at all, so the transcribed maps keep only turns with text."""
    fills: list[tuple[set[int], dict[int, str]]] = []
    if ctx.intended_user_turns:  # a caller turn: caller audio, or the agent's STT of the caller
        fills.append(({*users, *ctx.transcribed_user_turns}, ctx.intended_user_turns))
    if ctx.pipeline_type == "s2s":
        fills.append((set(assts), ctx.intended_assistant_turns))
    for turns, m in fills:
        if any(t not in m for t in turns):
            filled = {t: m.get(t, "") for t in {*m, *turns}}
            m.clear()
            m.update(sorted(filled.items()))


def untranscribed_last_turn(ctx: ConversationContext) -> None:
    """EVA's rule for the caller's last words: when the call ended before the agent's STT
    produced text for the caller's final turn (no agent turn follows it), that turn's
    transcribed text is the intended text, marked `intended` in the trace. stt_wer then
    counts it as heard correctly, as EVA does; `stt_fallback_turns` lists it."""
    if not ctx.intended_user_turns or not ctx.transcribed_user_turns:
        return  # no live STT at all (e.g. only post-call transcripts): nothing to stand in for
    last = max(ctx.intended_user_turns)
    later_agent = any(t >= last for t in ctx.intended_assistant_turns) or any(
        t >= last for t in ctx.transcribed_assistant_turns
    )
    if last in ctx.transcribed_user_turns or later_agent or not ctx.intended_user_turns[last].strip():
        return
    ctx.transcribed_user_turns[last] = ctx.intended_user_turns[last]
    ctx.stt_fallback_turns = [last]


def build_trace(
    ctx: ConversationContext,
    users: dict[int, list[tuple[float, float]]],
    assts: dict[int, list[tuple[float, float]]],
) -> list[dict[str, Any]]:
    """Time-ordered trace: caller text (STT text for cascade, intended otherwise), agent
    text (intended), tool calls and responses, each with its turn id."""
    cascade = ctx.pipeline_type == "cascade"
    user_src, user_type = (
        (ctx.transcribed_user_turns, "transcribed")
        if cascade and any(ctx.transcribed_user_turns.values())
        else (ctx.intended_user_turns, "intended")
    )
    asst_src, asst_type = (
        (ctx.intended_assistant_turns, "intended")
        if any(ctx.intended_assistant_turns.values())
        else (ctx.transcribed_assistant_turns, "transcribed")
    )
    items: list[tuple[int, float, int, dict[str, Any]]] = []
    # a turn whose text map entry is "" (audio but no text of that kind) has nothing to show
    user_src = {t: x for t, x in user_src.items() if x}
    asst_src = {t: x for t, x in asst_src.items() if x}
    for t, text in user_src.items():
        at = min((s for s, _ in users.get(t, [])), default=float("-inf"))
        kind = "intended" if t in ctx.stt_fallback_turns else user_type
        items.append((t, at, 0, {"role": "user", "content": text, "type": kind, "turn_id": t}))
    for t, text in asst_src.items():
        at = min((s for s, _ in assts.get(t, [])), default=float("inf"))
        items.append((t, at, 1, {"role": "assistant", "content": text, "type": asst_type, "turn_id": t}))
    for c in ctx.tool_calls:
        items.append(
            (
                c.turn_id,
                c.t,
                1,
                {"type": "tool_call", "tool_name": c.name, "parameters": c.params, "turn_id": c.turn_id},
            )
        )
        if c.response is not None:
            items.append(
                (
                    c.turn_id,
                    c.t,
                    2,
                    {
                        "type": "tool_response",
                        "tool_name": c.name,
                        "tool_response": c.response,
                        "turn_id": c.turn_id,
                    },
                )
            )
    items.sort(key=lambda x: (x[0], x[1], x[2]))
    return [x[3] for x in items]
