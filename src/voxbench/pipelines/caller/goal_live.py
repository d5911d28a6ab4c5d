"""The goal caller live: hears the agent through its STT, decides by its goal, speaks with its voice.

The decision is :class:`~voxbench.pipelines.caller.goal.policy.GoalCaller`'s, the same one
`voxbench caller check` measures in text; this module only gives it ears, a mouth and a hand
on the phone:

    wire in -> (gap fill) -> STT -> turn detection -> GoalDriver -> hang-up -> TTS -> wire out

* **ears**: the caller's STT transcribes the agent and pipecat's user-turn aggregator (VAD +
  smart-turn or a silence timeout, ``GoalSimConfig.turn``) says when an agent turn has ended;
  its ``LLMContextUserTurnFrame`` carries the turn's words to the driver. No LLM runs: the
  aggregator's context frames are dropped.
* **decision**: at the end of each agent turn the driver asks the policy for one act. The act's
  words (its phrasing seeded by the call's attempt seed) go to the TTS whole, and the act
  itself is recorded as a ``caller_act`` event: the rule that fired, every classifier match,
  the fact keys disclosed, the option chosen, whether it hangs up. A ``wait`` act (the agent
  asked to hold) says nothing.
* **hand on the phone**: an act that ends the call is followed by a :class:`HangUpFrame`;
  :class:`SpokenHangUp` ends the call through ``CallControl`` once the goodbye has been
  spoken, so the agent hears it whole.

If the agent never greets, the caller opens with its starting utterance after
``no_greeting_s``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from pipecat.frames.frames import (
    CancelFrame,
    EndFrame,
    Frame,
    LLMContextFrame,
    LLMContextUserTurnFrame,
    StartFrame,
    TTSSpeakFrame,
)
from pipecat.pipeline.pipeline import Pipeline
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import LLMUserAggregator
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor

from voxbench.pipelines.bundles import SimulatorServices
from voxbench.pipelines.caller.goal.acts import CallerAct
from voxbench.pipelines.caller.goal.policy import GoalCaller, GoalCallerConfig
from voxbench.pipelines.config import CallConfig
from voxbench.pipelines.control import CallControl
from voxbench.pipelines.llm_simulator import CallerHangUp, HangUpFrame
from voxbench.pipelines.scenario_input import CallScenario
from voxbench.pipelines.turns import user_aggregator_params
from voxbench.processors.clock import ConversationClock
from voxbench.records import Event
from voxbench.scenarios import Scenario
from voxbench.transports.pacing import GapFillProcessor

__all__ = ["GoalDriver", "SpokenHangUp", "build_goal_simulator", "goal_caller_for"]


class SpokenHangUp(CallerHangUp):
    """:class:`CallerHangUp` for words given whole (``TTSSpeakFrame``) rather than LLM text:
    a goodbye with words is waited for until its audio has started, then played out."""

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        if isinstance(frame, TTSSpeakFrame) and direction == FrameDirection.DOWNSTREAM:
            self._words = bool(frame.text.strip())
            self._words_started = False
        await super().process_frame(frame, direction)


class GoalDriver(FrameProcessor):
    """Turns each ended agent turn into one goal-caller act: words to speak, an event to record.

    ``on_act`` receives every act (the runner's recorder keeps it as a ``caller_act`` event);
    ``stats`` counts acts, silent waits and the slowest decision (``decide_ms_max``).
    """

    def __init__(
        self,
        caller: GoalCaller,
        on_act: Callable[[CallerAct], None],
        no_greeting_s: float,
        stats: dict[str, int] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.caller = caller
        self.on_act = on_act
        self.no_greeting_s = no_greeting_s
        self.stats = stats if stats is not None else {}
        for key in ("acts", "waits", "agent_turns_heard", "decide_ms_max"):
            self.stats.setdefault(key, 0)
        self._timer: asyncio.Task[None] | None = None

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        if isinstance(frame, StartFrame):
            await self.push_frame(frame, direction)
            self._timer = self.create_task(self._open_unless_greeted())
            return
        if isinstance(frame, EndFrame | CancelFrame):
            await self._stop_timer()
        if isinstance(frame, LLMContextUserTurnFrame):
            if direction == FrameDirection.DOWNSTREAM:
                await self._agent_turn(frame.text)
            return
        if isinstance(frame, LLMContextFrame):
            return  # no LLM here: the policy decides on the turn's words
        await self.push_frame(frame, direction)

    async def _stop_timer(self) -> None:
        if self._timer is not None:
            await self.cancel_task(self._timer)
            self._timer = None

    async def _open_unless_greeted(self) -> None:
        await asyncio.sleep(self.no_greeting_s)
        self._timer = None
        if not self.caller.opened:
            await self._act(self.caller.open())

    async def _agent_turn(self, text: str) -> None:
        if self.caller.ended or not text.strip():
            return
        await self._stop_timer()
        self.stats["agent_turns_heard"] += 1
        t0 = time.perf_counter()
        act = self.caller.respond(text)
        ms = round((time.perf_counter() - t0) * 1000.0)
        self.stats["decide_ms_max"] = max(self.stats["decide_ms_max"], ms)
        await self._act(act)

    async def _act(self, act: CallerAct) -> None:
        self.stats["acts"] += 1
        self.on_act(act)
        if act.text:
            await self.push_frame(TTSSpeakFrame(act.text))
        else:
            self.stats["waits"] += 1
        if act.ends_call:
            await self.push_frame(HangUpFrame())


def goal_caller_for(call: CallScenario, seed: int) -> GoalCaller:
    """The policy for the call's scenario as the caller sees it (culture-resolved)."""
    resolved = call.resolver.resolve(call.scenario.model_dump(mode="json"))
    return GoalCaller(Scenario.model_validate(resolved), GoalCallerConfig(seed=seed))


def build_goal_simulator(
    call: CallScenario,
    services: SimulatorServices,
    transport: Any,
    cfg: CallConfig,
    control: CallControl,
    clock: ConversationClock,
    emit: Callable[[Event], None],
    seed: int,
) -> Pipeline:
    """The goal caller's pipeline; ``emit`` records its acts, ``seed`` picks its phrasings."""
    if services.stt is None:
        raise ValueError("the goal caller needs an stt service to hear the agent")
    gcfg = cfg.simulator.goal
    sr = cfg.wire.sample_rate
    caller = goal_caller_for(call, seed)
    user_agg = LLMUserAggregator(
        LLMContext(), params=user_aggregator_params(cfg.simulator.vad, gcfg.turn, sr)
    )
    driver = GoalDriver(
        caller,
        lambda act: emit(act.to_event(clock.now())),
        gcfg.no_greeting_s,
        services.info.caller_stats,
    )
    hang_up = SpokenHangUp(lambda: control.end("end_call", t=clock.now()), gcfg.hangup_wait_s)
    stages: list[FrameProcessor] = [transport.input()]
    if cfg.wire.gap_fill:
        stages.append(GapFillProcessor(sr))
    stages += [services.stt, user_agg, driver, hang_up, services.tts, transport.output()]
    return Pipeline(stages)
