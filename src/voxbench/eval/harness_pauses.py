"""The one rule for an agent that starts speaking in a silence the harness made.

A ``harness_pause`` event (records 1.2) says the caller's voice released its line late: a pause
at a sentence boundary, or before the first word, longer than the voice or a person makes it
(``pipelines/services/playout.py``). The rule, stated here once and read by the validation
gate and by turn_taking:

    **An agent speech session that starts inside a harness pause (its onset in
    ``[t, t + duration_s]``) started in a silence the harness made.** It is not the agent
    interrupting, and the exchange the pause broke measures the harness, not the agent.

* The gate (``user_pacing_fidelity``, a validation metric) fails the record, so the run
  regenerates the conversation with that reason: the agent answered half a line, or a line
  not yet begun, and everything after is a different conversation.
* ``turn_taking`` does not score the turn whose answer that agent speech began (its first agent
  speech), nor the turn the rest of the line opens by cutting in on it: neither the agent's
  latency to half a line nor its yield to a caller who resumed a stalled line is the agent's
  timing. They are left out of the mean and of the latency and interruption rates, and listed
  in the details (``harness_pause_turns``). Agent speech later in a turn (the agent going on
  while the caller's next line was held before its first word) leaves that turn's timing,
  measured before the pause, scored.

An agent starting after the pause ended (it reacted to the pause, but its voice came once the
caller had resumed) is not covered: the record cannot tell that reaction from a barge-in.
"""

from __future__ import annotations

from typing import Any

from voxbench.eval.context import ConversationContext

RULE = "agent speech started inside a harness pause of the caller's line"


def _pause_at(ctx: ConversationContext, t: float) -> dict[str, Any] | None:
    for p in ctx.harness_pauses or ():
        if p["t"] <= t <= p["t"] + p["duration_s"]:
            return p
    return None


def agent_starts_in_pauses(ctx: ConversationContext) -> list[dict[str, Any]]:
    """Each agent speech session starting inside a harness pause: its turn, onset and end,
    whether it is the turn's first agent speech, and the pause (``t``, ``duration_s``,
    ``sentence``, ``line``)."""
    out: list[dict[str, Any]] = []
    for turn, segs in sorted(ctx.audio_timestamps_assistant_turns.items()):
        first = min(s for s, _ in segs)
        for start, end in segs:
            p = _pause_at(ctx, start)
            if p is not None:
                out.append(
                    {
                        "turn": turn,
                        "agent_start": start,
                        "agent_end": end,
                        "pause": p,
                        "first": start == first,
                    }
                )
    return out


def harness_paused_turns(ctx: ConversationContext) -> dict[int, dict[str, Any]]:
    """Turns whose timing a harness pause decided (module docstring), with why."""
    out: dict[int, dict[str, Any]] = {}
    cut_in = set(ctx.user_interrupted_turns)
    for s in agent_starts_in_pauses(ctx):
        why = {"agent_start": round(s["agent_start"], 3), "pause_t": round(s["pause"]["t"], 3),
               "pause_s": round(s["pause"]["duration_s"], 3)}  # fmt: skip
        if s["first"]:
            out.setdefault(s["turn"], {**why, "role": "the agent's answer started in the pause"})
        nxt = s["turn"] + 1
        resumed = ctx.audio_timestamps_user_turns.get(nxt) or []
        if nxt in cut_in and resumed and s["pause"]["t"] <= resumed[0][0] <= s["agent_end"]:
            out.setdefault(nxt, {**why, "role": "the held line's words cut in on that agent speech"})
    return out


def gate_rows(ctx: ConversationContext) -> list[dict[str, Any]]:
    """The validator's evidence, as the gate shows it (turn, claim, rule)."""
    return [
        {
            "turn": s["turn"],
            "claim": f"agent spoke at {s['agent_start']:.2f} s, inside a {s['pause']['duration_s']:.2f} s "
            f"harness pause from {s['pause']['t']:.2f} s before sentence {s['pause']['sentence']} of "
            f"{s['pause']['line'][:120]!r}",
            "rule": RULE,
        }
        for s in agent_starts_in_pauses(ctx)
    ]
