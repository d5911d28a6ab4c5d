"""A voxbench conversation as a timeline: speech stamps of both sides plus `caller_act` events.

Caller speech is every span of the caller's turns (stamped from the samples) and every act the
caller injected (`t` to `t + duration_s`): barge-ins are real interruptions, backchannels are
segments whose action is `backchannel`, vocal tics and side speech (τ-voice's non-directed
speech) are speech inserts. An insert whose audio is the only caller speech around it is an
*out-of-turn* effect, as τ-voice's injected source effects are; one inside a real caller turn
is an effect active during that segment.
"""

from __future__ import annotations

from typing import Any

from voxbench.eval.context import ConversationContext
from voxbench.eval.tau_voice.timeline import Effect, Timeline, UserSegment

ACT_EFFECTS = {"vocal_tic": "vocal_tic", "side_speech": "non_directed"}
"""caller_act kinds -> the panel's effect kinds (voxbench's side speech is τ-voice's non-directed)."""
SPEECH_ACTS = ("barge_in", "backchannel")
TOL_S = 0.2
"""How far a caller_act's stamp (when the clip was mixed in) may sit from the speech onset
stamped from the samples (the clip's leading silence, the detector's onset)."""

Span = tuple[float, float]


def merge(spans: list[Span]) -> list[Span]:
    """Union of half-open spans (touching spans join: no silence between them)."""
    out: list[Span] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _flat(turns: dict[int, list[tuple[float, float]]]) -> list[Span]:
    return [(float(s), float(e)) for spans in turns.values() for s, e in spans if e > s]


def _act_span(a: dict[str, Any]) -> Span:
    t = float(a["t"])
    return (t, t + max(float(a.get("duration_s") or 0.0), 0.0))


def _owned(span: Span, act: Span) -> bool:
    """A caller speech span that is this act's own audio (starts and ends with it)."""
    return span[0] >= act[0] - TOL_S and span[1] <= act[1] + TOL_S


def native_timeline(ctx: ConversationContext) -> Timeline:
    """The conversation at the stamps' own resolution."""
    speech = _flat(ctx.audio_timestamps_user_turns)
    acts = [a for a in ctx.caller_acts if a.get("kind") in (*SPEECH_ACTS, *ACT_EFFECTS)]
    speech += [_act_span(a) for a in acts if a["kind"] in SPEECH_ACTS]
    effects: list[Effect] = []
    in_turn: list[tuple[Span, str]] = []
    for a in (a for a in acts if a["kind"] in ACT_EFFECTS):
        span, kind = _act_span(a), ACT_EFFECTS[a["kind"]]
        touching = [s for s in speech if s[0] < span[1] + TOL_S and span[0] < s[1] + TOL_S]
        if all(_owned(s, span) for s in touching):
            speech = [s for s in speech if s not in touching]
            effects.append(Effect(span[0], max(span[1], span[0]), kind))  # type: ignore[arg-type]
        else:
            in_turn.append((span, kind))
    backchannels = [float(a["t"]) for a in acts if a["kind"] == "backchannel"]
    users = []
    for s, e in merge([sp for sp in speech if sp[1] > sp[0]]):
        action = "backchannel" if any(s <= t <= s + TOL_S for t in backchannels) else "generate_message"
        kinds = frozenset(k for (a, b), k in in_turn if a < e and s < b)
        users.append(UserSegment(s, e, action, kinds))
    agent = tuple(merge(_flat(ctx.audio_timestamps_assistant_turns)))
    return Timeline(tuple(users), agent, tuple(sorted(effects, key=lambda x: x.start)))
