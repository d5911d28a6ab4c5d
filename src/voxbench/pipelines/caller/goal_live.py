"""The goal caller live: hears the agent through its STT, decides by its goal, speaks with its voice.

The decision is :class:`~voxbench.pipelines.caller.goal.policy.GoalCaller`'s, the same one
`voxbench caller check` measures in text; this module only gives it ears, a mouth and a hand
on the phone:

    wire in -> (gap fill) -> STT -> turn detection -> GoalDriver -> hang-up -> TTS -> wire out

* **ears**: the caller's STT transcribes the agent and pipecat's user-turn aggregator (VAD +
  smart-turn or a silence timeout, ``GoalSimConfig.turn``) says when an agent turn has ended;
  its ``LLMContextUserTurnFrame`` carries the turn's words to the driver. No LLM runs: the
  aggregator's context frames are dropped.
* **decision**: at the end of each agent turn that asks something (or, for one that asks
  nothing yet, once the agent has stayed quiet: :class:`GoalDriver`) the driver asks the
  policy for one act over everything the agent said since the caller last spoke. The act's
  words (its phrasing seeded by the call's attempt seed) go to the TTS whole, and the act
  itself is recorded as a ``caller_act`` event: the rule that fired, every classifier match,
  the fact keys disclosed, the option chosen, whether it hangs up. A ``wait`` act (the agent
  asked to hold) says nothing.
* **hand on the phone**: an act that ends the call is followed by a :class:`HangUpFrame`;
  :class:`SpokenHangUp` ends the call through ``CallControl`` once the goodbye has been
  spoken, so the agent hears it whole.

If the agent has not started speaking after ``no_greeting_s``, the caller opens with its
starting utterance (a greeting that started late, as Piper's first audio can on loaded cores,
still gets the opening at its end, not over it).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from pipecat.frames.frames import (
    BotStoppedSpeakingFrame,
    CancelFrame,
    EndFrame,
    Frame,
    LLMContextFrame,
    LLMContextUserTurnFrame,
    StartFrame,
    TTSSpeakFrame,
    UserStartedSpeakingFrame,
    VADUserStartedSpeakingFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import LLMUserAggregator
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.turns.user_start import TranscriptionUserTurnStartStrategy, VADUserTurnStartStrategy

from voxbench.pipelines.caller.frame import caller_pipeline
from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.classify import ANYTHING_ELSE_OFFERED, classify
from voxbench.pipelines.caller.goal.policy import GoalCaller, GoalCallerConfig
from voxbench.pipelines.caller.registry import CallerBuild
from voxbench.pipelines.config import GoalSimConfig
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.turns import user_aggregator_params
from voxbench.processors.caller_turns import CallerHangUp, HangUpFrame
from voxbench.scenarios import Scenario

__all__ = [
    "GoalDriver",
    "SpokenHangUp",
    "build_goal_caller",
    "calls_for_reply",
    "goal_caller_for",
    "is_fragment",
    "reply_delay",
]


class SpokenHangUp(CallerHangUp):
    """:class:`CallerHangUp` for words given whole (``TTSSpeakFrame``) rather than LLM text:
    a goodbye with words is waited for until its audio has started, then played out."""

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        if isinstance(frame, TTSSpeakFrame) and direction == FrameDirection.DOWNSTREAM:
            self._words = bool(frame.text.strip())
            self._words_started = False
        await super().process_frame(frame, direction)


_MAY_GO_ON = {"statement", "completed", "readback", "hold"}
"""What an agent turn may be and still not be over: it asked nothing yet."""


def _may_go_on(caller: GoalCaller, agent_text: str) -> set[str] | None:
    """The kinds of a turn that asked nothing yet, or None when it calls for an answer at once."""
    if "?" in agent_text:
        return None
    if not caller.opened:
        return {"greeting"}  # "Hello." before "How can I help you?"
    heard = classify(agent_text, caller.book, caller.given)
    kinds: set[str] = set(heard.kinds)
    # 'If you have any other questions, feel free to ask.' asks nothing yet: the agent may go on
    waiting = kinds - {"anything_else"} if ANYTHING_ELSE_OFFERED in heard.rules else kinds
    return kinds if waiting <= _MAY_GO_ON else None


def calls_for_reply(caller: GoalCaller, agent_text: str) -> bool:
    """Whether the agent's words call for an answer at once (a question, a request, options,
    a goodbye...) rather than being a statement it may go on from after a pause."""
    return _may_go_on(caller, agent_text) is None


def is_fragment(agent_text: str) -> bool:
    """Words that cannot be a whole agent turn: STT heard a piece of a sentence ('information.',
    'with that.': lower-case start) or one or two words ('Sure.', 'I'm sorry.'). Under load the
    agent's audio comes with gaps inside its sentences, and each piece reaches the caller as a turn."""
    text = agent_text.strip()
    return bool(text) and (text[0].islower() or len(text.split()) <= 2)


def reply_delay(
    caller: GoalCaller,
    agent_text: str,
    statement_wait_s: float,
    fragment_wait_s: float,
    done_wait_s: float | None = None,
) -> float:
    """How long the agent must stay quiet before the caller answers ``agent_text`` (0: at once).
    A plain statement that is only a fragment waits longest: all the caller would say is "Okay.".
    One that completes every request waits ``done_wait_s`` (at most ``statement_wait_s``): the
    caller's reply is its goodbye whatever the agent adds."""
    kinds = _may_go_on(caller, agent_text)
    if kinds is None and not (caller.opened and "?" not in agent_text and is_fragment(agent_text)):
        return 0.0  # ('Please.', the tail of a request already answered, is no new request)
    if (kinds is None or kinds <= {"statement"}) and is_fragment(agent_text):
        return max(statement_wait_s, fragment_wait_s)
    if done_wait_s is not None and caller.would_finish(agent_text):
        return min(statement_wait_s, done_wait_s)
    return statement_wait_s


class GoalDriver(FrameProcessor):
    """Turns the agent's ended turns into goal-caller acts: words to speak, an event to record.

    A turn that asks something is answered at once. One that asks nothing yet ("Hello.",
    "Let me look that up.", "Done.") is answered only after ``statement_wait_s`` of agent
    silence (``done_wait_s`` when it completes every request the caller has): the small local agent pauses seconds between its sentences while it generates the
    next, and a caller that answered each sentence would talk into the next one and then answer
    the question again. If the agent speaks again first, the reply covers every agent turn since
    the caller last spoke. A piece of a sentence (:func:`is_fragment`) waits ``fragment_wait_s``:
    "Okay." to "information." is a line the agent talks over. ``on_act`` receives every act (the
    runner records it as a ``caller_act`` event); ``stats`` counts acts, silent waits, agent turns
    heard, replies deferred and the slowest decision (``decide_ms_max``).
    """

    def __init__(
        self,
        caller: GoalCaller,
        on_act: Callable[[CallerAct], None],
        waits: GoalSimConfig,
        stats: dict[str, int] | None = None,
        silence_check_s: float | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.caller = caller
        self.on_act = on_act
        self.no_greeting_s = waits.no_greeting_s
        self.statement_wait_s = waits.statement_wait_s
        self.fragment_wait_s = waits.fragment_wait_s
        self.done_wait_s = waits.done_wait_s
        self.silence_check_s = silence_check_s
        self.stats = stats if stats is not None else {}
        for key in (
            "acts",
            "waits",
            "agent_turns_heard",
            "replies_deferred",
            "decide_ms_max",
            "overlapped_asks",
        ):
            self.stats.setdefault(key, 0)
        self._heard: list[str] = []  # agent turns since the caller's last act
        self._line_in_flight: CallerAct | None = None  # an act whose words are not all said yet
        self._agent_spoke = False
        self._open_timer: asyncio.Task[None] | None = None
        self._reply_timer: asyncio.Task[None] | None = None
        self._silence_timer: asyncio.Task[None] | None = None

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, StartFrame):
            await self.push_frame(frame, direction)
            self._open_timer = self.create_task(self._open_unless_greeted())
            return
        if isinstance(frame, EndFrame | CancelFrame):
            await self._cancel_timers()
        elif isinstance(frame, UserStartedSpeakingFrame | VADUserStartedSpeakingFrame):
            self._agent_spoke = True
            await self._cancel_reply_timer()  # the agent goes on: its whole turn gets the reply
            await self._cancel_silence_timer()
        elif isinstance(frame, BotStoppedSpeakingFrame):
            self._line_in_flight = None  # its own line has been said
            if self._silence_timer is not None:
                await self._start_silence_timer()  # the silence counts from the end of its own line
        if isinstance(frame, LLMContextUserTurnFrame):
            if direction == FrameDirection.DOWNSTREAM:
                await self._agent_turn(frame.text)
            return
        if isinstance(frame, LLMContextFrame):
            return  # no LLM here: the policy decides on the turn's words
        await self.push_frame(frame, direction)

    async def _cancel_reply_timer(self) -> None:
        if self._reply_timer is not None:
            await self.cancel_task(self._reply_timer)
            self._reply_timer = None

    async def _cancel_silence_timer(self) -> None:
        if self._silence_timer is not None:
            await self.cancel_task(self._silence_timer)
            self._silence_timer = None

    async def _start_silence_timer(self) -> None:
        await self._cancel_silence_timer()
        if self.silence_check_s is not None:
            self._silence_timer = self.create_task(self._check_in_when_silent())

    async def _check_in_when_silent(self) -> None:
        """The agent said nothing since the caller's last act: ask if it is still there, then
        (the same again) hang up; see :meth:`GoalCaller.silence`."""
        assert self.silence_check_s is not None
        await asyncio.sleep(self.silence_check_s)
        self._silence_timer = None
        if not self.caller.ended:
            await self._act(self.caller.silence())

    async def _cancel_timers(self) -> None:
        await self._cancel_silence_timer()
        await self._cancel_reply_timer()
        if self._open_timer is not None:
            await self.cancel_task(self._open_timer)
            self._open_timer = None

    async def _open_unless_greeted(self) -> None:
        await asyncio.sleep(self.no_greeting_s)
        self._open_timer = None
        if not self.caller.opened and not self._agent_spoke:  # a greeting underway opens at its end
            await self._act(self.caller.open())

    def _asks_what_is_being_said(self, text: str) -> bool:
        """The agent's words only ask for facts the caller's line, still being said, gives.

        The local agent speaks a sentence at a time as its LLM writes them, with pauses
        between; the caller's turn detector can end the agent's turn at such a pause, and the
        caller answers the request it heard. Its next sentence often restates the request
        ("Please provide the code and last name. ... Could you tell me the code and last
        name?"): that is the same question, asked before the answer could be heard, and
        answering it again is a repeated line (live bb.1, make run 2026-12-04)."""
        act = self._line_in_flight
        if act is None or not act.facts:
            return False
        heard = classify(text, self.caller.book, self.caller.given)
        return bool(heard.asked) and set(heard.asked) <= set(act.facts)

    async def _agent_turn(self, text: str) -> None:
        if self.caller.ended or not text.strip():
            return
        if not self._heard and self._asks_what_is_being_said(text):
            self.stats["overlapped_asks"] += 1
            return
        await self._cancel_timers()
        self.stats["agent_turns_heard"] += 1
        self._heard.append(text.strip())
        delay = reply_delay(
            self.caller, " ".join(self._heard), self.statement_wait_s, self.fragment_wait_s, self.done_wait_s
        )
        if delay <= 0:
            await self._reply()
        else:
            self.stats["replies_deferred"] += 1
            self._reply_timer = self.create_task(self._reply_when_quiet(delay))

    async def _reply_when_quiet(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self._reply_timer = None
        await self._reply()

    async def _reply(self) -> None:
        text, self._heard = " ".join(self._heard), []
        if self.caller.ended or not text:
            return
        t0 = time.perf_counter()
        act = self.caller.respond(text)
        ms = round((time.perf_counter() - t0) * 1000.0)
        self.stats["decide_ms_max"] = max(self.stats["decide_ms_max"], ms)
        await self._act(act)

    async def _act(self, act: CallerAct) -> None:
        self.stats["acts"] += 1
        self.on_act(act)
        if not act.ends_call:
            await self._start_silence_timer()
        if act.text:
            self._line_in_flight = act
            await self.push_frame(TTSSpeakFrame(act.text))
        else:
            self.stats["waits"] += 1
        if act.ends_call:
            await self.push_frame(HangUpFrame())


def goal_caller_for(call: CallScenario, seed: int) -> GoalCaller:
    """The policy for the call's scenario as the caller sees it (culture-resolved)."""
    resolved = call.resolver.resolve(call.scenario.model_dump(mode="json"))
    return GoalCaller(Scenario.model_validate(resolved), GoalCallerConfig(seed=seed))


def build_goal_caller(b: CallerBuild) -> Pipeline:
    """The goal caller's pipeline: its STT and turn detection, a :class:`GoalDriver` around the
    policy (phrasings seeded by the call's attempt seed; every act recorded as a ``caller_act``
    event), the spoken hang-up, its voice."""
    live, services = b.live, b.services
    if services.stt is None:
        raise ValueError("the goal caller needs an stt service to hear the agent")
    cfg, clock = live.cfg, live.clock
    gcfg = cfg.simulator.goal
    caller = goal_caller_for(live.call, b.seed)
    params = user_aggregator_params(cfg.simulator.vad, gcfg.turn, cfg.wire.sample_rate)
    strategies = params.user_turn_strategies
    if not gcfg.yields_to_agent and strategies is not None:  # the agent does not cut the caller's line
        strategies.start = [
            VADUserTurnStartStrategy(enable_interruptions=False),
            TranscriptionUserTurnStartStrategy(enable_interruptions=False),
        ]
    user_agg = LLMUserAggregator(LLMContext(), params=params)
    driver = GoalDriver(
        caller,
        lambda act: live.rec.emit(act.to_event(clock.now())),
        gcfg,
        services.info.caller_stats,
        # off when the call's inactivity limit would end the call first
        silence_check_s=gcfg.silence_check_s
        if gcfg.silence_check_s + 10.0 <= cfg.limits.inactivity_s
        else None,
    )
    hang_up = SpokenHangUp(lambda: live.control.end("end_call", t=clock.now()), gcfg.hangup_wait_s)
    return caller_pipeline(b, [services.stt, user_agg, driver, hang_up])
