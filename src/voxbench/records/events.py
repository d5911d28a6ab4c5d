"""Typed conversation events, one clock: `t` is seconds since the conversation started.

Every event says which pipeline observed it (`side`: the agent under test or the user
simulator) and, where it concerns audio or text, whose voice it is (`channel`). Events
are a discriminated union on `type`, written one per line to `events.jsonl`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

Side = Literal["agent", "user", "harness"]
Channel = Literal["agent", "user"]


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid")

    t: float = Field(description="seconds since conversation start (one monotonic clock)")
    side: Side = "harness"


class AudioSegment(_Event):
    """A bot started/stopped sending audio (pipeline level: TTS output began/ended)."""

    type: Literal["audio_segment"] = "audio_segment"
    channel: Channel
    state: Literal["start", "end"]


class Speech(_Event):
    """Speech onset/offset stamped from the audio samples themselves (energy-based).

    Sample-accurate, unlike VAD decisions that arrive 100+ ms late; turn-taking uses these.
    """

    type: Literal["speech"] = "speech"
    channel: Channel
    state: Literal["onset", "offset"]
    level_db: float | None = None


class VADEvent(_Event):
    """A VAD decision (Silero or webrtcvad) on one channel, as a listener heard it."""

    type: Literal["vad"] = "vad"
    channel: Channel
    state: Literal["start", "stop"]
    engine: str = "silero"


class BargeIn(_Event):
    """`channel` started speaking while the other channel was speaking."""

    type: Literal["barge_in"] = "barge_in"
    channel: Channel


class Yield(_Event):
    """`channel` stopped its own speech because the other side barged in."""

    type: Literal["yield"] = "yield"
    channel: Channel


class Transcript(_Event):
    """An STT result: what a listener heard `channel` say.

    ``source="live"``: a pipeline's recogniser during the call (side agent, channel user is
    the agent's own STT of the caller). ``"post_call"``: the harness transcribed the
    recorded audio after the call (side harness), because nothing heard that channel
    live; it is evidence of what was said, never of what the agent understood.
    """

    type: Literal["transcript"] = "transcript"
    channel: Channel
    text: str
    final: bool = True
    source: Literal["live", "post_call"] = "live"


class LLMText(_Event):
    """A complete LLM response text for one turn (before TTS)."""

    type: Literal["llm_text"] = "llm_text"
    channel: Channel
    text: str


class TTSText(_Event):
    """Text handed to TTS, i.e. what `channel` intended to say out loud."""

    type: Literal["tts_text"] = "tts_text"
    channel: Channel
    text: str


class Utterance(_Event):
    """A whole intended utterance of a turn (what was meant, before speech and STT)."""

    type: Literal["utterance"] = "utterance"
    channel: Channel
    text: str
    interrupted: bool = False


GoalActKind = Literal[
    "open",
    "answer",
    "choose",
    "confirm",
    "correct",
    "refuse",
    "wait",
    "acknowledge",
    "decline_transfer",
    "accept_transfer",
    "cannot_answer",
    "state_request",
    "pushback",
    "report",
    "check_in",
    "end",
    "withdrawn",
]
"""What a goal-directed caller decided in one turn (``pipelines/caller/goal``). ``withdrawn`` is
no decision: the live driver held an act's words because the agent started speaking before their
audio did (the act's own event stays in the trail; the withdrawal, at its own time, says its words
were never said)."""


class CallerAct(_Event):
    """Something the caller did, and (for the goal caller) why.

    Perturbation behaviour: ``barge_in``: it cut in on purpose (the agent should yield);
    ``backchannel`` ("mm-hmm"), ``side_speech`` (talking to someone else) and ``vocal_tic``
    ("um", "ahem"): the agent should NOT yield, nor answer the last two in silence
    (``agent_speaking`` false); ``pause``: a mid-line pause of ``duration_s``. ``t`` is when the act's audio started.

    Goal caller decisions (:data:`GoalActKind`, one per caller turn): ``rule`` is the policy rule
    that decided it, ``rules`` every rule and classifier match that fired, ``classifier`` says
    whether deterministic rules or an LLM choice classified the agent's turn, ``heard`` what
    the agent's turn was taken for, ``facts`` the goal's fact keys disclosed, ``choice`` the option
    chosen or yes/no, ``ends_call`` whether the act hangs up. ``agent_turn`` counts the agent
    turns heard before it.
    """

    type: Literal["caller_act"] = "caller_act"
    channel: Channel = "user"
    kind: Literal["barge_in", "backchannel", "side_speech", "vocal_tic", "pause"] | GoalActKind
    text: str = ""
    duration_s: float = 0.0
    agent_turn: int | None = None
    agent_speaking: bool = False
    rule: str = ""
    rules: list[str] = Field(default_factory=list)
    classifier: str = ""
    heard: list[str] = Field(default_factory=list)
    facts: list[str] = Field(default_factory=list)
    choice: str = ""
    ends_call: bool = False


class ToolCall(_Event):
    type: Literal["tool_call"] = "tool_call"
    call_id: str
    name: str
    arguments: dict[str, Any] | str


class ToolResult(_Event):
    type: Literal["tool_result"] = "tool_result"
    call_id: str
    name: str
    status: str
    result: dict[str, Any]


class ConnectionEvent(_Event):
    type: Literal["connection"] = "connection"
    state: Literal["connected", "disconnected", "error"]
    detail: str = ""


class StageTiming(_Event):
    """Per-stage latency where the pipeline exposes it (STT, LLM TTFT, TTS TTFB)."""

    type: Literal["stage_timing"] = "stage_timing"
    stage: Literal["stt", "llm_ttft", "llm_total", "tts_ttfb", "tool"]
    seconds: float
    processor: str = ""


class UsageEvent(_Event):
    """Token usage of one LLM call (cost estimated from it).

    `completion_tokens` includes any reasoning tokens; `reasoning_tokens` is None when the
    provider did not report them (most non-reasoning models), never an invented 0.
    """

    type: Literal["usage"] = "usage"
    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int | None = None


class FallbackNudge(_Event):
    """The agent was nudged to speak again (EVA's turn-end fallback): it had finished its
    turn and the caller stayed silent for `silence_s`. The turn it opens scores 0 in
    turn_taking, so an agent that needs nudging is not rewarded for the silence."""

    type: Literal["fallback_nudge"] = "fallback_nudge"
    side: Side = "agent"
    silence_s: float


class HarnessPause(_Event):
    """A silence the harness put into the caller's line: from ``t`` for ``duration_s``.

    The caller's voice released the line late (``pipelines/services/playout.py``, a machine
    slower than real time): before sentence ``sentence`` (0: before the first word) the line
    was silent ``duration_s`` longer than its natural pause (the voice's own sentence pause;
    before the first word, ``LEAD_IN_S`` from the decision). ``line`` is the text the caller's
    TTS was given. A line withdrawn or cut off while held ends its pause there: ``duration_s``
    is the part that played. An agent that starts speaking in it answered a caller the harness
    stalled (``voxbench.eval.harness_pauses`` has what the gate and turn_taking do with that)."""

    type: Literal["harness_pause"] = "harness_pause"
    side: Side = "user"
    channel: Channel = "user"
    duration_s: float = Field(ge=0.0)
    sentence: int = Field(default=0, ge=0)
    line: str = ""


class PacingEvent(_Event):
    """Audio pacing health over a window: overload shows up in the data, not silently."""

    type: Literal["pacing"] = "pacing"
    underruns: int = 0
    late_chunks: int = 0
    max_lateness_ms: float = 0.0


class ErrorEvent(_Event):
    type: Literal["error"] = "error"
    source: str
    message: str
    fatal: bool = False


class EndEvent(_Event):
    type: Literal["end"] = "end"
    reason: str


Event = Annotated[
    AudioSegment
    | Speech
    | VADEvent
    | BargeIn
    | Yield
    | Transcript
    | LLMText
    | TTSText
    | Utterance
    | CallerAct
    | ToolCall
    | ToolResult
    | ConnectionEvent
    | StageTiming
    | UsageEvent
    | FallbackNudge
    | HarnessPause
    | PacingEvent
    | ErrorEvent
    | EndEvent,
    Field(discriminator="type"),
]

_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def parse_event(data: dict[str, Any] | str | bytes) -> Event:
    """Parse one event from a dict or a JSON line."""
    if isinstance(data, str | bytes):
        return _ADAPTER.validate_json(data)
    return _ADAPTER.validate_python(data)
