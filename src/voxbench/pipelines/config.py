"""Nested, bounded configuration of one live call (pure pydantic).

``TraceSimConfig`` (processors/trace_config.py), ``VADConfig`` and ``WireConfig``
(transports/config.py) live next to what they configure and are re-exported here.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from voxbench.pipelines.caller.registry import DEFAULT_CALLER, check_caller_kind
from voxbench.processors.onset_config import OnsetConfig
from voxbench.processors.trace_config import TraceSimConfig
from voxbench.transports.config import VADConfig, WireConfig

__all__ = [
    "AgentConfig",
    "CallConfig",
    "LLMSimConfig",
    "LimitsConfig",
    "OnsetConfig",
    "SimulatorConfig",
    "TraceSimConfig",
    "TurnConfig",
    "VADConfig",
    "WireConfig",
]


class _Cfg(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TurnConfig(_Cfg):
    """End-of-turn detection: smart-turn v3 (bundled ONNX) or a plain silence timeout."""

    smart_turn: bool = True
    speech_timeout_s: float = Field(default=0.6, ge=0, le=5, description="used when smart_turn is off")


class AgentConfig(_Cfg):
    kind: Literal["cascade"] = "cascade"
    greeting: str | None = "Hello! How can I help you today?"
    pre_tool_speech: str | None = Field(
        default="One moment please.", description="said before a tool call when the LLM said nothing first"
    )
    transfer_message: str = "Transferring you to a live agent. Please wait."
    warm_up: bool = Field(default=True, description="prime the LLM's prompt cache before the call starts")
    turn_end_fallback_s: float | None = Field(
        default=None,
        ge=1.0,
        description="cascade agents: nudge the LLM to re-prompt after this much caller silence following "
        "the agent's turn (EVA's turn_end_fallback_time; recorded as fallback_nudge, scored 0); None = off",
    )
    vad: VADConfig = Field(default_factory=VADConfig)
    turn: TurnConfig = Field(default_factory=TurnConfig)


class LLMSimConfig(_Cfg):
    no_greeting_s: float = Field(default=6.0, gt=0, le=60)
    turn: TurnConfig = Field(default_factory=TurnConfig)
    reply_format: Literal["json", "tools"] = Field(
        default="json",
        description="json: grammar-constrained {customer_says, end_call} after a transcript of the call "
        "(small local models stay in character); tools: chat context + a native end_call tool (cloud models)",
    )
    wait_on_hold: bool = Field(
        default=True, description="no reply to an agent turn that only asks to wait ('One moment please.')"
    )
    hangup_wait_s: float = Field(
        default=15.0, gt=0, le=120, description="longest wait for the goodbye to be spoken before hanging up"
    )
    warm_up: bool = Field(
        default=True, description="prime the caller LLM's prompt cache before the call starts"
    )
    give_up_after_says: int | None = Field(
        default=2,
        ge=1,
        description="json format: instead of saying a line more often than this, say give_up_line and hang "
        "up (small models loop at temperature 0); None = never",
    )
    give_up_line: str = "Sorry, this isn't getting anywhere. I'll call back later. Goodbye."
    retry_echoes: bool = Field(
        default=True,
        description="json format: a reply echoing the agent's last turn is asked for once more, cued "
        "against it (small models parrot)",
    )


class GoalSimConfig(_Cfg):
    """The goal caller live (``pipelines/caller/goal_live.py``): how it hears turns and hangs up."""

    no_greeting_s: float = Field(
        default=10.0, gt=0, le=60, description="open first if the agent has not started speaking by then"
    )
    turn: TurnConfig = Field(default_factory=TurnConfig)
    statement_wait_s: float = Field(
        default=5.0,
        ge=0,
        le=60,
        description="after an agent turn that asks nothing (a statement, a hold, 'Done.'), reply only once "
        "the agent has been quiet this long: a small local agent pauses seconds between its sentences",
    )
    done_wait_s: float = Field(
        default=2.0,
        ge=0,
        le=60,
        description="the same, shorter, for a statement that completes every request the caller has ('The "
        "bag has been added to the booking.'): whatever the agent adds, the caller's reply is its goodbye, "
        "so waiting statement_wait_s only adds dead air (live bb.1: 8 s before 'Perfect, thanks. Bye.'); a "
        "beat is kept so an 'Anything else?' after a short pause is not talked over. Capped by "
        "statement_wait_s; fragments keep fragment_wait_s",
    )
    fragment_wait_s: float = Field(
        default=12.0,
        ge=0,
        le=120,
        description="the same for a piece of a sentence ('information.') or one or two words ('Sure.'): "
        "under load the agent's audio has gaps inside its sentences",
    )
    agent_quiet_s: float = Field(
        default=1.0,
        ge=0,
        le=10,
        description="reply only once the agent's voice has been quiet this long (from its VAD stop), "
        "whatever the turn asks: the turn detector can end the agent's turn at the pause between two "
        "of its sentences, and an answer to the first then talks over the second and is followed by "
        "a second answer (live bb.2). Measured on live calls with the local agent: 68 % of the pauses "
        "inside one agent turn are under 0.8 s, 77 % under 1.2 s; none of 180 agent replies started "
        "within 0.8 s of the caller's last words. Live, whisper's own latency covers most of it",
    )
    yields_to_agent: bool = Field(
        default=False,
        description="stop speaking when the agent starts (pipecat's interruption); off: the caller finishes "
        "its line (live bb.3: the agent's trailing 'Please.' cut the caller's code and name, then the agent "
        "asked for them again)",
    )
    hangup_wait_s: float = Field(
        default=15.0, gt=0, le=120, description="longest wait for the goodbye to be spoken before hanging up"
    )
    silence_check_s: float = Field(
        default=25.0,
        gt=0,
        le=300,
        description="after the caller's last act, agent silence this long gets 'Are you still there?', and "
        "the same again a goodbye (off unless it is 10 s under the call's inactivity limit)",
    )


CallerKind = Annotated[str, AfterValidator(check_caller_kind)]
"""A registered caller kind (``pipelines/caller/registry.py``); an unknown one fails naming them."""


class SimulatorConfig(_Cfg):
    """The simulated caller of a call: its kind (the registry's default when none is named)
    and each kind's knobs."""

    kind: CallerKind = DEFAULT_CALLER
    vad: VADConfig = Field(default_factory=VADConfig)
    trace: TraceSimConfig = Field(default_factory=TraceSimConfig)
    llm: LLMSimConfig = Field(default_factory=LLMSimConfig)
    goal: GoalSimConfig = Field(default_factory=GoalSimConfig)


class LimitsConfig(_Cfg):
    time_limit_s: float = Field(default=600.0, gt=0)
    inactivity_s: float = Field(default=45.0, gt=0, description="no speech on either channel for this long")
    drain_s: float = Field(default=6.0, ge=0, description="let the last words play out before hanging up")
    shutdown_timeout_s: float = Field(default=10.0, gt=0)


class CallConfig(_Cfg):
    """Everything about one call except the services (injected) and the scenario."""

    lang: str = "en"
    wire: WireConfig = Field(default_factory=WireConfig)
    agent: AgentConfig = Field(default_factory=AgentConfig)
    simulator: SimulatorConfig = Field(default_factory=SimulatorConfig)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    onset: OnsetConfig = Field(default_factory=OnsetConfig)
    post_call_transcribe_agent: bool = Field(
        default=True,
        description="after the call, transcribe the agent's recorded speech with the local whisper "
        "(transcript source post_call) when nothing transcribed it live (trace caller, external "
        "agents), so the offline speech-fidelity metrics can score it; skipped if whisper is absent",
    )
