"""The conversation context every metric reads, and turn segmentation (EVA §3.1).

Both record formats (voxbench's typed events, EVA's log folders) are first flattened to
a list of `HEvent`s on one clock in seconds, then `segment()` cuts turns:

* turn 0 is the greeting (assistant speech before the caller's first speech); a caller
  who speaks first opens turn 1 (EVA keeps them in turn 0: `caller_first_is_turn_1`);
* a caller speech session starts a new turn when the assistant has spoken since the
  last advance (the caller's first session always starts turn 1);
* voxbench records: caller sessions that carry no caller text are dropped first (a
  noise burst is not a turn), unless the record has no caller text at all;
* EVA logs (`eva_turns`, on with `final_agent_cut`): the agent's STT of the caller can
  open a turn too (except the chunk finishing an utterance the agent cut into), and
  caller audio the simulator logged no speech for rolls back into the turn the caller's
  words open (`voxbench.eval.turn_clock` has these rules and why they are EVA-only);
* `assistant_interrupted_turns`: an assistant session starts while a caller session is
  open and that caller session began in the current turn (the agent barged in);
* `user_interrupted_turns`: a caller session starts while an assistant session is open;
  the new turn gets the flag;
* text events attach to the speech session of their channel nearest in time (distance
  0 inside the session), so early intended texts and late transcripts land on the turn
  whose audio they belong to; texts with no audio at all fall back to the turn clock;
* tool calls, tool results and fallback nudges belong to the turn current at their
  time; a fallback nudge opens a new (assistant-only) turn, scored 0 by turn_taking;
* the turn texts carry inline interruption tags from the session timing
  (`voxbench.eval.tags` has the rules for all seven).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from voxbench.eval.sessions import TEXT_KINDS, HEvent, NearestIndex, Session, Who, pair_sessions
from voxbench.eval.tags import TAG_CUT_BY_ASSISTANT, tagged_texts
from voxbench.eval.turn_clock import TurnClock, run_turn_clock
from voxbench.eval.turn_texts import build_trace, speaker_turn_keys, untranscribed_last_turn

__all__ = ["TEXT_KINDS", "ConversationContext", "HEvent", "ToolCallInfo", "Who", "segment", "strip_tags"]


@dataclass
class ToolCallInfo:
    turn_id: int
    name: str
    params: Any
    response: dict[str, Any] | None = None
    status: str | None = None
    error_type: str | None = None
    t: float = 0.0


@dataclass
class ConversationContext:
    """Everything metrics read about one conversation (EVA's MetricContext, plus ours)."""

    record_id: str
    scenario_id: str = ""
    trial: int = 0
    domain: str = ""
    language: str = "en"
    pipeline_type: str = "cascade"
    source: str = "voxbench"
    status: str = "completed"
    error: str | None = None
    conversation_ended_reason: str | None = None
    simulator_ended_call: bool | None = None
    transcribed_user_turns: dict[int, str] = field(default_factory=dict)
    intended_user_turns: dict[int, str] = field(default_factory=dict)
    intended_assistant_turns: dict[int, str] = field(default_factory=dict)
    transcribed_assistant_turns: dict[int, str] = field(default_factory=dict)
    audio_timestamps_user_turns: dict[int, list[tuple[float, float]]] = field(default_factory=dict)
    audio_timestamps_assistant_turns: dict[int, list[tuple[float, float]]] = field(default_factory=dict)
    latency_assistant_turns: dict[int, float] = field(default_factory=dict)
    assistant_interrupted_turns: list[int] = field(default_factory=list)
    user_interrupted_turns: list[int] = field(default_factory=list)
    fallback_turn_ids: list[int] = field(default_factory=list)
    conversation_trace: list[dict[str, Any]] = field(default_factory=list)
    tool_calls: list[ToolCallInfo] = field(default_factory=list)
    num_turns: int = 0
    stage_latencies: dict[str, list[float]] = field(default_factory=dict)
    output_tokens: list[int] = field(default_factory=list)
    """Completion tokens per agent LLM response that reported usage."""
    reasoning_tokens: list[int] = field(default_factory=list)
    """Reasoning tokens per agent LLM response that reported them (absent, not 0, otherwise)."""
    pretool_speech_rate: float | None = None
    stt_fallback_turns: list[int] = field(default_factory=list)
    """Caller turns the agent never transcribed (the call ended first): their transcribed
    text is the intended text, as in EVA."""
    expected_db: dict[str, Any] | None = None
    initial_db: dict[str, Any] | None = None
    final_db: dict[str, Any] | None = None
    final_db_hash: str | None = None
    user_goal: dict[str, Any] = field(default_factory=dict)
    user_persona: str = ""
    agent_instructions: str = ""
    agent_role: str = ""
    agent_tools: list[dict[str, Any]] = field(default_factory=list)
    current_date_time: str = ""
    audio_paths: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    caller_acts: list[dict[str, Any]] = field(default_factory=list)
    """Perturbation caller behaviour (`caller_act` events): t, kind, text, agent_turn, agent_speaking."""
    yields: list[tuple[float, str]] = field(default_factory=list)
    """(t, channel) of `yield` events: `channel` fell silent after the other side barged in."""
    harness_pauses: list[dict[str, Any]] | None = None
    """`harness_pause` events (t, duration_s, sentence, line): silences the harness put into the
    caller's lines. None: the record cannot say (EVA logs, voxbench records before schema 1.2)."""
    agent_turn_ends: list[float] = field(default_factory=list)
    """When the agent's own turn detection heard the caller stop (its VAD's `stop` decisions on
    the caller's channel, `vad` events of side agent), sorted. Empty when the record has none
    (EVA logs, an external agent whose VAD the harness does not see)."""

    @property
    def num_assistant_turns(self) -> int:
        return len(self.audio_timestamps_assistant_turns) or len(self.intended_assistant_turns)

    @property
    def num_user_turns(self) -> int:
        return len(self.audio_timestamps_user_turns) or len(self.transcribed_user_turns)

    def last_audio_speaker(self) -> Who | None:
        ends: list[tuple[float, Who]] = []
        for who, segs in (
            ("user", self.audio_timestamps_user_turns),
            ("assistant", self.audio_timestamps_assistant_turns),
        ):
            for lst in segs.values():
                ends.extend((e, who) for _, e in lst)  # type: ignore[misc]
        return max(ends)[1] if ends else None

    def is_agent_timeout_on_user_turn(self) -> bool:
        """EVA: inactivity timeout while the caller spoke last (the agent never answered)."""
        return self.conversation_ended_reason == "inactivity_timeout" and self.last_audio_speaker() == "user"

    def tool_turns(self) -> set[int]:
        """Turns with a tool call: the parsed calls, and (EVA's rule) every turn whose
        conversation trace has a `tool_call` entry, for a context given only a trace."""
        trace = {e.get("turn_id") for e in self.conversation_trace or () if e.get("type") == "tool_call"}
        return {c.turn_id for c in self.tool_calls} | {t for t in trace if isinstance(t, int)}

    def to_dict(self) -> dict[str, Any]:
        """A deep copy as plain data, without the three databases."""
        d = asdict(self)
        for k in _DB_FIELDS:
            d.pop(k, None)
        return d

    def json_view(self) -> dict[str, Any]:
        """The same content as `to_dict()` for serializing at once: it shares the context's
        containers instead of deep-copying them (the copy cost more than scoring a record),
        so it must not be mutated."""
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _DB_FIELDS}
        d["tool_calls"] = [{f.name: getattr(c, f.name) for f in _TOOL_CALL_FIELDS} for c in self.tool_calls]
        return d


_DB_FIELDS = ("expected_db", "initial_db", "final_db")
_TOOL_CALL_FIELDS = fields(ToolCallInfo)


# ---------------------------------------------------------------------------- segmentation


_TAG_RE = re.compile(r"\[[^\]]*\]")


def strip_tags(text: str) -> str:
    r"""Tags out, whitespace collapsed: `re.sub(r"\s+", " ", ...).strip()` as a split and
    join (the regex's `\s` is exactly `str.isspace()`; a test checks every code point)."""
    if "[" in text:
        text = _TAG_RE.sub(" ", text)
    return " ".join(text.split())


def segment(
    events: list[HEvent],
    ctx: ConversationContext,
    drop_empty_user_sessions: bool = True,
    caller_first_is_turn_1: bool = True,
    final_agent_cut: bool = False,
    eva_turns: bool | None = None,
) -> None:
    """Fill the turn-level fields of `ctx` from a flattened history (see module doc).

    `caller_first_is_turn_1=False` is EVA's rule: a caller who speaks before any agent
    speech stays in turn 0 (EVA assumes a greeting). `final_agent_cut=True` is EVA's
    tagging of a conversation that ends on agent speech (`voxbench.eval.tags`).
    `eva_turns` (default: as `final_agent_cut`, both mean "EVA's logs") applies EVA's
    turn clock for STT chunks and empty caller sessions (`voxbench.eval.turn_clock`):
    EVA's audit log stamps a caller entry when the agent takes the words as its turn,
    while voxbench stamps a transcript when it arrives, which for a speech-to-speech
    model's transcription is often after its reply began."""
    events = sorted(events, key=lambda e: e.t)  # stable: source order breaks ties
    end_t = events[-1].t if events else 0.0
    record_end = max((e.t for e in events if e.kind == "end"), default=None)
    sessions = pair_sessions(events, end_t)
    by_who: dict[str, list[Session]] = {
        "user": [s for s in sessions if s.who == "user"],
        "assistant": [s for s in sessions if s.who == "assistant"],
    }
    orphan_texts, stt_chunks = _texts_into_sessions(events, by_who)
    eva = final_agent_cut if eva_turns is None else eva_turns
    has_user_text = any(s.texts for s in by_who["user"])
    if drop_empty_user_sessions and has_user_text and not eva:
        sessions = [s for s in sessions if s.who == "assistant" or s.texts]
    kept = {id(s) for s in sessions}
    tc = run_turn_clock(
        events,
        sorted(sessions, key=lambda s: s.start),
        [(ev, s) for ev, s in stt_chunks if id(s) in kept] if eva else [],
        orphan_texts,
        cascade=ctx.pipeline_type == "cascade",
        caller_first_is_turn_1=caller_first_is_turn_1,
        eva=eva,
    )
    clock = tc.clock
    moved: list[tuple[int, HEvent]] = []
    for ev, s in stt_chunks:  # a chunk that opened a turn is that turn's text, not its session's
        if (opened := tc.opened_by_stt.get(id(ev))) is not None:
            s.texts["user_transcribed"].remove((ev.t, ev.text.strip()))
            moved.append((opened, ev))
    clock_t = [c[0] for c in clock]

    def turn_at(t: float) -> int:
        return clock[bisect.bisect_right(clock_t, t) - 1][1]

    calls = _tool_calls(events, turn_at)
    tool_times: dict[int, list[float]] = {}
    for c in calls:
        tool_times.setdefault(c.turn_id, []).append(c.t)
    users: dict[int, list[tuple[float, float]]] = {}
    assts: dict[int, list[tuple[float, float]]] = {}
    for s in sessions:
        (users if s.who == "user" else assts).setdefault(s.turn, []).append((s.start, s.end))
    texts = tagged_texts(sessions, tool_times, record_end, final_agent_cut)
    for ev in orphan_texts:
        texts[ev.kind].setdefault(turn_at(ev.t), []).append((ev.t, ev.text.strip()))
    for turn, ev in moved:
        texts[ev.kind].setdefault(turn, []).append((ev.t, ev.text.strip()))

    _fill_turns(ctx, users, assts, texts, tc, calls)


def _texts_into_sessions(
    events: list[HEvent], by_who: dict[str, list[Session]]
) -> tuple[list[HEvent], list[tuple[HEvent, Session]]]:
    """Each text event put into its speaker's session: (texts no session took, the agent's STT
    chunks of the caller with their sessions, which the turn clock may move)."""
    near = {who: NearestIndex(ss) for who, ss in by_who.items()}
    orphan_texts: list[HEvent] = []
    stt_chunks: list[tuple[HEvent, Session]] = []
    for ev in events:
        if ev.kind in TEXT_KINDS and ev.text.strip():
            who = "user" if ev.kind.startswith("user") else "assistant"
            # the caller side's transcript of the agent is made after the agent's audio (it
            # belongs to the session that had started, not to a nearer next one); the
            # agent's STT of the caller is logged on the agent's clock, which may run ahead
            # of the caller's audio stamps, so it goes to the nearest session
            s = near[who].started_by(ev.t) if ev.kind == "assistant_transcribed" else near[who](ev.t)
            if s is None:
                orphan_texts.append(ev)
            else:
                s.texts.setdefault(ev.kind, []).append((ev.t, ev.text.strip()))
                if ev.kind == "user_transcribed":
                    stt_chunks.append((ev, s))
    return orphan_texts, stt_chunks


def _fill_turns(
    ctx: ConversationContext,
    users: dict[int, list[tuple[float, float]]],
    assts: dict[int, list[tuple[float, float]]],
    texts: dict[str, dict[int, list[tuple[float, str]]]],
    tc: TurnClock,
    calls: list[ToolCallInfo],
) -> None:
    """The turn-level fields of `ctx` from the sessions' spans, the turns' texts, the turn
    clock's interruptions and fallbacks, and the tool calls."""
    ctx.audio_timestamps_user_turns = {k: sorted(v) for k, v in sorted(users.items())}
    ctx.audio_timestamps_assistant_turns = {k: sorted(v) for k, v in sorted(assts.items())}
    ctx.latency_assistant_turns = {
        t: round(min(s for s, _ in assts[t]) - max(e for _, e in users[t]), 6)
        for t in sorted(users)
        if t in assts and t != 0
    }
    ctx.assistant_interrupted_turns = sorted(tc.assistant_interrupted)
    ctx.user_interrupted_turns = sorted(tc.user_interrupted)
    ctx.fallback_turn_ids = tc.fallback

    def joined(kind: str) -> dict[int, str]:
        return {
            t: " ".join(x for _, x in sorted(v, key=lambda p: p[0])) for t, v in sorted(texts[kind].items())
        }

    ctx.intended_user_turns = joined("user_intended")
    ctx.transcribed_user_turns = joined("user_transcribed")
    if ctx.pipeline_type == "cascade":
        untranscribed_last_turn(ctx)
    ctx.intended_assistant_turns = joined("assistant_intended")
    ctx.transcribed_assistant_turns = joined("assistant_transcribed")
    speaker_turn_keys(ctx, users, assts)
    ctx.tool_calls = calls
    turn_ids = [*users, *assts, *(c.turn_id for c in calls)]
    ctx.num_turns = max(turn_ids) if turn_ids else 0
    ctx.conversation_trace = build_trace(ctx, users, assts)
    # EVA writes "the agent cut the caller off" only into the trace the judges read, not
    # into the caller's turn texts (STT reference/hypothesis, intended text)
    for turns in (ctx.intended_user_turns, ctx.transcribed_user_turns):
        for t, text in turns.items():
            turns[t] = text.replace(f" {TAG_CUT_BY_ASSISTANT}", "").replace(TAG_CUT_BY_ASSISTANT, "")


def _tool_calls(events: list[HEvent], turn_at: Callable[[float], int]) -> list[ToolCallInfo]:
    """Tool calls with their responses (matched by name, in order), each in its turn."""
    calls: list[ToolCallInfo] = []
    pending: dict[str, list[ToolCallInfo]] = {}
    for ev in events:
        if ev.kind == "tool_call":
            c = ToolCallInfo(turn_id=turn_at(ev.t), name=ev.name, params=ev.data, t=ev.t)
            calls.append(c)
            pending.setdefault(ev.name, []).append(c)
        elif ev.kind == "tool_response":
            resp = ev.data if isinstance(ev.data, dict) else {"value": ev.data}
            q = pending.get(ev.name) or []
            if q:
                c = q.pop(0)
            else:
                c = ToolCallInfo(turn_id=turn_at(ev.t), name=ev.name, params=None, t=ev.t)
                calls.append(c)
            c.response = resp
            c.status = str(resp.get("status")) if resp.get("status") is not None else None
            c.error_type = resp.get("error_type") if c.status == "error" else None
    return calls
