"""Why a call did not end the way a caller ends it: the evidence of ``conversation_valid_end``.

The gate keeps a call that ended by inactivity when the agent timed out on the caller's turn
(the caller's voice was the last heard, ``ConversationContext.is_agent_timeout_on_user_turn``):
the agent never answered, which is the agent's score. When the agent's voice was the last heard
the caller was the silent side, and the call is regenerated. That was once shown as "score below
threshold" only; found live (airline 7.2.6): the caller decided a 190-character line 15 s after
the agent's last words, its voice on a loaded machine had not said a word of it 30 s later, and
the call ended on inactivity with the agent waiting, which a reader of the verdict took for
the agent not answering. The evidence now says who was heard last and names a caller line
decided but never voiced.
"""

from __future__ import annotations

from typing import Any

from voxbench.eval.context import ConversationContext

RULE = "call did not end the way a caller ends it"


def _last_end(segs: dict[int, list[tuple[float, float]]]) -> float | None:
    return max((e for lst in segs.values() for _, e in lst), default=None)


def unvoiced_line(ctx: ConversationContext) -> dict[str, Any] | None:
    """The caller's last act with words decided after its voice was last heard and neither
    voiced nor withdrawn since (``caller_act`` events), or None."""
    heard = _last_end(ctx.audio_timestamps_user_turns) or 0.0
    acts = [a for a in ctx.caller_acts if a.get("t", 0.0) > heard and a.get("text")]
    if not acts or acts[-1].get("kind") == "withdrawn":
        return None
    return acts[-1]


def end_evidence(ctx: ConversationContext) -> list[dict[str, Any]]:
    """One row (turn, claim, rule) saying how the call ended and, for an inactivity end, who
    was heard last and what the caller decided but did not say."""
    reason = ctx.conversation_ended_reason or "no end reason recorded"
    claim = f"the call ended on {reason}"
    if reason == "inactivity_timeout":
        last = ctx.last_audio_speaker()
        if last == "assistant":
            end = _last_end(ctx.audio_timestamps_assistant_turns) or 0.0
            claim += (
                f" with the agent's voice the last heard (to {end:.1f} s): the caller was the silent "
                "side, not the agent on the caller's turn"
            )
        elif last is None:
            claim += " with no voice heard"
        line = unvoiced_line(ctx)
        if line is not None:
            claim += (
                f"; the caller's line decided at {line['t']:.1f} s was never voiced: {line['text'][:100]!r}"
            )
    return [{"turn": None, "claim": claim, "rule": RULE}]
