"""The one rule for agent speech the harness, not the agent, brought about by pausing the caller.

A ``harness_pause`` event (records 1.2) says the caller's voice released its line late: a pause
at a sentence boundary, or before the first word, longer than the voice or a person makes it
(``pipelines/services/playout.py``). The rule, stated here once and read by the validation
gate and by turn_taking:

    **An agent speech session is the harness's doing when it started inside a harness pause
    (its onset in ``[t, t + duration_s]``), or when the agent decided it inside one: its onset
    came after the pause ended, and the last turn end the agent's own turn detection recorded
    before that onset (``ConversationContext.agent_turn_ends``: its VAD's stops on the caller's
    channel) fell inside the pause, with no other agent speech started in between.** Either
    way the agent answered a caller the harness stalled, not a caller who stopped: it is not
    the agent interrupting, and the exchange the pause broke measures the harness, not the
    agent. A pause before the first word of a line the caller then withdrew unsaid is none:
    no word of the line was said, so no exchange broke, and agent speech in it is the agent
    going on with its own turn (found live, airline 6.1.4 and 2.2.4: the agent's speech decided
    before the caller's check-in, which the caller withdrew when the agent spoke).

The second clause tells apart two agents whose voices both start over the resumed line: one
whose turn detection ended the caller's turn in the silence the harness made (a reply to half
a line, voiced late), and one whose last turn end came before the pause or after the caller
resumed (its own barge-in or its own timing). A turn end before ``t`` is the agent's: it fell in
the line's natural pause, which a person leaves too. A record without agent turn ends (EVA
logs, an external agent whose VAD the harness does not see) leaves the second clause no
evidence, and such speech is scored as before.

* The gate (``user_pacing_fidelity``, a validation metric) fails the record, so the run
  regenerates the conversation with that reason: the agent answered half a line, or a line
  not yet begun, and everything after is a different conversation.
* ``turn_taking`` does not score the turn whose answer that agent speech began (its first agent
  speech), nor, for speech started inside the pause, the turn the rest of the line opens by
  cutting in on it: neither the agent's latency to half a line nor its yield to a caller who
  resumed a stalled line is the agent's timing. They are left out of the mean and of the
  latency and interruption rates, and listed in the details (``harness_pause_turns``). Agent
  speech later in a turn (the agent going on while the caller's next line was held before its
  first word) leaves that turn's timing, measured before the pause, scored.
"""

from __future__ import annotations

import bisect
from typing import Any

from voxbench.eval.context import ConversationContext

RULE = "agent speech started, or decided by the agent's turn end, inside a harness pause of the caller's line"


def _withdrawn_unsaid(ctx: ConversationContext, pause: dict[str, Any]) -> bool:
    """Whether the pause held a line before its first word and the caller then withdrew that line
    unsaid (a ``caller_act`` of kind ``withdrawn`` with its text, after the pause began)."""
    return pause["sentence"] == 0 and any(
        a.get("kind") == "withdrawn" and a.get("text") == pause["line"] and a.get("t", 0.0) >= pause["t"]
        for a in ctx.caller_acts
    )


def _pause_at(ctx: ConversationContext, t: float) -> dict[str, Any] | None:
    for p in ctx.harness_pauses or ():
        if p["t"] <= t <= p["t"] + p["duration_s"] and not _withdrawn_unsaid(ctx, p):
            return p
    return None


def _decided_in_pause(
    ctx: ConversationContext, onset: float, onsets: list[float]
) -> tuple[dict[str, Any], float] | None:
    """The pause (and the turn end in it) that decided agent speech starting at ``onset`` after
    the pause ended: the rule's second clause. ``onsets``: every agent speech onset, sorted."""
    ends = ctx.agent_turn_ends
    i = bisect.bisect_right(ends, onset)
    if i == 0:
        return None
    decided = ends[i - 1]
    p = _pause_at(ctx, decided)
    if p is None or onset <= p["t"] + p["duration_s"]:
        return None
    j = bisect.bisect_right(onsets, decided)
    if j < len(onsets) and onsets[j] < onset:
        return None  # the agent spoke since that turn end: this speech is not the one it decided
    return p, decided


def harness_agent_speech(ctx: ConversationContext) -> list[dict[str, Any]]:
    """Each agent speech session the rule gives to the harness: its turn, onset and end, whether
    it is the turn's first agent speech, the pause (``t``, ``duration_s``, ``sentence``,
    ``line``) and ``decided_at`` (the agent's turn end in the pause; None when its voice
    started inside the pause)."""
    if not ctx.harness_pauses:
        return []
    out: list[dict[str, Any]] = []
    turns = ctx.audio_timestamps_assistant_turns
    onsets = sorted(s for segs in turns.values() for s, _ in segs)
    for turn, segs in sorted(turns.items()):
        first = min(s for s, _ in segs)
        for start, end in segs:
            p, decided = _pause_at(ctx, start), None
            if p is None:
                hit = _decided_in_pause(ctx, start, onsets)
                if hit is None:
                    continue
                p, decided = hit
            out.append(
                {"turn": turn, "agent_start": start, "agent_end": end, "pause": p,
                 "first": start == first, "decided_at": decided}
            )  # fmt: skip
    return out


def harness_paused_turns(ctx: ConversationContext) -> dict[int, dict[str, Any]]:
    """Turns whose timing a harness pause decided (module docstring), with why."""
    out: dict[int, dict[str, Any]] = {}
    cut_in = set(ctx.user_interrupted_turns)
    for s in harness_agent_speech(ctx):
        why = {"agent_start": round(s["agent_start"], 3), "pause_t": round(s["pause"]["t"], 3),
               "pause_s": round(s["pause"]["duration_s"], 3)}  # fmt: skip
        if s["decided_at"] is not None:
            why["agent_turn_end"] = round(s["decided_at"], 3)
            if s["first"]:
                out.setdefault(s["turn"], {**why, "role": "the agent's answer was decided in the pause"})
            continue
        if s["first"]:
            out.setdefault(s["turn"], {**why, "role": "the agent's answer started in the pause"})
        nxt = s["turn"] + 1
        resumed = ctx.audio_timestamps_user_turns.get(nxt) or []
        if nxt in cut_in and resumed and s["pause"]["t"] <= resumed[0][0] <= s["agent_end"]:
            out.setdefault(nxt, {**why, "role": "the held line's words cut in on that agent speech"})
    return out


def _claim(s: dict[str, Any]) -> str:
    p = s["pause"]
    where = f"a {p['duration_s']:.2f} s harness pause from {p['t']:.2f} s before sentence {p['sentence']} of {p['line'][:120]!r}"
    if s["decided_at"] is None:
        return f"agent spoke at {s['agent_start']:.2f} s, inside {where}"
    return (
        f"agent spoke at {s['agent_start']:.2f} s, after the caller resumed, on a turn end at "
        f"{s['decided_at']:.2f} s inside {where}"
    )


def gate_rows(ctx: ConversationContext) -> list[dict[str, Any]]:
    """The validator's evidence, as the gate shows it (turn, claim, rule)."""
    return [{"turn": s["turn"], "claim": _claim(s), "rule": RULE} for s in harness_agent_speech(ctx)]
