"""The live driver of a caller that hears the agent's words: any :class:`CallerPolicy`.

Between the caller's STT and turn detection (pipecat's user-turn aggregator, whose
``LLMContextUserTurnFrame`` carries an ended agent turn's words) and its voice, the driver
turns the agent's ended turns into the policy's acts: words to speak (``TTSSpeakFrame``), an
event to record (``on_act``), a hang-up after an act that ends the call (``HangUpFrame``).
It decides nothing itself; *when* to answer is the policy's :class:`TurnTiming`:

* ``reply_delay(heard)``: how long the agent must stay quiet before the policy answers what it
  heard since the caller last spoke (0: at once). If the agent speaks again first, the reply
  covers every agent turn since then;
* ``restates(heard, in_flight)``: the agent only repeats a request the caller's line, still
  being said, answers (the turn is let pass);
* ``on_silence()``: the act for an agent silent ``silence_check_s`` after the caller's last
  act (None: keep waiting).

The default, :class:`AnswerAtTurnEnd`, answers every ended turn at once and waits through
silence. If the agent has not started speaking after ``no_greeting_s``, the caller opens.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import Any, Protocol

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
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor

from voxbench.pipelines.caller.policy import CallerAct, CallerPolicy
from voxbench.processors.caller_turns import HangUpFrame
from voxbench.processors.clock import loop_now


class TurnTiming(Protocol):
    """When a policy answers (see the module docstring)."""

    def reply_delay(self, heard: str) -> float: ...

    def restates(self, heard: str, in_flight: CallerAct) -> bool: ...

    def on_silence(self) -> CallerAct | None: ...


class AnswerAtTurnEnd:
    """Answer every ended agent turn at once; never act on silence."""

    def reply_delay(self, heard: str) -> float:
        return 0.0

    def restates(self, heard: str, in_flight: CallerAct) -> bool:
        return False

    def on_silence(self) -> CallerAct | None:
        return None


STAT_KEYS = ("acts", "waits", "agent_turns_heard", "replies_deferred", "decide_ms_max", "overlapped_asks")


class PolicyDriver(FrameProcessor):
    """Runs ``policy`` on the agent's ended turns (see the module docstring). ``on_act``
    receives every act (the builder records it as a ``caller_act`` event); ``now`` is the
    call's clock (the time ``respond`` is given); ``stats`` counts acts, silent waits, agent
    turns heard, replies deferred, turns let pass as restated asks and the slowest decision
    (``decide_ms_max``)."""

    def __init__(
        self,
        policy: CallerPolicy,
        on_act: Callable[[CallerAct], None],
        no_greeting_s: float,
        timing: TurnTiming | None = None,
        stats: dict[str, int] | None = None,
        silence_check_s: float | None = None,
        now: Callable[[], float] = loop_now,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.policy = policy
        self.now = now
        self.on_act = on_act
        self.no_greeting_s = no_greeting_s
        self.timing: TurnTiming = timing or AnswerAtTurnEnd()
        self.silence_check_s = silence_check_s
        self.stats = stats if stats is not None else {}
        for key in STAT_KEYS:
            self.stats.setdefault(key, 0)
        self._acted = False  # the caller has opened (by its own act or in reply to the agent)
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
        """The agent said nothing since the caller's last act: the timing's silence act (the
        goal caller asks if the agent is still there, then hangs up: ``GoalCaller.silence``)."""
        assert self.silence_check_s is not None
        await asyncio.sleep(self.silence_check_s)
        self._silence_timer = None
        act = None if self.policy.ended else self.timing.on_silence()
        if act is not None:
            await self._act(act)

    async def _cancel_timers(self) -> None:
        await self._cancel_silence_timer()
        await self._cancel_reply_timer()
        if self._open_timer is not None:
            await self.cancel_task(self._open_timer)
            self._open_timer = None

    async def _open_unless_greeted(self) -> None:
        await asyncio.sleep(self.no_greeting_s)
        self._open_timer = None
        if not self._acted and not self._agent_spoke:  # a greeting underway opens at its end
            await self._act(self.policy.open())

    async def _agent_turn(self, text: str) -> None:
        if self.policy.ended or not text.strip():
            return
        act = self._line_in_flight
        if not self._heard and act is not None and self.timing.restates(text, act):
            self.stats["overlapped_asks"] += 1
            return
        await self._cancel_timers()
        self.stats["agent_turns_heard"] += 1
        self._heard.append(text.strip())
        delay = self.timing.reply_delay(" ".join(self._heard))
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
        if self.policy.ended or not text:
            return
        t0 = time.perf_counter()
        decided = self.policy.respond(text, self.now())
        act = await decided if inspect.isawaitable(decided) else decided
        ms = round((time.perf_counter() - t0) * 1000.0)
        self.stats["decide_ms_max"] = max(self.stats["decide_ms_max"], ms)
        await self._act(act)

    async def _act(self, act: CallerAct) -> None:
        self._acted = True
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
