"""The trace caller's turn-taking: hears the agent by VAD and, when its turn has come, says
the act its policy decides (the next reference line: ``pipelines/caller/trace_policy.py``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from pipecat.frames.frames import (
    BotStartedSpeakingFrame,
    BotStoppedSpeakingFrame,
    CancelFrame,
    EndFrame,
    Frame,
    StartFrame,
    TTSSpeakFrame,
    VADUserStartedSpeakingFrame,
    VADUserStoppedSpeakingFrame,
)
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor

from voxbench.processors.clock import loop_now
from voxbench.processors.trace_config import TraceSimConfig


class LineAct(Protocol):
    """What the driver reads of a caller act: its words, and whether it ends the call."""

    text: str
    ends_call: bool


class LinePolicy(Protocol):
    """A caller policy that hears by voice activity only (the trace caller's): each reply is
    decided without the agent's words; it also says how many agent turns its next line waits
    for (its hold lines)."""

    def respond(self, heard: str, t: float | None = None) -> LineAct: ...

    def agent_turns_due(self) -> int: ...


class TraceDriver(FrameProcessor):
    """Turn-taking by VAD on the agent's audio; pushes one `TTSSpeakFrame` per act of ``policy``
    and calls ``on_done`` at the act that ends the call. Before each line it waits for the
    agent turns the policy says are due (see the module docstring of ``trace_simulator``)."""

    def __init__(
        self,
        policy: LinePolicy,
        cfg: TraceSimConfig,
        on_done: Callable[[], None],
        max_wait_s: float | None = None,
        **kwargs: Any,
    ):
        super().__init__(**kwargs)
        # a hold wait must end before the runner's inactivity limit would end the call
        self._hold_wait_s = min(cfg.hold_gap_s, cfg.reply_timeout_s, max_wait_s or cfg.hold_gap_s)
        self.policy = policy
        self.cfg = cfg
        self.on_done = on_done
        self.lines_said = 0
        self.turns_heard = 0  # agent turns completed since our last line
        self.holds_waited = 0  # short agent turns after which we kept waiting for more
        self._agent_speaking = False
        self._agent_quiet_since = 0.0
        self._segment_start = 0.0
        self._turn_open = False  # the agent has spoken since its last completed turn
        self._turn_speech_s = 0.0
        self._last_turn_s = 0.0
        self._self_speaking = False
        self._pending_since: float | None = None
        self._my_line_ended = 0.0
        self._started = 0.0
        self._task: asyncio.Task | None = None
        self._done = False

    async def process_frame(self, frame: Frame, direction: FrameDirection) -> None:
        await super().process_frame(frame, direction)
        now = loop_now()
        if isinstance(frame, StartFrame):
            self._started = self._my_line_ended = now
            await self.push_frame(frame, direction)
            self._task = self.create_task(self._loop())
            return
        if isinstance(frame, EndFrame | CancelFrame) and self._task is not None:
            await self.cancel_task(self._task)
            self._task = None
        elif isinstance(frame, VADUserStartedSpeakingFrame):
            self._agent_speaking = self._turn_open = True
            self._segment_start = now
        elif isinstance(frame, VADUserStoppedSpeakingFrame):
            self._agent_speaking = False
            self._agent_quiet_since = now
            self._turn_speech_s += now - self._segment_start
        elif isinstance(frame, BotStartedSpeakingFrame):
            self._self_speaking = True
            self._pending_since = None
        elif isinstance(frame, BotStoppedSpeakingFrame):
            self._self_speaking = False
            self._my_line_ended = now
            # only an agent turn heard after our line counts as its reply
            self.turns_heard = 0
            self._turn_open = self._agent_speaking
            self._turn_speech_s = 0.0
        await self.push_frame(frame, direction)

    def _turn_is_ours(self, now: float) -> bool:
        if self._self_speaking or self._agent_speaking:
            return False
        if self._pending_since is not None:
            if now - self._pending_since < 10.0:
                return False
            self._pending_since = None  # TTS produced nothing; carry on
        quiet = now - self._agent_quiet_since
        if self._turn_open and quiet >= self.cfg.turn_gap_s:  # the agent's turn has ended
            self.turns_heard += 1
            self._last_turn_s = self._turn_speech_s
            self._turn_open = False
            self._turn_speech_s = 0.0
            if self._expecting_more():
                self.holds_waited += 1
        if self._turn_open:
            return False  # the agent's turn has not ended yet: hear it out
        if self.turns_heard:
            if not self._expecting_more():
                return True
            return quiet >= self._hold_wait_s
        limit = self.cfg.no_greeting_s if self.lines_said == 0 else self.cfg.reply_timeout_s
        return now - self._my_line_ended >= limit

    def _expecting_more(self) -> bool:
        """More agent turns are due before the next line, and the last one sounded like a hold."""
        return self.turns_heard < self.policy.agent_turns_due() and self._last_turn_s <= self.cfg.hold_max_s

    async def _loop(self) -> None:
        while not self._done:
            await asyncio.sleep(0.05)
            now = loop_now()
            if not self._turn_is_ours(now):
                continue
            act = self.policy.respond("", now)
            if act.ends_call:
                self._done = True
                self.on_done()
                return
            self.lines_said += 1
            self.turns_heard = 0
            self._pending_since = now
            await self.push_frame(TTSSpeakFrame(act.text))
